"""The digest: a topic map of what the caller can read, and a daily summary written by a model.

``daily_synthesis`` hands the blocks written on one day in the caller's home scope to the
``digest`` role as numbered sources (data, never instructions; each through the trust gate, so a
backend sees only what its trust level allows) and stores the summary as a ``digest`` block,
``Digest YYYY-MM-DD`` in category ``digest``: running the same day again updates that block. The
model's ``[n]`` citations are checked against the sources it was shown; a number that cites
nothing is removed. With ``digest.daily`` on, a sweep queues one digest per scope for each day
that had writes, the day after.
"""

from __future__ import annotations

import logging
from datetime import UTC, date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any, cast

from ctx.core import llm
from ctx.core.access import Principal
from ctx.core.blocks import StoreRequest, store_block
from ctx.core.graph.map_overview import overview
from ctx.core.retrieval import keep_citations
from ctx.core.runtime import Job, JobHandler, enqueue

if TYPE_CHECKING:
    import psycopg

    from ctx.core.app import App

log = logging.getLogger("ctx.graph")
KIND = "digest.daily"
ROLE = "digest"
BLOCK_TYPE = "digest"
CATEGORY = "digest"
PROMPT = "digest-daily"
MAX_TOKENS = 1024
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def topic_map(app: App, who: Principal) -> dict[str, Any]:
    """The overview's clusters (ordinal id, scope, size, titles) and the live block count per
    category of the caller's read scopes."""
    shown = overview(app, who)
    with app.connection() as conn:
        rows = conn.execute(
            "SELECT category, count(*) AS blocks FROM context_blocks "
            "WHERE scope = ANY(%s) AND NOT is_archived GROUP BY category "
            "ORDER BY blocks DESC, category",
            (list(who.read_scopes),),
        ).fetchall()
    categories = [{"category": r["category"], "blocks": int(r["blocks"])} for r in rows]
    clusters = [
        {
            "id": c["id"],
            "scope": c["scope"],
            "size": c["size"],
            "titles": [t["title"] for t in c["titles"]],
        }
        for c in shown["clusters"]
    ]
    return {
        "clusters": clusters,
        "categories": categories,
        "blocks": sum(c["blocks"] for c in categories),
        "refreshed_at": shown["refreshed_at"],
    }


def _bounds(day: date) -> tuple[datetime, datetime]:
    start = datetime.combine(day, time.min, tzinfo=UTC)
    return start, start + timedelta(days=1)


# Written that day: created or updated. Digests and the types the digest does not see
# (context_type_reach: bookkeeping) are not news; the latest blocks are kept when there are more
# than the limit.
_WRITTEN = """
SELECT * FROM (
    SELECT b.id::text AS id, b.title, b.category, b.content, b.sensitivity, b.updated_at,
           count(*) OVER () AS total
      FROM context_blocks b
      JOIN context_type_reach t ON t.name = b.block_type AND t.digest = 'all'
     WHERE b.scope = %(scope)s AND NOT b.is_archived AND b.block_type <> %(digest)s
       AND (b.created_at >= %(start)s AND b.created_at < %(end)s
            OR b.updated_at >= %(start)s AND b.updated_at < %(end)s)
     ORDER BY b.updated_at DESC, b.id
     LIMIT %(limit)s) latest
 ORDER BY updated_at, id
"""


def written_on(
    conn: psycopg.Connection[Any], scope: str, day: date, limit: int
) -> tuple[list[dict[str, Any]], int]:
    """Up to ``limit`` blocks written in ``scope`` on ``day`` (UTC), oldest first, and how many
    there were in all."""
    start, end = _bounds(day)
    rows = conn.execute(
        _WRITTEN,
        {"scope": scope, "digest": BLOCK_TYPE, "start": start, "end": end, "limit": limit},
    ).fetchall()
    return [dict(r) for r in rows], int(rows[0]["total"]) if rows else 0


