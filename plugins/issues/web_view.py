"""What the issue pages show and read, apart from the routes: the list's filters as a URL, the
forms' comma-separated names, a board's columns, and a description's headings placed below the
page's own. Kept free of requests so the pages' rules can be read (and tested) in one place."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any, TypeVar
from urllib.parse import urlencode

import pydantic
from markupsafe import Markup

from ctx.core import ValidationError
from ctx.ui import to_html

STATES = ("open", "closed", "all")
BOARDS = ("state", "label")
REASONS = {
    "completed": "completed",
    "not_planned": "not planned",
    "duplicate": "a duplicate",
}
NO_LABEL = "no label"
HEADING_RE = re.compile(r"<(/?)h([1-6])>")
M = TypeVar("M", bound=pydantic.BaseModel)


def valid(model: type[M], data: dict[str, Any]) -> M:
    """``model`` from ``data``; a broken rule is ctx's ``ValidationError`` (a 422 in words), so
    a form comes back with a message instead of a server error."""
    try:
        return model.model_validate(data)
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "input"
        message = str(first.get("msg", "is invalid")).removeprefix("Value error, ")
        raise ValidationError(f"{where}: {message}", field=where) from None


def names(text: str) -> list[str]:
    """Comma-separated names as a list: blanks dropped, the first of repeats kept."""
    seen: list[str] = []
    for part in text.split(","):
        name = part.strip()
        if name and name not in seen:
            seen.append(name)
    return seen


@dataclass(frozen=True)
class Filters:
    """The list's filters as the GET form sends them (blank means "any")."""

    state: str = "open"
    label: str = ""
    assignee: str = ""
    text: str = ""
    scope: str = ""

    def query(self) -> dict[str, Any]:
        """The filters for ``IssueFilter``."""
        return {
            "state": self.state,
            "label": self.label or None,
            "assignee": self.assignee or None,
            "text": self.text or None,
            "scope": self.scope or None,
            "limit": 200,
        }

    def url(self, **changes: str) -> str:
        values = {k: v for k, v in {**asdict(self), **changes}.items() if v}
        return "/issues" + ("?" + urlencode(values) if values else "")

    @property
    def narrowed(self) -> bool:
        return bool(self.label or self.assignee or self.text or self.scope)


def board_columns(issues: list[dict[str, Any]], by: str) -> list[tuple[str, list[Any]]]:
    """Columns of a board: open and closed, or one per label present (an issue with two labels
    is on both) and a last one for issues without a label."""
    if by == "state":
        return [(s, [i for i in issues if i.get("state") == s]) for s in ("open", "closed")]
    labels = sorted({label for i in issues for label in i["labels"]}, key=str.lower)
    columns = [(label, [i for i in issues if label in i["labels"]]) for label in labels]
    return [*columns, (NO_LABEL, [i for i in issues if not i["labels"]])]


def body_html(text: str | None, shift: int = 1) -> Markup:
    """Markdown as sanitised HTML, its headings moved ``shift`` levels down so a ``# title`` in
    a description is no second h1 on the page."""

    def move(m: re.Match[str]) -> str:
        return f"<{m.group(1)}h{min(6, int(m.group(2)) + shift)}>"

    return Markup(HEADING_RE.sub(move, str(to_html(text))))


def change_text(value: Any) -> str:
    """A history value as one line: lists joined, mappings as ``key: value`` pairs."""
    if value is None:
        return ""
    if isinstance(value, dict):
        return "; ".join(f"{k}: {change_text(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    return str(value)
