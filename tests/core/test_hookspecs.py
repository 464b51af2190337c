"""Keep ``core/hookspecs.py`` and ``docs/plugin-hooks.md`` in step.

Each hookspec needs a ``## name`` section in the doc that shows its signature, names each argument
and states its call style; the doc may not document hooks that do not exist; each hookspec's
docstring must say when it is called and how its implementations are collected.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ctx.core import hookspecs

DOC = Path(__file__).resolve().parents[2] / "docs" / "plugin-hooks.md"
HOOK_HEADING = re.compile(r"^## ([a-z_][a-z0-9_]*)\s*$", re.MULTILINE)
ANY_HEADING = re.compile(r"^#{1,2} ", re.MULTILINE)


def _specs() -> dict[str, Callable[..., Any]]:
    marker = f"{hookspecs.PROJECT}_spec"  # pluggy sets <project>_spec on each hookspec function
    return {
        name: func
        for name, func in vars(hookspecs).items()
        if callable(func) and getattr(func, marker, None) is not None
    }


def _options(func: Callable[..., Any]) -> dict[str, Any]:
    return dict(getattr(func, f"{hookspecs.PROJECT}_spec"))


def _sections() -> dict[str, str]:
    """Map each hook heading to the text of its section (up to the next heading)."""
    text = DOC.read_text(encoding="utf-8")
    sections = {}
    for match in HOOK_HEADING.finditer(text):
        following = ANY_HEADING.search(text, match.end())
        sections[match.group(1)] = text[match.end() : following.start() if following else None]
    return sections


def _annotation(value: Any) -> str:
    if value is inspect.Signature.empty:
        return ""
    return value if isinstance(value, str) else inspect.formatannotation(value)


def _signature_line(name: str, func: Callable[..., Any]) -> str:
    sig = inspect.signature(func)
    params = ", ".join(f"{p.name}: {_annotation(p.annotation)}" for p in sig.parameters.values())
    return f"def {name}({params}) -> {_annotation(sig.return_annotation)}"


def _call_style(options: dict[str, Any]) -> str:
    if options.get("historic"):
        return "historic"
    if options.get("firstresult"):
        return "first result"
    return "all results"


SPECS = _specs()
SECTIONS = _sections()


def test_hookspecs_are_found() -> None:
    assert "register_block_types" in SPECS
    assert "on_block_written" in SPECS


def test_every_hook_is_documented() -> None:
    missing = sorted(set(SPECS) - set(SECTIONS))
    assert not missing, f"hooks missing from {DOC.name}: {', '.join(missing)}"


def test_doc_documents_only_existing_hooks() -> None:
    unknown = sorted(set(SECTIONS) - set(SPECS))
    assert not unknown, f"{DOC.name} documents hooks that do not exist: {', '.join(unknown)}"


@pytest.mark.parametrize("name", sorted(SPECS))
def test_section_shows_the_signature(name: str) -> None:
    section = SECTIONS.get(name, "")
    line = _signature_line(name, SPECS[name])
    assert line in section, f"{DOC.name} section {name!r} must show `{line}`"


@pytest.mark.parametrize("name", sorted(SPECS))
def test_section_mentions_every_argument(name: str) -> None:
    section = SECTIONS.get(name, "")
    prose = re.sub(r"```.*?```", "", section, flags=re.DOTALL)  # code blocks don't count
    params = inspect.signature(SPECS[name]).parameters
    # `register` and `register(spec)` both count as explaining the argument.
    missing = [arg for arg in params if not re.search(rf"`{re.escape(arg)}\b", prose)]
    assert not missing, f"{DOC.name} section {name!r} never explains: {', '.join(missing)}"


@pytest.mark.parametrize("name", sorted(SPECS))
def test_section_states_the_call_style(name: str) -> None:
    section = SECTIONS.get(name, "")
    match = re.search(r"\*\*Call style:\*\*\s*([a-z ]+)", section)
    assert match, f"{DOC.name} section {name!r} lacks a '**Call style:**' line"
    assert match.group(1).strip() == _call_style(_options(SPECS[name]))


@pytest.mark.parametrize("name", sorted(SPECS))
def test_hookspec_docstring_is_a_contract(name: str) -> None:
    doc = inspect.getdoc(SPECS[name]) or ""
    assert doc, f"hookspec {name} has no docstring"
    assert re.search(r"\b(called|runs?)\b[^.]*\b(when|once|after|before|by|at)\b", doc, re.I), (
        f"hookspec {name}: the docstring must say when the hook is called"
    )
    options = _options(SPECS[name])
    if options.get("historic"):
        assert "historic" in doc.lower(), f"hookspec {name}: say that it is historic"
    elif options.get("firstresult"):
        assert "first" in doc.lower(), f"hookspec {name}: say that the first result wins"
    else:
        assert "all implementations run" in doc.lower(), (
            f"hookspec {name}: say that all implementations run"
        )