def _messages(system: str, day: date, admitted: list[llm.Piece]) -> list[dict[str, str]]:
    parts = []
    for n, piece in enumerate(admitted, 1):
        src = piece.value
        title = llm.fence(str(src["title"]), "source").replace('"', "'")
        category = llm.fence(str(src["category"]), "source").replace('"', "'")
        body = llm.fence(str(src["content"]), "source")
        parts.append(f'<source n="{n}" title="{title}" category="{category}">\n{body}\n</source>')
    user = "Sources:\n\n" + "\n\n".join(parts) + f"\n\nWrite the digest of {day.isoformat()}."
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def _sensitivity(admitted: list[llm.Piece]) -> str:
    """A digest may repeat anything its model saw: it is as sensitive as its most sensitive
    source."""
    order = llm.SENSITIVITY_ORDER
    return max((p.sensitivity for p in admitted), key=order.index, default="internal")


def _ask(app: App, day: date, rows: list[dict[str, Any]]) -> llm.Reply:
    """The digest role's summary of ``rows``, each a source cut to ``digest.source_chars`` and
    gated by its sensitivity; ``NoBackend`` when no backend may see any of them."""
    chars = int(app.settings["digest.source_chars"])
    pieces = [
        llm.Piece(r["sensitivity"], {"id": r["id"], "title": r["title"],
                                     "category": r["category"], "content": r["content"][:chars]})
        for r in rows
    ]  # fmt: skip
    version = str(app.settings["digest.prompt_version"])
    system = llm.render_prompt(PROMPT, version, day=day.isoformat(),
                               weekday=WEEKDAYS[day.weekday()], count=len(pieces))  # fmt: skip
    return llm.chat(app, ROLE, lambda admitted: _messages(system, day, admitted), pieces=pieces,
                    need=1, params={"max_tokens": MAX_TOKENS, "temperature": 0.2})  # fmt: skip


def daily_synthesis(app: App, who: Principal, day: date | None = None) -> dict[str, Any]:
    """Summarise what was written on ``day`` (default: today, UTC) in the caller's home scope
    and store it as the day's digest block. ``{"skipped": why, "day"}`` when there is no digest
    backend, nothing was written, or no backend may see any of it; nothing is stored then."""
    day = day or datetime.now(UTC).date()
    scope = who.home_scope
    who.require_write(scope)
    why = llm.available(app, ROLE)
    if why is not None:
        return {"skipped": f"no digest backend: {why}", "day": day.isoformat()}
    with app.connection() as conn:
        rows, total = written_on(conn, scope, day, int(app.settings["digest.max_sources"]))
    if not rows:
        return {"skipped": f"nothing was written in scope {scope!r} on {day.isoformat()}",
                "day": day.isoformat()}  # fmt: skip
    try:
        reply = _ask(app, day, rows)
    except llm.NoBackend as exc:
        return {"skipped": f"no digest backend: {exc.reason}", "day": day.isoformat()}
    text, cited, removed = keep_citations(llm.strip_reasoning(reply.text), len(reply.admitted))
    if not text:
        return {"skipped": "the model wrote no digest", "day": day.isoformat()}
    if removed:
        log.warning("digest cited source number(s) %s, which the model was not shown; removed",
                    removed, extra={"backend": reply.backend})  # fmt: skip
    saved = _save(app, who, day, text, [(n, reply.admitted[n - 1].value) for n in cited], reply)
    return {
        **saved,
        "removed_citations": removed,
        "sources_written": total,
        "sources_sent": len(reply.admitted),
        "withheld": reply.withheld,
        "backend": reply.backend,
        "model": reply.model,
    }


