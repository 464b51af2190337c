"""What the OAuth endpoints share: the issuer's address, form bodies, RFC 6749 error bodies."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

from fastapi import Request
from fastapi.responses import JSONResponse, Response

from ctx.core import App
from ctx.core.access import OAuthError, unique_params

STATIC = Path(__file__).resolve().parent / "static"  # resolved: editable installs link files
STATIC_URL = "/-/static/oauth"
MCP_PATH = "/mcp"
NO_STORE = {"cache-control": "no-store", "pragma": "no-cache"}
#: Browser-based MCP clients call discovery, /register and /token from their own origin; none of
#: these reads a cookie, so any origin may.
CORS = {
    "access-control-allow-origin": "*",
    "access-control-allow-headers": "authorization, content-type, mcp-protocol-version",
    "access-control-allow-methods": "GET, POST, OPTIONS",
    "access-control-max-age": "600",
}


def ctx_app(request: Request) -> App:
    app: App = request.app.state.ctx
    return app


def issuer(request: Request) -> str:
    """This server's address as clients reach it: ``server.public_url`` when set (behind a
    proxy), else the request's own scheme, host and root path."""
    configured = str(ctx_app(request).settings["server.public_url"]).strip()
    return (configured or str(request.base_url)).rstrip("/")


def resource_metadata_url(request: Request) -> str:
    """The RFC 9728 metadata URL of the MCP endpoint: for ``WWW-Authenticate: Bearer
    resource_metadata="…"`` on its 401s."""
    return f"{issuer(request)}/.well-known/oauth-protected-resource{MCP_PATH}"


def media_type(request: Request) -> str:
    """The request's ``Content-Type`` without its parameters, lower case."""
    return request.headers.get("content-type", "").split(";")[0].strip().lower()


async def read_form(request: Request) -> dict[str, str]:
    """An ``application/x-www-form-urlencoded`` body; a parameter given twice is refused."""
    if media_type(request) != "application/x-www-form-urlencoded":
        raise OAuthError("invalid_request", "send the body as application/x-www-form-urlencoded")
    try:
        pairs = parse_qsl(
            (await request.body()).decode("utf-8"), keep_blank_values=True, strict_parsing=False
        )
    except UnicodeDecodeError:
        raise OAuthError("invalid_request", "the body is not UTF-8 text") from None
    return unique_params(pairs)


def oauth_error(exc: OAuthError, headers: dict[str, str] | None = None) -> JSONResponse:
    """An RFC 6749 section 5.2 error body."""
    body: dict[str, Any] = {"error": exc.error, "error_description": exc.message}
    return JSONResponse(
        body, status_code=exc.status_code, headers={**NO_STORE, **CORS, **(headers or {})}
    )


def preflight() -> Response:
    """The answer to a CORS preflight (``OPTIONS``) of an endpoint any origin may call."""
    return Response(status_code=204, headers=CORS)
