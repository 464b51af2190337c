"""The governor's operations as every surface calls them (``service(app, who, input)``): the
Governor's methods, what a chat turn streams, and the key's chat sessions. REST, MCP and the
command line answer with exactly what these return."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ctx.core.governor.chat import start_turn
from ctx.core.governor.chatlog import chat_history, chat_sessions
from ctx.core.governor.schemas import (
    ChatSessionRequest,
    ChatSessionsRequest,
    ChatTurnRequest,
    CommitRequest,
    FlushRequest,
    IngestRequest,
    PrepareRequest,
    PromoteRequest,
    ProtectRequest,
    ReleaseRequest,
    StatusRequest,
    ThreadsRequest,
)

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App


def prepare_envelope(app: App, who: Principal, req: PrepareRequest) -> dict[str, Any]:
    """The envelope without the sensitivities of its messages (the governor's own bookkeeping,
    which chat reads to gate its backend)."""
    out = app.governor.prepare(who, req)
    out.pop("sensitivities", None)
    return out


def commit_event(app: App, who: Principal, req: CommitRequest) -> dict[str, Any]:
    return app.governor.commit(who, req)


def protect_items(app: App, who: Principal, req: ProtectRequest) -> dict[str, Any]:
    return app.governor.protect(who, req)


def release_pins(app: App, who: Principal, req: ReleaseRequest) -> dict[str, Any]:
    return app.governor.release(who, req)


def thread_status(app: App, who: Principal, req: StatusRequest) -> dict[str, Any]:
    return app.governor.status(who, req)


def flush_thread(app: App, who: Principal, req: FlushRequest) -> dict[str, Any]:
    return app.governor.flush(who, req)


def promote_record(app: App, who: Principal, req: PromoteRequest) -> dict[str, Any]:
    return app.governor.promote(who, req)


def ingest_document(app: App, who: Principal, req: IngestRequest) -> dict[str, Any]:
    return app.governor.ingest(who, req)


def governed_threads(app: App, who: Principal, req: ThreadsRequest) -> dict[str, Any]:
    return app.governor.list_threads(who, req.collection, req.limit)


def chat_turn(app: App, who: Principal, req: ChatTurnRequest) -> Iterator[tuple[str, Any]]:
    """The turn's events; ``start_turn`` refuses (no backend, a budget too small) before the
    first one, so a refusal is a status code rather than a broken stream."""
    return start_turn(app, who, req).events()


def list_chat_sessions(app: App, who: Principal, req: ChatSessionsRequest) -> dict[str, Any]:
    return {"sessions": chat_sessions(app, who, req.limit)}


def read_chat_session(app: App, who: Principal, req: ChatSessionRequest) -> dict[str, Any]:
    return chat_history(app, who, req.session, req.limit)
