"""The forges' webhook endpoint ``POST /api/forge/{forge}/webhook``, written by hand: it takes no
key (the delivery's signature is its credential) and reads the raw body, which the signature is
computed over. The route around it derives from ``issues.sync.webhook`` (``operations``)."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from starlette.concurrency import run_in_threadpool

from ctx.plugins.issues.sync import service
from ctx.ui import AppDep


async def webhook(forge: str, request: Request, app: AppDep) -> dict[str, Any]:
    """A forge's push delivery: checked against the link's webhook secret, taken once, and
    turned into a queued sync (202)."""
    body = await request.body()
    return await run_in_threadpool(service.webhook, app, forge, dict(request.headers), body)