def _save(
    app: App,
    who: Principal,
    day: date,
    text: str,
    cited: list[tuple[int, dict[str, Any]]],
    reply: llm.Reply,
) -> dict[str, Any]:
    """Store (or update) the day's digest block; ``cited``: the sources it cites, by number, in
    order of first use."""
    meta = {"sources": [src["id"] for _, src in cited], "day": day.isoformat(),
            "prompt_version": str(app.settings["digest.prompt_version"]),
            "backend": reply.backend, "model": reply.model}  # fmt: skip
    request = StoreRequest.model_validate(
        {
            "title": f"Digest {day.isoformat()}",
            "content": text,
            "category": CATEGORY,
            "block_type": BLOCK_TYPE,
            "scope": who.home_scope,
            "metadata": meta,
            "sensitivity": _sensitivity(reply.admitted),
            "occurred_at": _bounds(day)[0].isoformat(),  # the digest is about that day
        }
    )
    saved = store_block(app, who, request)
    return {
        "id": saved["id"],
        "action": saved["action"],
        "day": day.isoformat(),
        "title": saved["title"],
        "content": text,
        "citations": [{"n": n, "id": src["id"], "title": src["title"]} for n, src in cited],
    }


def scope_principal(scope: str) -> Principal:
    """Who a background digest writes as: ctx itself, in ``scope`` only. It has no key, so its
    audit rows carry none (``api_key_id`` is NULL)."""
    return Principal(key_id=cast(str, None), name="ctx digest", home_scope=scope)


def handle_digest_jobs(app: App, jobs: list[Job]) -> None:
    for job in jobs:
        scope, day = str(job.payload["scope"]), date.fromisoformat(str(job.payload["day"]))
        with app.connection() as conn:  # first, in its own transaction: the sweep asks once
            conn.execute(
                "INSERT INTO context_write_log (action, scope, detail) "
                "VALUES ('digest.attempt', %s, jsonb_build_object('day', %s::text))",
                (scope, day.isoformat()),
            )
        result = daily_synthesis(app, scope_principal(scope), day)
        if "skipped" in result:
            log.info("daily digest skipped: %s", result["skipped"], extra={"scope": scope})


_DUE = """
SELECT DISTINCT b.scope FROM context_blocks b
  JOIN context_type_reach t ON t.name = b.block_type AND t.digest = 'all'
 WHERE NOT b.is_archived AND b.block_type <> %(digest)s
   AND (b.created_at >= %(start)s AND b.created_at < %(end)s
        OR b.updated_at >= %(start)s AND b.updated_at < %(end)s)
   AND NOT EXISTS (SELECT 1 FROM context_blocks d
                    WHERE d.scope = b.scope AND d.category = %(category)s AND d.title = %(title)s)
   -- one try per scope and day (a skip or a failed model is not asked again every sweep)
   AND NOT EXISTS (SELECT 1 FROM context_write_log w
                    WHERE w.action = 'digest.attempt' AND w.scope = b.scope
                      AND w.detail->>'day' = %(day)s)
   AND NOT EXISTS (SELECT 1 FROM context_jobs j
                    WHERE j.kind = 'digest.daily' AND j.dedupe_key = b.scope || ':' || %(day)s)
 ORDER BY b.scope
"""


def sweep_digests(app: App, today: date | None = None) -> int:
    """With ``digest.daily`` on and a digest backend to use: queue yesterday's digest for each
    scope that had writes then and has no digest of that day yet (one queued per scope and
    day). Returns how many were queued."""
    if not app.settings["digest.daily"] or llm.available(app, ROLE) is not None:
        return 0
    day = (today or datetime.now(UTC).date()) - timedelta(days=1)
    start, end = _bounds(day)
    with app.connection() as conn:
        rows = conn.execute(
            _DUE,
            {"digest": BLOCK_TYPE, "start": start, "end": end, "category": CATEGORY,
             "title": f"Digest {day.isoformat()}", "day": day.isoformat()},
        ).fetchall()  # fmt: skip
        for r in rows:
            enqueue(conn, KIND, {"scope": r["scope"], "day": day.isoformat()},
                    dedupe_key=f"{r['scope']}:{day.isoformat()}")  # fmt: skip
    return len(rows)


DIGEST_JOBS = JobHandler(
    KIND,
    handle_digest_jobs,
    batch_size=1,
    description="write the daily digest of one scope",
    sweep=sweep_digests,
    sweep_every=900.0,
)
