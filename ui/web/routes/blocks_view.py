"""What the blocks pages show and read, apart from the routes: the search form's filters, the
block form's fields, a hit's marked snippet, content with its headings placed below the page's,
the block types a person may pick."""

from __future__ import annotations

import difflib
import re
from dataclasses import asdict, dataclass
from datetime import UTC
from typing import Annotated, Any, TypeVar
from urllib.parse import urlencode

import pydantic
from fastapi import Depends, Form
from markupsafe import Markup

from ctx.core import App, ValidationError
from ctx.core.blocks import BlockTypeSpec
from ctx.core.validation import error_message
from ctx.ui.web.markdown import to_html

#: Guard statuses as badges: the class says how much attention each asks for.
GUARD_BADGES = {
    "clean": "ok",
    "reviewed": "ok",
    "needs_review": "warn",
    "near_duplicate": "bad",
    "update": "ok",
    "translation": "ok",
}
HEADING_RE = re.compile(r"<(/?)h([1-6])>")
M = TypeVar("M", bound=pydantic.BaseModel)


def valid(model: type[M], data: dict[str, Any]) -> M:
    """``model`` from ``data``, a broken rule as ctx's own ``ValidationError`` (a 4xx, in words)."""
    try:
        return model.model_validate(data)
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "input"
        raise ValidationError(f"{where} {error_message(dict(first))}", field=where) from None


def writable_types(app: App, current: str | None = None) -> list[BlockTypeSpec]:
    """The block types a person may pick: not owned by a workflow, and listed wherever their
    blocks are (not a private type: a governed thread's events, written by the governor, whose
    blocks a listing shows only in their category); an edited block keeps its own type on
    offer."""
    specs = app.block_types
    return sorted(
        (
            s
            for s in specs.values()
            if (s.workflow is None and s.seen_in("listing")) or s.name == current
        ),
        key=lambda s: s.name,
    )


def highlighted(snippet: str, query: str) -> list[tuple[str, bool]]:
    """A search hit's snippet as (text, is_match) pieces, the query's words marked. The words are
    matched by their stem-ish start ("deploying" marks "deployed"); the search's own ``**``
    markers are dropped, as content may hold ``**`` of its own."""
    text = snippet.replace("**", "")
    stems = {w[: max(3, len(w) - 3)] if len(w) > 5 else w for w in re.findall(r"\w{2,}", query)}
    if not stems:
        return [(text, False)]
    pattern = re.compile(r"\b(?:" + "|".join(map(re.escape, stems)) + r")\w*", re.IGNORECASE)
    pieces, at = [], 0
    for m in pattern.finditer(text):
        pieces += [(text[at : m.start()], False), (m.group(), True)]
        at = m.end()
    pieces.append((text[at:], False))
    return [p for p in pieces if p[0]]


def content_html(text: str, shift: int) -> Markup:
    """Block content as safe HTML (the ``markdown`` filter's), its headings moved ``shift``
    levels down so they sit below the page's own (an ``# h1`` in content is no second h1)."""

    def move(m: re.Match[str]) -> str:
        return f"<{m.group(1)}h{min(6, int(m.group(2)) + shift)}>"

    # the sanitiser leaves headings without attributes, and text holds no raw "<"
    return Markup(HEADING_RE.sub(move, str(to_html(text))))


@dataclass
class Filters:
    """What the search form and the page links carry."""

    q: str = ""
    category: str = ""
    tag: str = ""
    scope: str = ""
    type: str = ""
    archived: bool = False
    before: str = ""
    after: str = ""

    def url(self, **change: Any) -> str:
        """``/blocks`` with these filters (and ``change``), empty ones left out."""
        values = {**asdict(self), **change}
        values["archived"] = "1" if values["archived"] else ""
        query = urlencode([(k, v) for k, v in values.items() if v])
        return "/blocks" + (f"?{query}" if query else "")

    @property
    def narrowed(self) -> bool:
        return bool(self.q or self.category or self.tag or self.scope or self.type)


@dataclass
class BlockForm:
    """The block form's fields as typed, kept whole so a refused form comes back unchanged."""

    title: str = ""
    content: str = ""
    category: str = "general"
    block_type: str = "knowledge"
    tags: str = ""
    sensitivity: str = ""
    occurred_at: str = ""

    @classmethod
    def of(cls, block: dict[str, Any]) -> BlockForm:
        when = block["occurred_at"]
        return cls(
            title=block["title"],
            content=block["content"],
            category=block["category"],
            block_type=block["block_type"],
            tags=", ".join(block["tags"]),
            sensitivity=block["sensitivity"],
            occurred_at=when.astimezone(UTC).isoformat() if when else "",
        )

    def values(self) -> dict[str, Any]:
        """The fields as a store request names them (empty optional fields left to defaults)."""
        values: dict[str, Any] = {
            "title": self.title,
            "content": self.content,
            "category": self.category.strip() or "general",
            "block_type": self.block_type,
            "tags": [t.strip() for t in self.tags.split(",") if t.strip()],
            "sensitivity": self.sensitivity or None,
            "occurred_at": self.occurred_at.strip() or None,
        }
        return values


def block_form(
    title: Annotated[str, Form()] = "",
    content: Annotated[str, Form()] = "",
    category: Annotated[str, Form()] = "",
    block_type: Annotated[str, Form()] = "",
    tags: Annotated[str, Form()] = "",
    sensitivity: Annotated[str, Form()] = "",
    occurred_at: Annotated[str, Form()] = "",
) -> BlockForm:
    # browsers send a textarea's line breaks as CRLF: store them as typed, with LF
    text = content.replace("\r\n", "\n")
    return BlockForm(title, text, category, block_type, tags, sensitivity, occurred_at)


FormDep = Annotated[BlockForm, Depends(block_form)]


def diff_lines(before: str, now: str) -> list[tuple[str, str]]:
    """What changed from ``before`` to ``now``, line by line with two lines of context around each
    change: ``(kind, text)`` with kind ``add``, ``del``, ``same`` or ``gap`` (lines left out)."""
    out: list[tuple[str, str]] = []
    lines = difflib.unified_diff(before.splitlines(), now.splitlines(), n=2, lineterm="")
    for line in list(lines)[2:]:  # the two file header lines
        if line.startswith("@@"):
            out.append(("gap", "…"))
        else:
            kind = {"+": "add", "-": "del"}.get(line[:1], "same")
            out.append((kind, line[1:]))
    return out[1:] if out and out[0][0] == "gap" else out


def past_versions(versions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The past versions of a block's listing (newest first), each with its diff against the
    current one and what else changed (title, category, tags, type)."""
    if not versions:
        return []
    current, past = versions[0], versions[1:]
    return [
        {
            **v,
            "diff": diff_lines(v["content"], current["content"]),
            "renamed": [
                k for k in ("title", "category", "tags", "block_type") if v[k] != current[k]
            ],
        }
        for v in past
    ]
