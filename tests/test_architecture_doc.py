"""Keep docs/architecture.md in step with the code, the way test_hookspecs keeps plugin-hooks.md.

The map must name every capability package of the core, every module at the core's top level,
every built-in plugin, every surface, every plugin loaded by default, every migration (numbered
and repeatable, of every set a plugin registers) and every job kind a worker can claim. Each is
looked for as written in the doc between backticks, so a passing mention in prose does not count
and a renamed folder fails until the doc follows.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ctx.core.runtime import CORE_PLUGINS, DEFAULT_PLUGINS, PluginHost, job_handlers
from ctx.core.runtime.migrate import all_sets

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"


def _named(text: str) -> set[str]:
    """Every `backticked` phrase of the doc."""
    return set(re.findall(r"`([^`\n]+)`", text))


def _packages(folder: str) -> list[str]:
    return sorted(
        f"{folder}/{p.name}/"
        for p in (ROOT / folder).iterdir()
        if p.is_dir() and (p / "__init__.py").exists()
    )


def _modules(folder: str) -> list[str]:
    return sorted(
        f"{folder}/{p.name}" for p in (ROOT / folder).glob("*.py") if p.name != "__init__.py"
    )


def _host() -> PluginHost:
    return PluginHost(load_entry_points=False, environ={})


def _missing(expected: list[str], text: str | None = None) -> list[str]:
    named = _named(DOC.read_text(encoding="utf-8") if text is None else text)
    return [name for name in expected if name not in named]


def test_every_capability_package_and_core_module_is_on_the_map() -> None:
    expected = _packages("core") + _modules("core")
    assert "core/blocks/" in expected and "core/operations.py" in expected
    assert _missing(expected) == [], "add them to the map in docs/architecture.md"


def test_every_surface_is_on_the_map() -> None:
    expected = _packages("ui")
    assert "ui/cli/" in expected and "ui/api/" in expected
    assert _missing(expected) == [], "add them to the surfaces in docs/architecture.md"


def test_every_built_in_plugin_is_on_the_map() -> None:
    expected = _packages("plugins") + _modules("plugins")
    assert "plugins/issues/" in expected
    loaded = sorted([*CORE_PLUGINS, *DEFAULT_PLUGINS])
    assert _missing(expected + loaded) == [], "add them to docs/architecture.md"


def test_every_migration_is_listed() -> None:
    sets = all_sets(_host())
    names = sorted({m.name.removeprefix("functions/") for s in sets for m in s})
    assert {m.set_name for s in sets for m in s} >= {"core", "issues"}
    assert "0001_foundation.sql" in names and "ctx_rrf.sql" in names
    assert _missing(names) == [], "list them under Migrations in docs/architecture.md"


def test_every_job_kind_is_listed() -> None:
    kinds = sorted(job_handlers(_host()))
    assert {"embed", "guard", "issues.sync"} <= set(kinds)
    assert _missing(kinds) == [], "list them under Background work in docs/architecture.md"


@pytest.mark.parametrize(
    "stale", ["core/cli/", "ctx.core.cli", "register_routes", "register_mcp_tools", "ROUTE_KINDS"]
)
def test_the_map_names_nothing_that_is_gone(stale: str) -> None:
    assert stale not in _named(DOC.read_text(encoding="utf-8"))


def test_a_missing_entry_is_caught() -> None:
    """The check itself works: a doc without the governor's row misses it."""
    trimmed = DOC.read_text(encoding="utf-8").replace("`core/governor/`", "the governor")
    assert _missing(["core/governor/", "core/guard/"], trimmed) == ["core/governor/"]
