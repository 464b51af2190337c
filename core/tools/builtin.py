"""The built-in tools: the core's operations as an agent calls them.

Each handler calls the function every interface calls (so scope rules are the REST API's) and
answers compactly: ids, titles, short snippets, never an echo of what the agent sent.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from ctx.core.blocks import (
    SearchRequest,
    StoreRequest,
    block_categories,
    block_stats,
    delete_block,
    get_block,
    list_blocks,
    search_blocks,
    store_block,
)
from ctx.core.errors import ValidationError
from ctx.core.retrieval import QueryRequest, asks_model, query
from ctx.core.tools.inputs import (
    DeleteInput,
    GetInput,
    QueryInput,
    RecentInput,
    SearchInput,
    StatsInput,
    StoreInput,
    TimelineInput,
)
from ctx.core.tools.spec import Tool
from ctx.core.tools.timeline import timeline_blocks, timeline_window

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


def _when(value: datetime | date | None) -> str | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.isoformat(timespec="seconds")
    return value.isoformat()


def _listed(row: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """A block as a listing names it: id, title, category, scope, then what the tool adds."""
    return {k: row[k] for k in ("id", "title", "category", "scope")} | extra


def _answers(app: App, args: QueryInput) -> bool:
    """A query asking for an answer calls the synthesis model (when one is set up)."""
    return bool(args.answer) and asks_model(app, QueryRequest(query=args.query, synthesize="auto"))


def run_query(app: App, who: Principal, args: QueryInput) -> dict[str, Any]:
    given = args.model_dump(exclude={"answer"})
    result = query(app, who, QueryRequest(**given, synthesize="auto" if args.answer else False))
    out: dict[str, Any] = {"confidence": result["confidence"]}
    if "answer" in result:
        out["answer"] = result["answer"]
        out["citations"] = [{"n": c["n"], "id": c["id"]} for c in result["citations"]]
    out |= {
        "results": [
            _listed(s, score=round(float(s["score"]), 4), snippet=snippet(s.get("snippet")))
            for s in result["sources"]
        ],
    }
    if "skipped" in result.get("synthesis", {}) and args.answer:
        out["answer_skipped"] = result["synthesis"]["skipped"]
    temporal = result.get("temporal") or {}
    if temporal.get("matched"):
        out["time"] = {k: temporal.get(k) for k in ("start", "end") if temporal.get(k)}
    if result.get("warnings"):
        out["warnings"] = result["warnings"]
    return out


def run_store(app: App, who: Principal, args: StoreInput) -> dict[str, Any]:
    saved = store_block(app, who, StoreRequest(**args.model_dump(by_alias=True)))
    return {"id": saved["id"], "action": saved["action"], "scope": saved["scope"]}


def run_search(app: App, who: Principal, args: SearchInput) -> dict[str, Any]:
    hits = search_blocks(app, who, SearchRequest(**args.model_dump()))
    return {"results": [_listed(h, snippet=snippet(h["snippet"])) for h in hits]}


def run_get(app: App, who: Principal, args: GetInput) -> dict[str, Any]:
    block = get_block(app, who, args.id)
    out = {
        k: block[k]
        for k in ("id", "title", "category", "scope", "block_type", "tags", "sensitivity")
    }
    out["content"] = block["content"]
    out["updated_at"] = _when(block["updated_at"])
    if block["occurred_at"] is not None:
        out["occurred_at"] = _when(block["occurred_at"])
    if block["is_archived"]:
        out["archived"] = True
    return out


def run_recent(app: App, who: Principal, args: RecentInput) -> dict[str, Any]:
    rows = list_blocks(app, who, limit=args.limit, category=args.category, scope=args.scope)
    return {"results": [_listed(r, updated_at=_when(r["updated_at"])) for r in rows]}


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
        "results": [_listed(r, date=r["day"].isoformat()) for r in rows],
    }


def run_stats(app: App, who: Principal, args: StatsInput) -> dict[str, Any]:
    totals = block_stats(app, who, args.scope)
    categories = block_categories(app, who, args.scope)
    return {
        "blocks": totals["blocks"],
        "archived": totals["archived"],
        "last_write": _when(totals["last_write"]),
        "by_scope": totals["by_scope"],
        "by_type": totals["by_type"],
        "pending_jobs": totals["pending_jobs"],
        "categories": {c["category"]: c["blocks"] for c in categories},
    }


BUILTIN_TOOLS: tuple[Tool, ...] = (
    Tool(
        "query",
        "Find what ctx knows about a question: hybrid semantic and full-text retrieval with time "
        "awareness, ranked sources with snippets and a confidence class (confident, "
        "low_confidence, no_relevant_blocks_found). Use it before answering from memory; then "
        "`get` a source for its full text.",
        QueryInput,
        run_query,
        read_only=True,
        idempotent=True,
        calls_model=_answers,
    ),
    Tool(
        "store",
        "Save knowledge worth keeping across sessions (a decision, a fact, a procedure, a "
        "lesson) in your home scope. Upserts by category + title: the same pair again updates "
        "the block. Answers with the block id and whether it was created or updated.",
        StoreInput,
        run_store,
        idempotent=True,
    ),
    Tool(
        "search",
        "Light full-text search (no model): blocks containing the words, with a highlighted "
        "snippet. Good for exact names, identifiers and error messages.",
        SearchInput,
        run_search,
        read_only=True,
        idempotent=True,
    ),
    Tool(
        "get",
        "One block in full (content, tags, dates) by id or unique id prefix.",
        GetInput,
        run_get,
        read_only=True,
        idempotent=True,
    ),
    Tool(
        "recent",
        "The most recently written or changed blocks, newest first (ids and titles).",
        RecentInput,
        run_recent,
        read_only=True,
    ),
    Tool(
        "delete",
        "Delete a block of your home scope for good (by id or unique prefix). Prefer storing a "
        "corrected version under the same category and title.",
        DeleteInput,
        run_delete,
        destructive=True,
        idempotent=True,
    ),
    Tool(
        "timeline",
        "Blocks of a time window, newest first: their own date or a date they mention falls in "
        "the window. Give a time expression ('last week', 'im März') or start and end dates.",
        TimelineInput,
        run_timeline,
        read_only=True,
        idempotent=True,
    ),
    Tool(
        "stats",
        "What the store holds for you: block counts by scope and type, and the categories in "
        "use (reuse them when storing).",
        StatsInput,
        run_stats,
        read_only=True,
        idempotent=True,
    ),
)
