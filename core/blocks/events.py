"""Block writes as events: every committed write fires ``NOTIFY ctx_events`` so live views
(``GET /api/events``) can follow them.

The payload names the write and where it happened (action, id, scope, category, block type),
never a title or content: a listener on the channel learns that something changed, not what it
says, and asks for the block through the API with its own key.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Any

import psycopg

from ctx.core.errors import CtxError

if TYPE_CHECKING:
    from ctx.core.app import App

log = logging.getLogger("ctx.blocks")
CHANNEL = "ctx_events"
FIELDS = ("id", "scope", "category", "block_type")


def event_payload(block: dict[str, Any], action: str) -> str:
    """The JSON sent on the channel: the action and the block's place, nothing of its text."""
    data: dict[str, Any] = {"action": action}
    for key in FIELDS:
        value = block.get(key)
        data[key] = None if value is None else str(value)
    return json.dumps(data, ensure_ascii=False)


def announce_block_written(app: App, block: dict[str, Any], action: str) -> None:
    """``pg_notify`` on a short pooled connection after the write committed; a failure is
    logged, never raised (the write stands either way)."""
    if app is None or not block.get("id"):
        return
    try:
        with app.connection() as conn:
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, event_payload(block, action)))
    except (psycopg.Error, CtxError) as exc:  # CtxError: the database unavailable or full
        log.warning("could not announce a block write on %s: %s", CHANNEL, exc)
    except Exception:
        log.exception("could not announce a block write on %s", CHANNEL)
