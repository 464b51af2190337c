"""The governor as MCP tools: a client that owns its model call governs it with these."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ctx.core.governor.schemas import (
    CommitRequest,
    FlushRequest,
    PrepareRequest,
    ProtectRequest,
    ReleaseRequest,
    StatusRequest,
)
from ctx.core.tools import Tool

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App


def _prepare(app: App, who: Principal, args: PrepareRequest) -> dict[str, Any]:
    out = app.governor.prepare(who, args)
    out.pop("sensitivities", None)
    return out


def _call(method: str) -> Any:
    def handler(app: App, who: Principal, args: Any) -> dict[str, Any]:
        return dict(getattr(app.governor, method)(who, args))

    return handler


GOVERNOR_TOOLS = (
    Tool(
        "governor_prepare",
        "Record the incoming turn of a thread (collection + session_id) and get back the "
        "messages to send to your model: system prompt, protected items, relevant memory and "
        "the recent turns, never more than `budget` tokens. Send exactly `messages`; then call "
        "governor_commit with the model's answer.",
        PrepareRequest,
        _prepare,
    ),
    Tool(
        "governor_commit",
        "Store the model's answer (role assistant) or a tool's result (role tool) in the thread.",
        CommitRequest,
        _call("commit"),
    ),
    Tool(
        "governor_protect",
        "Pin items to a thread so every envelope keeps them: an event (seq), a block "
        "(block_id) or text (content, label).",
        ProtectRequest,
        _call("protect"),
    ),
    Tool(
        "governor_release",
        "Unpin protected items of a thread (by pin id, or all).",
        ReleaseRequest,
        _call("release"),
        destructive=True,
    ),
    Tool(
        "governor_status",
        "A thread's watermarks (recorded, indexed, embedded), indexing queue, pins and what "
        "filled its last envelope.",
        StatusRequest,
        _call("status"),
        read_only=True,
    ),
    Tool(
        "governor_flush",
        "Wait until everything recorded in a thread is indexed (bounded by timeout_s).",
        FlushRequest,
        _call("flush"),
        read_only=True,
        idempotent=True,
    ),
)
