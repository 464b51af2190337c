"""One note parsed: front matter, title, tags, aliases, date and the body.

Front matter is YAML between a leading ``---`` line and the next ``---`` (or ``...``) line, read
with ``yaml.safe_load``. Broken front matter never drops a note: the problem is reported for the
file and the block keeps it as plain text, so nothing the author wrote disappears.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from typing import Any

import yaml

from ctx.plugins.ingest.decode import clean_text
from ctx.plugins.ingest.links import inline_tags, mask_code

KNOWN_FIELDS = {"title", "tags", "tag", "aliases", "alias", "date", "created"}
FRONT_END = re.compile(r"^(?:---|\.\.\.)[ \t]*$", re.M)
MAX_TAGS = 50
MAX_VALUES = 10_000
MAX_DEPTH = 32
INT_LIMIT = 2**63 - 1  # bigint, like the server's input rule


@dataclass
class Note:
    """What the ingest sends of one file (before chunking)."""

    path: str
    title: str
    body: str
    tags: list[str] = field(default_factory=list)
    aliases: list[str] = field(default_factory=list)
    occurred_at: str | None = None
    frontmatter: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def split_front_matter(text: str) -> tuple[dict[str, Any], str, str | None]:
    """(front matter, body, problem). On a problem the front matter stays in the body."""
    if not text.startswith("---\n") and text.rstrip("\n") != "---":
        return {}, text, None
    end = FRONT_END.search(text, 4)
    if end is None:
        return {}, text, "broken front matter: no closing '---' line"
    block, body = text[4 : end.start()], text[end.end() :].lstrip("\n")
    try:
        data = yaml.safe_load(block)
    except yaml.YAMLError as exc:
        where = getattr(exc, "problem_mark", None)
        line = f" (line {where.line + 2})" if where is not None else ""
        reason = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        return {}, text, f"broken front matter{line}: {reason}"
    except (ValueError, TypeError, OverflowError, RecursionError) as exc:
        return {}, text, f"broken front matter: {exc}"
    if data is None:
        return {}, body, None
    if not isinstance(data, dict):
        return {}, text, f"broken front matter: a {type(data).__name__}, not key: value pairs"
    try:
        return json_safe(data), body, None
    except FrontMatterTooLarge as exc:
        return {}, text, f"broken front matter: {exc}"


class FrontMatterTooLarge(ValueError):
    pass


def json_safe(value: Any, budget: list[int] | None = None, depth: int = 0) -> Any:
    """YAML values as JSON that ctx stores: dates and times to ISO strings, keys to strings,
    sets to lists. YAML escapes (``"\\0"``, ``"\\ud800"``) and ``.inf`` or a 20-digit number
    would break the server's input rule and cost the whole batch a 422, so text is cleaned like
    the note's, a number that is not finite is null and an integer past bigint is text.
    At most ``MAX_VALUES`` values: YAML aliases can make a small file an enormous (or endless)
    structure, which ends here as ``FrontMatterTooLarge``."""
    budget = [MAX_VALUES] if budget is None else budget
    budget[0] -= 1
    if budget[0] < 0 or depth > MAX_DEPTH:
        raise FrontMatterTooLarge(f"more than {MAX_VALUES} values or {MAX_DEPTH} levels")
    if isinstance(value, dict):
        return {clean_text(str(k)): json_safe(v, budget, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        return [json_safe(v, budget, depth + 1) for v in value]
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, int) and not -INT_LIMIT - 1 <= value <= INT_LIMIT:
        return str(value)
    if isinstance(value, bytes):
        return clean_text(value.decode("utf-8", errors="replace"))
    if isinstance(value, str):
        return clean_text(value)
    if value is None or isinstance(value, bool | int):
        return value
    return clean_text(str(value))


def words(value: Any) -> list[str]:
    """A list field that authors also write as ``a, b`` or ``a b`` (tags)."""
    if value is None:
        return []
    if isinstance(value, list | tuple):
        return [str(v).strip() for v in value if v is not None and str(v).strip()]
    return [w for w in re.split(r"[,\s]+", str(value)) if w]


def names(value: Any) -> list[str]:
    """A list field whose items may hold spaces (aliases): a string splits on commas only."""
    if value is None:
        return []
    if isinstance(value, list | tuple):
        return [str(v).strip() for v in value if v is not None and str(v).strip()]
    return [w.strip() for w in str(value).split(",") if w.strip()]


def when(value: Any) -> str | None:
    """A front matter date as an ISO timestamp (a plain date is midnight UTC); None if unclear."""
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, date):
        moment = datetime.combine(value, time(), tzinfo=UTC)
    elif isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.strip())
        except ValueError:
            return None
    else:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    if not 1 < moment.year < 9999:
        return None
    return moment.isoformat()


def tag_list(front: list[str], inline: list[str]) -> list[str]:
    out: dict[str, None] = {}
    for tag in (*front, *inline):
        tag = tag.lstrip("#").strip()[:100]
        if tag:
            out.setdefault(tag, None)
    return list(out)[:MAX_TAGS]


def one_line(text: str, limit: int) -> str:
    return " ".join(text.split())[:limit]


def parse_note(path: str, text: str) -> Note:
    """A note from a file's text (the path decides the fallback title)."""
    front, body, problem = split_front_matter(text)
    stem = path.rsplit("/", 1)[-1][:-3] if path.lower().endswith(".md") else path
    title = one_line(str(front.get("title") or ""), 200) or one_line(stem, 200) or "untitled"
    raw_date = front.get("date", front.get("created"))
    occurred = when(raw_date)
    problems = [problem] if problem else []
    if raw_date is not None and occurred is None:
        problems.append(f"date {str(raw_date)[:40]!r} is not a date; kept in frontmatter only")
    rest = {k: v for k, v in front.items() if str(k) not in KNOWN_FIELDS}
    if raw_date is not None and occurred is None:
        rest["date"] = raw_date
    return Note(
        path=path,
        title=title,
        body=body,
        tags=tag_list(words(front.get("tags", front.get("tag"))), inline_tags(mask_code(body))),
        aliases=[one_line(a, 200) for a in names(front.get("aliases", front.get("alias")))],
        occurred_at=occurred,
        frontmatter=rest,
        problems=problems,
    )
