"""The REST API's error responses: every failure is a JSON body with a code, a message naming the
problem and the request id; nothing a caller sends produces a traceback."""

from __future__ import annotations

import sys
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from ctx.core import CtxError
from ctx.core.validation import INT_LIMIT, MAX_DEPTH, error_message


class FieldError(BaseModel):
    field: str
    message: str


class ErrorBody(BaseModel):
    """Every error response: a code, a message naming the problem, the field it is about (when
    one is), and the request id to find it in the server log."""

    error: str = Field(
        description="A stable code: invalid, unauthorized, forbidden, not_found, ..."
    )
    message: str
    field: str | None = None
    errors: list[FieldError] | None = Field(default=None, description="422: every field problem.")
    request_id: str | None = None


def _error(description: str) -> dict[str, Any]:
    return {"model": ErrorBody, "description": description}


def error_response(description: str) -> dict[str, Any]:
    """An error answer for a route's ``responses`` (OpenAPI), in the shape every error has."""
    return _error(description)


#: The errors every authenticated endpoint can answer, documented once for the OpenAPI schema.
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    401: _error("No key, or an unknown or revoked one."),
    403: _error("The key may not do this (a scope it cannot read or write, not admin)."),
    413: _error("The body is larger than server.body_limit."),
    415: _error("The body is not declared as JSON."),
    422: _error("A field is missing or invalid; `field` names it."),
    429: _error("Over a per-key rate limit (limits.*_per_minute); see Retry-After."),
    503: _error("The database is unavailable (restarting, unreachable); see Retry-After."),
    507: _error("The database is out of disk space; nothing was written."),
}
BY_ID_RESPONSES: dict[int | str, dict[str, Any]] = {
    404: _error("No such block (or setting, type, key) in the key's scopes."),
    409: _error("Ambiguous id prefix, or the change collides with an existing block."),
}


def _request_id(request: Request) -> str | None:
    rid = request.scope.get("state", {}).get("request_id")
    return str(rid) if rid else None


def _describe_validation(errors: list[Any]) -> tuple[str, list[dict[str, Any]]]:
    details = []
    for err in errors[:20]:
        if err.get("type") == "json_invalid":  # its loc ends in a character offset, not a field
            reason = (err.get("ctx") or {}).get("error") or err.get("msg", "invalid")
            details.append({"field": "body", "message": f"is not valid JSON ({reason})"})
            continue
        loc = [str(p) for p in err.get("loc", ()) if p != "body"]
        message = error_message(err)
        if not loc and err.get("type") == "missing":
            message = "is missing; send a JSON object"
        elif not loc and err.get("type") in ("model_type", "model_attributes_type", "dict_type"):
            message = "must be a JSON object"
        details.append({"field": ".".join(loc) or "body", "message": message})
    if not details:
        return "invalid request", details
    first = details[0]
    if first["field"] == "body":
        return f"request body {first['message']}", details
    return f"{first['field']}: {first['message']}", details


def unreadable_body(cause: BaseException | None) -> str:
    """What was wrong with a body the JSON parser gave up on: too deep or too long a number
    are named (the parser's own limits), anything else is not JSON."""
    if isinstance(cause, RecursionError):
        return f"request body is nested more than {MAX_DEPTH} levels deep"
    if isinstance(cause, ValueError) and "integer string conversion" in str(cause):
        return (
            f"request body has a number of more than {sys.get_int_max_str_digits()} digits "
            f"(whole numbers stop at {INT_LIMIT})"
        )
    return "request body is not valid JSON (it must be UTF-8 encoded JSON)"


def allowed_methods(request: Request) -> str:
    """Every method the request's path answers to, for a 405's ``Allow`` (Starlette names only
    those of the first route that matched the path)."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        declared = getattr(route, "methods", None)
        if declared and route.matches(request.scope)[0] is not Match.NONE:
            methods |= declared
    return ", ".join(sorted(methods))


def _page_error(request: Request, status: int, message: str) -> Response | None:
    """An error page when the web workbench is mounted and the path is one of its pages."""
    pages = getattr(request.app.state, "error_pages", None)
    if pages is None or not pages.handles(request):
        return None
    answer: Response = pages.respond(request, status, message)
    return answer


def install_error_handlers(api: FastAPI) -> None:
    @api.exception_handler(CtxError)
    async def ctx_error(request: Request, exc: CtxError) -> Response:
        page = _page_error(request, exc.status_code, exc.message)
        if page is not None:
            return page
        body: dict[str, Any] = {"error": exc.code, "message": exc.message}
        if exc.field:
            body["field"] = exc.field
        body["request_id"] = _request_id(request)
        headers = {"www-authenticate": "Bearer"} if exc.status_code == 401 else None
        retry_after = getattr(exc, "retry_after", None)
        if exc.status_code in (429, 503) and retry_after is not None:
            headers = {"retry-after": str(retry_after)}
        return JSONResponse(body, status_code=exc.status_code, headers=headers)

    @api.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        message, details = _describe_validation(list(exc.errors()))
        page = _page_error(request, 422, message)
        if page is not None:
            return page
        return JSONResponse(
            {
                "error": "invalid",
                "message": message,
                "field": details[0]["field"] if details else "body",
                "errors": details,
                "request_id": _request_id(request),
            },
            status_code=422,
        )

    @api.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        code = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}.get(
            exc.status_code, "http_error"
        )
        message = exc.detail if isinstance(exc.detail, str) else "request failed"
        status = exc.status_code
        if status == 400 and "parsing the body" in message:
            # the same status as every other invalid body
            message = unreadable_body(exc.__cause__)
            code, status = "invalid", 422
        if exc.status_code == 404 and message == "Not Found":
            page = _page_error(request, 404, f"there is no page at {request.url.path}")
            if page is not None:
                return page
            message = f"no such endpoint: {request.url.path} (see /docs)"
        headers = {k.lower(): v for k, v in (exc.headers or {}).items()}  # e.g. Allow on a 405
        if exc.status_code == 405:
            message = f"{request.method} is not allowed here"
            headers["allow"] = allowed_methods(request) or headers.get("allow", "")
            page = _page_error(request, 405, message)
            if page is not None:
                page.headers.update(headers)
                return page
        body: dict[str, Any] = {"error": code, "message": message}
        if status == 422:
            body["field"] = "body"
        return JSONResponse(
            {**body, "request_id": _request_id(request)},
            status_code=status,
            headers=headers,
        )
