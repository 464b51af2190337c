"""The block operations as an agent calls them (MCP tools): compact answers.

Each calls the function every surface calls, so scope rules are the REST API's, and answers with
ids, titles and short snippets, never an echo of what the agent sent.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from ctx.core.blocks.read import block_categories, block_stats, get_block, list_blocks
from ctx.core.blocks.schemas import SearchRequest, StoreRequest
from ctx.core.blocks.search import search_blocks
from ctx.core.blocks.timeline import timeline_blocks, timeline_window
from ctx.core.blocks.tool_inputs import (
    DeleteInput,
    GetInput,
    RecentInput,
    SearchInput,
    StatsInput,
    StoreInput,
    TimelineInput,
)
from ctx.core.blocks.versions import version_of
from ctx.core.blocks.write import delete_block, store_block
from ctx.core.errors import ValidationError

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App

SNIPPET_CHARS = 240


def snippet(text: str | None, limit: int = SNIPPET_CHARS) -> str:
    """One line of at most ``limit`` characters, cut at a word where possible."""
    flat = " ".join((text or "").split())
    if len(flat) <= limit:
        return flat
    cut = flat[:limit].rsplit(" ", 1)[0]
    return (cut if len(cut) > limit // 2 else flat[:limit]) + "…"


def iso_time(value: datetime | date | None) -> str | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.isoformat(timespec="seconds")
    return value.isoformat()


def listed(row: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A block as a listing names it: id, title, category, scope, then what the tool adds."""
    return {k: row[k] for k in ("id", "title", "category", "scope")} | extra


def run_store(app: App, who: Principal, args: StoreInput) -> dict[str, Any]:
    saved = store_block(app, who, StoreRequest(**args.model_dump(by_alias=True)))
    return {"id": saved["id"], "action": saved["action"], "scope": saved["scope"]}


def run_search(app: App, who: Principal, args: SearchInput) -> dict[str, Any]:
    hits = search_blocks(app, who, SearchRequest(**args.model_dump()))
    return {"results": [listed(h, snippet=snippet(h["snippet"])) for h in hits]}


def run_get(app: App, who: Principal, args: GetInput) -> dict[str, Any]:
    if args.version is not None or args.at is not None:
        return _get_version(app, who, args)
    block = get_block(app, who, args.id)
    out = {
        k: block[k]
        for k in ("id", "title", "category", "scope", "block_type", "tags", "sensitivity")
    }
    out["content"] = block["content"]
    out["updated_at"] = iso_time(block["updated_at"])
    if block["occurred_at"] is not None:
        out["occurred_at"] = iso_time(block["occurred_at"])
    if block["is_archived"]:
        out["archived"] = True
    return out


def _get_version(app: App, who: Principal, args: GetInput) -> dict[str, Any]:
    if args.version is not None and args.at is not None:
        raise ValidationError("give version or at, not both", field="at")
    found = version_of(app, who, args.id, version=args.version, at=args.at)
    out = {k: found[k] for k in ("id", "title", "category", "block_type", "tags", "sensitivity")}
    out["content"] = found["content"]
    out["version"] = found["version"]
    out["current"] = found["current"]
    out["valid_from"] = iso_time(found["valid_from"])
    out["valid_to"] = iso_time(found["valid_to"])
    if found["occurred_at"] is not None:
        out["occurred_at"] = iso_time(found["occurred_at"])
    return out


def run_recent(app: App, who: Principal, args: RecentInput) -> dict[str, Any]:
    rows = list_blocks(app, who, limit=args.limit, category=args.category, scope=args.scope)
    return {"results": [listed(r, updated_at=iso_time(r["updated_at"])) for r in rows]}


def run_delete(app: App, who: Principal, args: DeleteInput) -> dict[str, Any]:
    return delete_block(app, who, args.id)


def run_timeline(app: App, who: Principal, args: TimelineInput) -> dict[str, Any]:
    if args.when is None and args.start is None:
        raise ValidationError("give when (a time expression) or start (YYYY-MM-DD)", field="when")
    if args.when is not None and args.start is not None:
        raise ValidationError("give when or start/end, not both", field="when")
    start, end = timeline_window(app, args.when, args.start, args.end)
    rows = timeline_blocks(
        app,
        who.scopes_for(args.scopes),
        start,
        end,
        limit=args.limit,
        category=args.category,
    )
    return {
        "window": {"start": start.isoformat(), "end": end.isoformat()},
        "results": [listed(r, date=r["day"].isoformat()) for r in rows],
    }


def run_stats(app: App, who: Principal, args: StatsInput) -> dict[str, Any]:
    totals = block_stats(app, who, args.scope)
    categories = block_categories(app, who, args.scope)
    return {
        "blocks": totals["blocks"],
        "archived": totals["archived"],
        "last_write": iso_time(totals["last_write"]),
        "by_scope": totals["by_scope"],
        "by_type": totals["by_type"],
        "pending_jobs": totals["pending_jobs"],
        "categories": {c["category"]: c["blocks"] for c in categories},
        # conversations the governor records: not categories to store knowledge under
        "governed_threads": totals["governed_threads"],
    }
