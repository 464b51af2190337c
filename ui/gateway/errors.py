"""The gateway's errors in OpenAI's shape: ``{"error": {"message", "type", "param", "code"}}``.

OpenAI clients read ``error.message`` and branch on the status, so every refusal of ``/v1`` says
what was wrong and what to do in that shape, never a traceback and never ctx's own ``/api`` shape.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from ctx.core import CtxError

#: OpenAI's error types by HTTP status.
TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "invalid_request_error",
    405: "invalid_request_error",
    409: "invalid_request_error",
    413: "invalid_request_error",
    422: "invalid_request_error",
    429: "rate_limit_error",
    500: "server_error",
}
#: ctx's error codes in OpenAI's words, where they differ.
CODES = {
    "unauthorized": "invalid_api_key",
    "invalid": "invalid_value",
    "bad_request": "invalid_request",
    "too_large": "request_too_large",
}


class GatewayError(Exception):
    """A refusal of one ``/v1`` request. ``recorded`` says the user's turn was already stored:
    the answer then asks OpenAI clients not to retry on their own (``x-should-retry: false``),
    which would store the turn again."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        param: str | None = None,
        code: str | None = None,
        type: str | None = None,
        recorded: bool = False,
        retry_after: int | None = None,
    ) -> None:
        super().__init__(message)
        self.retry_after = retry_after
        self.status = status
        self.message = message
        self.param = param
        self.code = code
        self.type = type or TYPES.get(status, "api_error")
        self.recorded = recorded

    def body(self) -> dict[str, Any]:
        return {
            "error": {
                "message": self.message,
                "type": self.type,
                "param": self.param,
                "code": self.code,
            }
        }

    def response(self) -> JSONResponse:
        headers = {}
        if self.status == 401:
            headers["www-authenticate"] = "Bearer"
        if self.recorded:
            headers["x-should-retry"] = "false"
        if self.retry_after is not None:
            headers["retry-after"] = str(self.retry_after)
        return JSONResponse(self.body(), status_code=self.status, headers=headers)


def from_ctx(exc: CtxError, *, recorded: bool = False, param: str | None = None) -> GatewayError:
    """A core error as the gateway answers it. Invalid values are 400 here (OpenAI's status for
    every invalid request), not the 422 of ``/api``."""
    status = 400 if exc.status_code == 422 else exc.status_code
    message = exc.message
    if status == 401:
        message = (
            "missing or invalid API key: send a ctx key as 'Authorization: Bearer ctx_…' "
            "(the OpenAI client's api_key) or as 'X-Context-Key'"
        )
    return GatewayError(
        status,
        message,
        param=param or exc.field,
        code=CODES.get(exc.code, exc.code),
        recorded=recorded,
        retry_after=getattr(exc, "retry_after", None),
    )


def install_error_handlers(api: FastAPI) -> None:
    """OpenAI-shaped answers for everything the gateway's app can fail with."""

    @api.exception_handler(GatewayError)
    async def gateway_error(request: Request, exc: GatewayError) -> JSONResponse:
        return exc.response()

    @api.exception_handler(CtxError)
    async def ctx_error(request: Request, exc: CtxError) -> JSONResponse:
        return from_ctx(exc).response()

    @api.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        return GatewayError(400, "invalid request", code="invalid_request").response()

    @api.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        status = exc.status_code
        if status == 404:
            message = (
                f"no such endpoint: {request.url.path}; the gateway serves "
                "POST /v1/chat/completions and GET /v1/models"
            )
        elif status == 405:
            message = f"{request.method} is not allowed on {request.url.path}"
        elif status == 413:
            message = f"request body too large ({exc.detail})"
        else:
            message = exc.detail if isinstance(exc.detail, str) else "request failed"
        code = {404: "unknown_url", 405: "method_not_allowed", 413: "request_too_large"}
        error = GatewayError(status, message, code=code.get(status))
        response = error.response()
        if exc.headers:
            response.headers.update(exc.headers)  # Allow on a 405
        return response

    @api.exception_handler(Exception)
    async def internal_error(request: Request, exc: Exception) -> JSONResponse:
        # Starlette re-raises after this answer; ctx's request middleware logs it once.
        return GatewayError(
            500, "internal error; the server log has details", code="internal_error"
        ).response()
