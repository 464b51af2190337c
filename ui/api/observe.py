"""Admin views of a running ctx: a status overview and a live event stream.

``GET /api/events`` is Server-Sent Events: each ``NOTIFY`` on ``ctx_jobs`` (a job was queued;
the payload is its kind) and ``ctx_events`` (a block was written; action, id, scope, category
and block type, never a title or content) becomes ``event: <channel>`` with a JSON ``data:``
line, and a ``: keep-alive`` comment goes out every 15 seconds so proxies keep the stream open.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

import psycopg
from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from ctx.core import App, llm
from ctx.core.embed import active_generation
from ctx.core.embed import status as embed_status
from ctx.core.runtime import counts
from ctx.ui.api.deps import AdminDep, AppDep
from ctx.ui.api.errors import ERROR_RESPONSES
from ctx.ui.version import VERSION

router = APIRouter(prefix="/api", tags=["observe"], responses=ERROR_RESPONSES)
log = logging.getLogger("ctx.server")

CHANNELS = ("ctx_jobs", "ctx_events")
KEEPALIVE_SECONDS = 15.0
POLL_SECONDS = 1.0  # how often a quiet stream checks whether the client is still there


def _embedding(app: App) -> dict[str, Any] | None:
    """The active generation, with its backlog, recent throughput and ETA (and a building one's)."""
    with app.connection() as conn:
        gen = active_generation(conn)
    if gen is None:
        return None
    keys = ("id", "provider", "model", "dimensions", "embedded", "left", "per_s", "eta_s")
    gens = {g["status"]: {k: g[k] for k in keys} for g in embed_status(app)["generations"]}
    out = gens.get("active") or {k: gen[k] for k in keys[:4]}
    if "building" in gens:
        out["building"] = gens["building"]
    return out


@router.get("/status", name="status")
def status(app: AppDep, _: AdminDep) -> dict[str, Any]:
    """One look at the server: each backend with its cooldown and last 24 hours, each role's
    chain (or why it is empty), the job queue by kind and state, the active embedding
    generation and the version."""
    pool = app.backends
    cooldowns = pool.cooldowns()
    with app.connection() as conn:
        summary = llm.log_summary(conn)
        jobs = counts(conn)
    backends = [
        {
            "name": b.name,
            "kind": b.kind,
            "roles": list(b.roles),
            "trust": b.trust,
            "enabled": b.enabled,
            "priority": b.priority,
            "cooldown": cooldowns.get(b.name),
            "last_24h": [
                {k: v for k, v in row.items() if k != "backend"}
                for row in summary
                if row["backend"] == b.name
            ],
        }
        for b in pool.backends()
    ]
    roles = {}
    for role in llm.ROLES:
        chain = [b.name for b in pool.chain(role)]
        roles[role] = {"chain": chain, "reason": None if chain else pool.why_empty(role)}
    return {
        "backends": backends,
        "roles": roles,
        "jobs": jobs,
        "embedding": _embedding(app),
        "version": VERSION,
    }


def _event(channel: str, payload: str) -> str:
    try:
        data = json.loads(payload) if channel == "ctx_events" else {"kind": payload}
    except ValueError:
        data = {"payload": payload}
    return f"event: {channel}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


async def _stream(app: App, request: Request) -> AsyncIterator[str]:
    conn: psycopg.AsyncConnection[Any] | None = None
    try:
        conn = await psycopg.AsyncConnection.connect(app.db.url, autocommit=True)
        for channel in CHANNELS:
            await conn.execute(f"LISTEN {channel}")  # the names are ours
        yield ": listening to " + ", ".join(CHANNELS) + "\n\n"
        quiet_since = time.monotonic()
        while not await request.is_disconnected():
            async for note in conn.notifies(timeout=POLL_SECONDS):
                yield _event(note.channel, note.payload)
                quiet_since = time.monotonic()
            if time.monotonic() - quiet_since >= KEEPALIVE_SECONDS:
                yield ": keep-alive\n\n"
                quiet_since = time.monotonic()
    except psycopg.Error as exc:  # the headers are out: say it in the stream, then end it
        log.warning("event stream ended: %s", exc)
        lost = json.dumps({"message": "the event stream lost its database connection"})
        yield f"event: error\ndata: {lost}\n\n"
    finally:
        if conn is not None:
            await conn.close()


# Left out of the OpenAPI schema: a stream that never ends is no operation for generated
# clients (or the schema fuzzer) to call and wait on.
@router.get("/events", name="events", response_class=StreamingResponse, include_in_schema=False)
async def events(request: Request, app: AppDep, _: AdminDep) -> StreamingResponse:
    """Server-Sent Events: ``ctx_jobs`` (data ``{"kind"}``) when a job is queued and
    ``ctx_events`` (data ``{action, id, scope, category, block_type}``) when a block is
    written; no titles, no content. A comment every 15 s keeps idle connections open."""
    return StreamingResponse(
        _stream(app, request),
        media_type="text/event-stream",
        headers={"cache-control": "no-store", "x-accel-buffering": "no"},
    )
