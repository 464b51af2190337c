"""What a running ctx is doing, as it happens: the notices on ``ctx_jobs`` (a job was queued; the
payload is its kind, from a trigger) and ``ctx_events`` (a block was written; action, id, scope,
category and block type as JSON, never a title or content).

``listen_notices`` is the service of ``GET /api/events``; the REST surface turns what it yields into
server-sent events and keeps an idle connection open.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncGenerator
from typing import TYPE_CHECKING, Any

import psycopg

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App

log = logging.getLogger("ctx.server")

CHANNELS = ("ctx_jobs", "ctx_events")
#: what ``listen_notices`` yields first, once LISTEN is in place
LISTENING = "listening"
LOST = {"message": "the event stream lost its database connection"}


def notice_data(channel: str, payload: str) -> Any:
    """A notice's payload as data: a block write's JSON, a queued job's ``{"kind"}``."""
    try:
        return json.loads(payload) if channel == "ctx_events" else {"kind": payload}
    except ValueError:
        return {"payload": payload}


async def listen_notices(
    app: App, who: Principal | None = None, _request: None = None, *, poll: float = 1.0
) -> AsyncGenerator[tuple[str, Any] | None, None]:
    """LISTEN on ``CHANNELS`` with a connection of its own and yield ``(LISTENING, {"channels"})``
    once it is in place, then ``(channel, data)`` for each notice and ``None`` after every
    ``poll`` seconds (so the caller can see whether its client is still there). A lost database
    connection ends it with ``("error", {"message"})``; closing it closes the connection."""
    conn: psycopg.AsyncConnection[Any] | None = None
    try:
        conn = await psycopg.AsyncConnection.connect(app.db.url, autocommit=True)
        for channel in CHANNELS:
            await conn.execute(f"LISTEN {channel}")  # the names are ours
        yield LISTENING, {"channels": list(CHANNELS)}
        while True:
            async for note in conn.notifies(timeout=poll):
                yield note.channel, notice_data(note.channel, note.payload)
            yield None
    except psycopg.Error as exc:
        log.warning("event stream ended: %s", exc)
        yield "error", dict(LOST)
    finally:
        if conn is not None:
            await conn.close()
