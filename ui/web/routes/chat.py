"""Workbench pages: chat. The key's sessions beside the conversation and a message box; a message
is one governed turn (the same core turn as ``POST /api/chat/stream``).

``static/js/chat.js`` posts the form with ``Accept: text/event-stream`` and shows the answer as it
arrives, with a card per tool call; the ``done`` event carries the answer as sanitised HTML with
its citations linked, which replaces the streamed text. Without JavaScript the form posts
normally, the turn runs whole, and the browser is sent back to the conversation.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from markupsafe import Markup
from pydantic import ValidationError as PydanticError

from ctx.core import App, CtxError, NotFound, Principal, llm
from ctx.core.governor import (
    ChatTurnRequest,
    chat_history,
    chat_sessions,
    is_chat_session,
    new_session,
    start_turn,
)
from ctx.core.validation import error_message
from ctx.ui.api.marks import charges
from ctx.ui.api.operations import STREAM_HEADERS, sse
from ctx.ui.web.deps import UserDep, WebAppDep
from ctx.ui.web.render import render
from ctx.ui.web.routes.ask import cited_html

log = logging.getLogger("ctx.web")
router = APIRouter(include_in_schema=False)

#: a cited block id (or a prefix of at least 8 characters) in square brackets
BLOCK_RE = re.compile(r"\[([0-9a-f]{8}[0-9a-f-]{0,28})\](?![(\[])")


def chat_html(text: str | None, citations: list[str] | None) -> Markup:
    """An answer's Markdown as safe HTML, each ``[id]`` of a block the model was shown linked to
    it (a prefix counts when it names one block only)."""
    ids = [str(i) for i in citations or []]

    def resolve(marker: str) -> str | None:
        found = [i for i in ids if i.startswith(marker)]
        return found[0] if len(found) == 1 else None

    return cited_html(text, BLOCK_RE, resolve)


def _turns(history: dict[str, Any]) -> list[dict[str, Any]]:
    turns = []
    for turn in history["turns"]:
        if turn["role"] == "assistant":
            turn = {**turn, "html": chat_html(turn["content"], turn.get("citations"))}
        turns.append(turn)
    return turns


def _page(
    request: Request,
    app: App,
    who: Principal,
    session: str,
    *,
    draft: str = "",
    error: str | None = None,
    status: int = 200,
) -> HTMLResponse:
    try:
        turns = _turns(chat_history(app, who, session))
    except NotFound:  # a session id not used yet: a new conversation under it
        turns = []
    context = {
        "session": session,
        "sessions": chat_sessions(app, who),
        "turns": turns,
        "draft": draft,
        "error": error,
        "no_backend": llm.available(app, "chat"),
    }
    return render(request, "chat/index.html", context, status=status)


def _session(session: str) -> str:
    if not is_chat_session(session):
        raise NotFound(f"there is no chat session {session!r}")
    return session


@router.get("/chat", name="web-chat")
def chat_new(request: Request, app: WebAppDep, who: UserDep) -> HTMLResponse:
    """A new conversation (its id is used once the first message is sent) beside the list."""
    return _page(request, app, who, new_session())


@router.get("/chat/{session}", name="web-chat-session")
def chat_session(request: Request, session: str, app: WebAppDep, who: UserDep) -> HTMLResponse:
    return _page(request, app, who, _session(session))


def _streamed(events: Iterator[tuple[str, dict[str, Any]]]) -> Iterator[str]:
    """The turn's events as SSE; ``done`` gains the answer as safe HTML."""
    try:
        for name, data in events:
            if name == "done":
                data = {**data, "html": str(chat_html(data.get("text"), data.get("citations")))}
            yield sse(name, data)
    except Exception:
        log.exception("chat turn failed")
        yield sse("error", {"message": "internal error while answering; see the server log"})
    finally:
        close = getattr(events, "close", None)
        if close is not None:
            close()


def _refused(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": "refused", "message": message}, status_code=status)


@router.post("/chat/{session}/send", name="web-chat-send", response_model=None)
@charges("write", "model")
def chat_send(
    request: Request,
    session: str,
    app: WebAppDep,
    who: UserDep,
    message: Annotated[str, Form(max_length=100_000)] = "",
) -> Response:
    """One turn: streamed as SSE to ``chat.js`` (``Accept: text/event-stream``), else run whole
    and answered with a redirect to the conversation (or the page again with the problem)."""
    session = _session(session)
    streaming = "text/event-stream" in request.headers.get("accept", "")
    try:
        req = ChatTurnRequest.model_validate({"session": session, "message": message})
    except PydanticError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "message"
        problem = error_message(dict(first))
        text = problem if problem.startswith(where) else f"{where} {problem}"
        if streaming:
            return _refused(422, text)
        return _page(request, app, who, session, draft=message, error=text, status=422)
    try:
        turn = start_turn(app, who, req)
    except CtxError as exc:
        if streaming:
            return _refused(exc.status_code, exc.message)
        return _page(request, app, who, session, draft=message, error=exc.message,
                     status=exc.status_code)  # fmt: skip
    if streaming:
        return StreamingResponse(
            _streamed(turn.events()), media_type="text/event-stream", headers=STREAM_HEADERS
        )
    failed = [data["message"] for name, data in turn.events(stream=False) if name == "error"]
    if failed:
        return _page(request, app, who, session, error=failed[0], status=502)
    return RedirectResponse(f"/chat/{session}", status_code=303)
