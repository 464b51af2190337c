"""Map each top-level folder onto a ``ctx.<folder>`` package.

The repository keeps ``core/``, ``plugins/``, ``policies/``, ``ui/`` and ``migrations/`` at the top
level; installed, they are ``ctx.core`` and so on. ``ctx`` itself is a namespace package, so nothing
installs a bare ``core`` or ``plugins`` module.
"""

from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).parent
TOP = ["core", "plugins", "policies", "ui", "migrations"]


def _packages() -> tuple[list[str], dict[str, str]]:
    packages: list[str] = []
    package_dir: dict[str, str] = {}
    for top in TOP:
        for init in sorted((ROOT / top).rglob("__init__.py")):
            rel = init.parent.relative_to(ROOT)
            name = "ctx." + ".".join(rel.parts)
            packages.append(name)
            package_dir[name] = str(rel)
    return packages, package_dir


packages, package_dir = _packages()

setup(
    packages=packages,
    package_dir=package_dir,
    package_data={
        name: ["py.typed", "*.sql", "*.json", "*.toml", "*.md", "templates/**/*", "static/**/*"]
        for name in packages
    },
    include_package_data=True,
)
