"""``GET /api/events`` (``ctx.core.runtime.EVENT_STREAM``): what a running ctx is doing, as it
happens, for admins.

Server-Sent Events: each notice on ``ctx_jobs`` (a job was queued; the payload is its kind) and
``ctx_events`` (a block was written; action, id, scope, category and block type, never a title or
content) becomes ``event: <channel>`` with a JSON ``data:`` line, and a ``: keep-alive`` comment
goes out every 15 seconds so proxies keep the stream open. The route, its admin check and its
rate-limit kind come from the declaration; this endpoint is the stream, which a declared answer
cannot be: it is asynchronous, watches for the client leaving and sends comments.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator

from fastapi import Request
from fastapi.responses import StreamingResponse

from ctx.core import App
from ctx.core.runtime import LISTENING, listen_notices
from ctx.ui.api.deps import AppDep

KEEPALIVE_SECONDS = 15.0
POLL_SECONDS = 1.0  # how often a quiet stream checks whether the client is still there


async def _stream(app: App, request: Request) -> AsyncIterator[str]:
    notices = listen_notices(app, poll=POLL_SECONDS)
    try:
        quiet_since = time.monotonic()
        async for notice in notices:
            if notice is None:  # a quiet moment: is anyone still listening?
                if await request.is_disconnected():
                    return
                if time.monotonic() - quiet_since >= KEEPALIVE_SECONDS:
                    yield ": keep-alive\n\n"
                    quiet_since = time.monotonic()
                continue
            event, data = notice
            if event == LISTENING:  # LISTEN is in place
                yield ": listening to " + ", ".join(data["channels"]) + "\n\n"
                continue
            yield f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"
            quiet_since = time.monotonic()
    finally:
        await notices.aclose()


async def events(request: Request, app: AppDep) -> StreamingResponse:
    """Server-Sent Events: ``ctx_jobs`` (data ``{"kind"}``) when a job is queued and
    ``ctx_events`` (data ``{action, id, scope, category, block_type}``) when a block is
    written; no titles, no content. A comment every 15 s keeps idle connections open."""
    return StreamingResponse(
        _stream(app, request),
        media_type="text/event-stream",
        headers={"cache-control": "no-store", "x-accel-buffering": "no"},
    )
