"""``POST /v1/chat/completions`` and ``GET /v1/models``.

The endpoints run on the event loop and call the synchronous core through
``app.bridge.run_sync``; a stream pulls the chain's pieces the same way, one at a time, so the
loop never blocks on a model.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import quote

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, StreamingResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from ctx.core import App, CtxError, Principal, Unauthorized
from ctx.core.access import authenticate, charge_limits, token_from_headers
from ctx.core.llm import InvalidResponse, Reply
from ctx.ui.gateway import relay, wire
from ctx.ui.gateway.errors import GatewayError, from_ctx
from ctx.ui.gateway.turn import Turn, parse_json, read_turn

log = logging.getLogger("ctx.gateway")
router = APIRouter()


def _app(request: Request) -> App:
    app: App = request.app.state.ctx
    return app


def _authenticate(app: App, token: str, kinds: tuple[str, ...]) -> Principal:
    with app.connection() as conn:
        who = authenticate(conn, token)
        charge_limits(app, who, *kinds, conn=conn)
    return who


async def _principal(request: Request, app: App, *kinds: str) -> Principal:
    """The key's principal, as ``/api`` decides it (``Authorization: Bearer`` or
    ``X-Context-Key``), refused in OpenAI's shape; the request counts against the key's rate
    limits of ``kinds``."""
    token = token_from_headers(request.headers)
    try:
        if not token:
            raise Unauthorized("missing or invalid API key")
        who = await app.bridge.run_sync(_authenticate, app, token, kinds)
    except CtxError as exc:
        raise from_ctx(exc) from None
    request.state.key_id = who.key_id  # for the access log
    request.state.principal = who  # the middleware notes a turn (it writes)
    return who


async def _body(request: Request) -> dict[str, Any]:
    try:
        raw = await request.body()
    except StarletteHTTPException as exc:  # a streamed body over server.body_limit
        raise GatewayError(
            exc.status_code, f"request body too large ({exc.detail})", code="request_too_large"
        ) from None
    return parse_json(raw)


def _header(value: str) -> str:
    """A value for a response header: as it is when printable ASCII, else percent-encoded."""
    return value if value.isascii() and value.isprintable() else quote(value, safe="")


def _ctx_headers(turn: Turn, governed: relay.Governed) -> dict[str, str]:
    envelope = governed.envelope
    return {
        "X-Ctx-Thread": _header(turn.thread),
        "X-Ctx-Collection": _header(str(envelope["thread"]["collection"])),
        "X-Ctx-Seq": str(envelope["seq"]),
        "X-Ctx-Envelope-Tokens": str(envelope["tokens"]),
        "X-Ctx-Budget": str(envelope["budget"]),
    }


@router.get("/models", name="gateway-models")
async def list_models(request: Request) -> JSONResponse:
    """The models the chat role's backends serve, each owned by its backend."""
    app = _app(request)
    await _principal(request, app, "queries")
    served = await app.bridge.run_sync(relay.served_models, app)
    return JSONResponse(wire.models(served))


@router.post("/chat/completions", name="gateway-chat-completions")
async def chat_completions(request: Request) -> Any:
    """One governed turn: store the new message, answer from its envelope, store the answer."""
    app = _app(request)
    who = await _principal(request, app, "writes", "model")  # stores the turn, calls a model
    turn = read_turn(await _body(request), request.headers)
    run = app.bridge.run_sync
    await run(relay.check_backends, app)
    governed = await run(relay.govern, app, who, turn)
    headers = _ctx_headers(turn, governed)
    if turn.stream:
        return await _stream(app, who, turn, governed, headers)
    reply = await run(relay.answer, app, turn, governed)
    seq = await run(_commit, app, who, turn, reply.text, reply)
    if seq is not None:
        headers["X-Ctx-Answer-Seq"] = str(seq)
    headers["X-Ctx-Withheld"] = str(governed.withheld)
    body = wire.completion(
        await run(relay.model_label, app, turn.model, reply.model),
        reply.text,
        await run(relay.prompt_tokens, app, governed),
        await run(relay.completion_tokens, app, reply.text),
    )
    return JSONResponse(body, headers=headers)


def _commit(app: App, who: Principal, turn: Turn, text: str, reply: Reply) -> int | None:
    try:
        return relay.commit(app, who, turn, text, reply)
    except CtxError as exc:
        error = from_ctx(exc, recorded=True)
        error.message = f"the answer could not be stored in the thread: {exc.message}"
        raise error from None


def _next(items: Iterator[str | Reply]) -> str | Reply:
    item = next(items, None)
    if item is None:  # the chain ends with its Reply or an error; anything else is a bug
        raise InvalidResponse("the model's stream ended without an answer")
    return item


async def _stream(
    app: App, who: Principal, turn: Turn, governed: relay.Governed, headers: dict[str, str]
) -> StreamingResponse:
    run = app.bridge.run_sync
    items, first = await run(relay.open_stream, app, turn, governed)
    chunks = wire.Chunks(await run(relay.model_label, app, turn.model, None), turn.include_usage)

    async def body() -> AsyncIterator[str]:
        try:
            yield chunks.delta({"role": "assistant"})
            item = first if first is not None else await run(_next, items)
            while not isinstance(item, Reply):
                yield chunks.delta({"content": item})
                item = await run(_next, items)
            await run(_commit, app, who, turn, item.text, item)
            yield chunks.delta({}, "stop")
            if turn.include_usage:
                prompt = await run(relay.prompt_tokens, app, governed)
                yield chunks.usage(prompt, await run(relay.completion_tokens, app, item.text))
        except GatewayError as exc:
            yield wire.error_event(exc.body())
        except CtxError as exc:  # the status line is sent: say it in the stream
            yield wire.error_event(relay.failure(exc).body())
        except Exception:
            log.exception("gateway stream failed")
            error = GatewayError(500, "internal error while answering; see the server log",
                                 code="internal_error")  # fmt: skip
            yield wire.error_event(error.body())
        finally:
            # a client that went away: the backend's request is closed, nothing is committed
            close = getattr(items, "close", None)
            if close is not None:
                with anyio.CancelScope(shield=True):
                    await run(close)
        yield wire.DONE

    return StreamingResponse(
        body(),
        media_type="text/event-stream",
        headers={**headers, "Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
