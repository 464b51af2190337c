"""The REST API's error responses: every failure is a JSON body with a code, a message naming the
problem and the request id; nothing a caller sends produces a traceback."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from ctx.core import CtxError


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
        message = str(err.get("msg", "invalid")).removeprefix("Value error, ")
        if not loc:
            message = (
                "is missing; send a JSON object"
                if err.get("type") == "missing"
                else f"must be a JSON object ({message})"
            )
        details.append({"field": ".".join(loc) or "body", "message": message})
    if not details:
        return "invalid request", details
    first = details[0]
    if first["field"] == "body":
        return f"request body {first['message']}", details
    return f"{first['field']}: {first['message']}", details


def install_error_handlers(api: FastAPI) -> None:
    @api.exception_handler(CtxError)
    async def ctx_error(request: Request, exc: CtxError) -> JSONResponse:
        body: dict[str, Any] = {"error": exc.code, "message": exc.message}
        if exc.field:
            body["field"] = exc.field
        body["request_id"] = _request_id(request)
        headers = {"www-authenticate": "Bearer"} if exc.status_code == 401 else None
        return JSONResponse(body, status_code=exc.status_code, headers=headers)

    @api.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        message, details = _describe_validation(list(exc.errors()))
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
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}.get(
            exc.status_code, "http_error"
        )
        message = exc.detail if isinstance(exc.detail, str) else "request failed"
        if exc.status_code == 400 and "parsing the body" in message:
            message = "request body is not valid JSON (it must be UTF-8 encoded JSON)"
            code = "invalid"
        return JSONResponse(
            {"error": code, "message": message, "request_id": _request_id(request)},
            status_code=exc.status_code,
        )
