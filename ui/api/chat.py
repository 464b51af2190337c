"""Chat over REST: one governed turn, streamed as server-sent events, in which the model may call
ctx's own tools; the key's chat sessions and their turns."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.encoders import jsonable_encoder
from fastapi.responses import StreamingResponse

from ctx.core.governor import ChatTurn, ChatTurnRequest, chat_history, chat_sessions, start_turn
from ctx.ui.api.deps import AppDep, PrincipalDep
from ctx.ui.api.errors import ERROR_RESPONSES, error_response

log = logging.getLogger("ctx.api")
CHAT_RESPONSES = {
    **ERROR_RESPONSES,
    404: error_response("No such chat session for this key."),
    409: error_response("No model backend serves the chat role now; the message names the fix."),
}
router = APIRouter(prefix="/api/chat", tags=["chat"], responses=CHAT_RESPONSES)


def sse(name: str, data: dict[str, Any]) -> str:
    """One server-sent event."""
    payload = json.dumps(jsonable_encoder(data), ensure_ascii=False, separators=(",", ":"))
    return f"event: {name}\ndata: {payload}\n\n"


def event_stream(turn: ChatTurn, events: Iterator[tuple[str, dict[str, Any]]]) -> Iterator[str]:
    """The turn's events as SSE text; a failure after the status line went out is an ``error``
    event, never a traceback."""
    try:
        for name, data in events:
            yield sse(name, data)
    except Exception:
        log.exception("chat turn failed", extra={"session": turn.session})
        yield sse("error", {"message": "internal error while answering; see the server log"})
    finally:
        close = getattr(events, "close", None)
        if close is not None:
            close()


SSE_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}


@router.post(
    "/stream",
    name="chat-stream",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/event-stream": {}}, "description": "Server-sent events."}},
)
def chat_stream(req: ChatTurnRequest, app: AppDep, who: PrincipalDep) -> StreamingResponse:
    """One chat turn of the key's session (a new one when ``session`` is left out), governed
    (the envelope stays within ``budget``) and answered by the chat backend, which may call the
    tools query, search, get and store as the key. Events: ``session`` (``{id}``), then per tool
    call ``tool_call`` (``{name, arguments}``) and ``tool_result`` (``{name, ok, summary}``),
    ``token`` (``{text}``) as the model writes, and ``done`` (``{backend, model, citations,
    usage, seq, text}``) once the answer is stored in the session, or ``error``
    (``{message}``)."""
    turn = start_turn(app, who, req)  # refusals answer 4xx/503 before the stream begins
    return StreamingResponse(
        event_stream(turn, turn.events()), media_type="text/event-stream", headers=SSE_HEADERS
    )


@router.get("/sessions", name="chat-sessions")
def list_sessions(
    app: AppDep, who: PrincipalDep, limit: Annotated[int, Query(ge=1, le=500)] = 50
) -> dict[str, Any]:
    """The key's chat sessions (threads of its home scope with a ``chat-`` id), most recently
    active first, with their first message as title and the time of the last message."""
    return {"sessions": chat_sessions(app, who, limit)}


@router.get("/sessions/{session}", name="chat-session")
def read_session(
    session: str,
    app: AppDep,
    who: PrincipalDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 200,
) -> dict[str, Any]:
    """A session's turns, oldest first: the user's messages and the answers, each answer with
    the backend and model, the blocks it was shown and its tool calls."""
    return chat_history(app, who, session, limit)
