"""Before an issue is filed: likely duplicates (Guard's neighbours of the draft, with the verdict
Guard would give a block that close) and related issues and knowledge through the query path
(the same retrieval every question gets)."""

from __future__ import annotations

from typing import Any

from ctx.core import App, Principal, QueryRequest, draft_neighbours, query
from ctx.plugins.issues import records
from ctx.plugins.issues.schemas import SuggestRequest
from ctx.plugins.issues.types import COMMENT, ISSUE, issue_title, plain_title

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


def _guarded(app: App, who: Principal, req: SuggestRequest) -> dict[str, dict[str, Any]]:
    """Guard's neighbours of the draft among issues, by id; the draft is compared as it would be
    stored (numbered, in the key's home scope), as Guard will compare it once filed."""
    stored_title = issue_title(records.peek_number(app, who.home_scope), req.title)
    near = draft_neighbours(
        app, who, stored_title, req.body or req.title, block_types=[ISSUE], limit=req.limit
    )
    return {n["id"]: n for n in near}


def suggest(app: App, who: Principal, req: SuggestRequest) -> dict[str, Any]:
    """``duplicates``: the closest issues, Guard's verdict first (``near_duplicate``, then
    ``needs_review``), then by retrieval; ``related``: other blocks of any readable type."""
    text = f"{req.title}\n{req.body}".strip()
    not_issues = [name for name in app.block_types if name != ISSUE]
    duplicates = [_hit(s) for s in _hits(app, who, text, req.limit, not_issues)]
    near = _guarded(app, who, req)
    seen = {d["id"] for d in duplicates}
    for block_id, n in near.items():
        if n["verdict"] is not None and block_id not in seen:
            duplicates.append(
                {"id": block_id, "scope": n["scope"], "block_type": ISSUE, "score": None,
                 "snippet": None, "title": plain_title(n["title"])}
            )  # fmt: skip
    rank = {"near_duplicate": 0, "needs_review": 1}
    for d in duplicates:
        d["similarity"] = near[d["id"]]["similarity"] if d["id"] in near else None
        d["verdict"] = near[d["id"]]["verdict"] if d["id"] in near else None
    duplicates.sort(key=lambda d: rank.get(d["verdict"], 2))  # stable: retrieval order within
    duplicates = duplicates[: req.limit]
    seen = {d["id"] for d in duplicates}
    related = [
        _hit(s)
        for s in _hits(app, who, text, min(20, req.limit * 2), [COMMENT])
        if s["id"] not in seen
    ][: req.limit]
    return {"duplicates": duplicates, "related": related}
