"""Prompt templates: versioned files in ``ctx/policies/prompts`` (``<name>.<version>.md``).

A setting chooses the version (``query.prompt_version`` for synthesis); a new version is a new
file, so an answer can always be traced to the exact words that produced it. Templates are Jinja
with strict undefined variables: a template naming a value the code does not pass fails loudly.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

import jinja2

from ctx.core.errors import ConfigError

PACKAGE = "ctx.policies.prompts"
VERSION_RE = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,31}$")
_ENV = jinja2.Environment(
    undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=False
)


def prompt_versions(name: str) -> list[str]:
    """The versions shipped for a prompt, sorted."""
    files = resources.files(PACKAGE)
    prefix = name + "."
    return sorted(
        f.name[len(prefix) : -3]
        for f in files.iterdir()
        if f.name.startswith(prefix) and f.name.endswith(".md")
    )


@lru_cache(maxsize=64)
def _template(name: str, version: str) -> jinja2.Template:
    if not VERSION_RE.match(version):
        raise ConfigError(f"prompt version {version!r} is not a valid version name")
    source = resources.files(PACKAGE).joinpath(f"{name}.{version}.md")
    if not source.is_file():
        have = ", ".join(prompt_versions(name)) or "none"
        raise ConfigError(f"no prompt {name!r} in version {version!r} (shipped: {have})")
    return _ENV.from_string(source.read_text("utf-8"))


def render_prompt(name: str, version: str, **values: object) -> str:
    """The prompt's text with ``values`` filled in, surrounding blank lines trimmed."""
    try:
        return _template(name, version).render(**values).strip()
    except jinja2.UndefinedError as exc:
        raise ConfigError(f"prompt {name}.{version}: {exc.message}") from None
