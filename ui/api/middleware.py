"""ASGI middleware: request ids, structured access logs, security headers, body limit, and the
note of a call that wrote (for read replicas).

Written as plain ASGI so a body over the limit is refused while it streams in, before FastAPI
reads it into memory.
"""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Protocol
from urllib.parse import parse_qsl

from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException as StarletteHTTPException

from ctx.core.access import token_from_headers
from ctx.core.validation import text_problem

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

access_log = logging.getLogger("ctx.access")
log = logging.getLogger("ctx.server")
REQUEST_ID_RE = re.compile(r"^[A-Za-z0-9._-]{8,64}$")

SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        b"frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    ),
]


class BodyTooLarge(StarletteHTTPException):
    """A body over the limit; an HTTP exception so FastAPI's body reader passes it through."""

    def __init__(self, limit: int = 0) -> None:
        super().__init__(413, f"request body exceeds {limit} bytes")


def json_messages(
    status: int, body: dict[str, Any], headers: list[tuple[bytes, bytes]] | None = None
) -> tuple[Message, Message]:
    """The two ASGI messages of a JSON response (a 401 says ``WWW-Authenticate: Bearer`` unless
    ``headers`` bring their own)."""
    data = json.dumps(body).encode()
    extra = list(headers or [])
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(data))]
    if status == 401 and not any(name == b"www-authenticate" for name, _ in extra):
        headers.append((b"www-authenticate", b"Bearer"))
    headers += extra
    start = {"type": "http.response.start", "status": status, "headers": headers}
    return start, {"type": "http.response.body", "body": data}


def _url_problem(scope: Scope) -> tuple[str, str] | None:
    """The same rule as for bodies (ctx.core.validation) for the path and the query string."""
    problem = text_problem(scope.get("path", ""))
    if problem:
        return "path", f"the request path {problem}"
    raw = scope.get("query_string", b"").decode("latin-1")
    for name, value in parse_qsl(raw, keep_blank_values=True, errors="surrogateescape"):
        problem = text_problem(name) or text_problem(value)
        if problem:
            return name if text_problem(name) is None else "query", f"query parameter {problem}"
    return None


class Rules(Protocol):
    """What the middleware knows of a route before the body is read (``RouteRules``, derived
    from the operations' declarations)."""

    def body_limit(self, path: str) -> int: ...

    def takes_no_key(self, path: str) -> bool: ...


def _api_refusal(
    scope: Scope, headers: dict[bytes, bytes], rules: Rules
) -> tuple[int, str, str] | None:
    """What the REST API refuses before reading a body: a request without any key (401, before
    a malformed body could say 422) unless the route takes none (a public operation, which must
    refuse what it cannot verify itself), and a body that is not declared JSON (415)."""
    if not scope.get("path", "").startswith("/api/"):
        return None
    keyless = rules.takes_no_key(scope["path"])
    if not keyless and token_from_headers(Headers(scope=scope)) is None:
        return 401, "unauthorized", "missing or invalid API key"
    if scope.get("method") in ("POST", "PUT", "PATCH"):
        declared = headers.get(b"content-length", b"")
        sends_body = declared not in (b"", b"0") or b"transfer-encoding" in headers
        kind = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
        if sends_body and kind != b"application/json" and not kind.endswith(b"+json"):
            return (
                415,
                "unsupported_media_type",
                "send the body as JSON with the header Content-Type: application/json "
                "(curl: -H 'content-type: application/json')",
            )
    return None


class CtxMiddleware:
    """``after_write(who)``, when given, runs before the last byte of an answer (below 400) to
    a call that wrote goes out: the principal every way in puts on ``request.state.principal``
    says whether it did (``Freshness``); with read replicas, ``App.note_write``."""

    def __init__(
        self, app: ASGIApp, rules: Rules, after_write: Callable[[Any], None] | None = None
    ) -> None:
        self.app = app
        self.rules = rules
        self.after_write = after_write

    async def _note_write(self, scope: Scope, status: int) -> None:
        """Run ``after_write`` for the request's principal when its call wrote; its failure is
        logged (the answer is made) and costs only the key's next read its replica."""
        if self.after_write is None:
            return
        who = scope["state"].get("principal")
        fresh = getattr(who, "freshness", None)
        if status >= 400 or fresh is None or not fresh.writes:
            return
        try:
            await run_in_threadpool(self.after_write, who)
        except Exception as exc:
            log.warning("the write's position was not recorded: %s", exc)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        incoming = headers.get(b"x-request-id", b"").decode("latin-1")
        request_id = incoming if REQUEST_ID_RE.match(incoming) else uuid.uuid4().hex
        scope.setdefault("state", {})["request_id"] = request_id
        started = time.perf_counter()
        status_holder = {"status": 500}
        limit = self.rules.body_limit(scope.get("path", ""))

        async def send_wrapped(message: Message) -> None:
            if message["type"] == "http.response.start":
                status_holder["status"] = message["status"]
                status_holder["started"] = 1
                extra = [(b"x-request-id", request_id.encode())]
                names = {k.lower() for k, _ in message.get("headers", [])}
                extra += [(k, v) for k, v in SECURITY_HEADERS if k not in names]
                if scope["path"].startswith("/api/") and b"cache-control" not in names:
                    extra.append((b"cache-control", b"no-store"))
                message["headers"] = list(message.get("headers", [])) + extra
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                await self._note_write(scope, status_holder["status"])  # the answer's last part
            await send(message)

        declared = headers.get(b"content-length")
        too_big = False
        if declared is not None:
            try:
                too_big = int(declared) > limit
            except ValueError:
                too_big = True
        received = 0

        async def receive_limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        async def reply(status: int, error: str, message: str, **extra: Any) -> None:
            start, body = json_messages(
                status,
                {"error": error, "message": message, **extra, "request_id": request_id},
            )
            await send_wrapped(start)
            await send_wrapped(body)

        try:
            if too_big:
                raise BodyTooLarge(limit)
            url_problem = _url_problem(scope)
            refusal = _api_refusal(scope, headers, self.rules)
            if url_problem:
                await reply(422, "invalid", url_problem[1], field=url_problem[0])
            elif refusal:
                await reply(*refusal)
            else:
                await self.app(scope, receive_limited, send_wrapped)
        except BodyTooLarge:
            await reply(413, "too_large", f"request body exceeds {limit} bytes")
        except Exception:
            # Answered here rather than re-raised, so the server keeps the connection open for
            # the client's next request (a re-raised error makes uvicorn drop it silently).
            log.exception("unhandled error", extra={"request_id": request_id})
            if not status_holder.get("started"):
                await reply(500, "internal", "internal error; the server log has details")
        finally:
            access_log.info(
                "request",
                extra={
                    "request_id": request_id,
                    "method": scope.get("method"),
                    "path": scope.get("path"),
                    "status": status_holder["status"],
                    "duration_ms": round((time.perf_counter() - started) * 1000, 2),
                    "key_id": scope["state"].get("key_id"),
                },
            )
