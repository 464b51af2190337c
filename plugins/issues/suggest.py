"""Before an issue is filed: likely duplicates and related issues and knowledge, through the
query path (the same retrieval every question gets)."""

from __future__ import annotations

from typing import Any

from ctx.core import App, Principal, QueryRequest, query
from ctx.plugins.issues.schemas import SuggestRequest
from ctx.plugins.issues.types import COMMENT, ISSUE, plain_title

MAX_QUERY = 2000


def _hits(
    app: App, who: Principal, text: str, limit: int, exclude: list[str]
) -> list[dict[str, Any]]:
    response = query(
        app, who, QueryRequest(query=text[:MAX_QUERY], limit=limit, exclude_types=exclude)
    )
    return list(response["sources"])


def _hit(src: dict[str, Any]) -> dict[str, Any]:
    out = {k: src.get(k) for k in ("id", "scope", "block_type", "score", "snippet")}
    out["title"] = plain_title(src["title"]) if src["block_type"] == ISSUE else src["title"]
    return out


def suggest(app: App, who: Principal, req: SuggestRequest) -> dict[str, Any]:
    """``duplicates``: the closest issues; ``related``: other blocks of any readable type."""
    text = f"{req.title}\n{req.body}".strip()
    not_issues = [name for name in app.block_types if name != ISSUE]
    duplicates = [_hit(s) for s in _hits(app, who, text, req.limit, not_issues)]
    seen = {d["id"] for d in duplicates}
    related = [
        _hit(s)
        for s in _hits(app, who, text, min(20, req.limit * 2), [COMMENT])
        if s["id"] not in seen
    ][: req.limit]
    return {"duplicates": duplicates, "related": related}
