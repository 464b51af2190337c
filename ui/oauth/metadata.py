"""Discovery: RFC 8414 authorization server metadata and RFC 9728 protected resource metadata."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ctx.core.access import authorization_server_metadata, protected_resource_metadata
from ctx.ui.oauth.common import CORS, MCP_PATH, NO_STORE, ctx_app, issuer, preflight

router = APIRouter(tags=["oauth"], include_in_schema=False)
WELL_KNOWN = (
    "/.well-known/oauth-authorization-server",
    "/.well-known/oauth-protected-resource",
    f"/.well-known/oauth-protected-resource{MCP_PATH}",
)
#: With ``server.public_url`` empty the documents name the request's Host: a shared cache must
#: not keep one a forged Host header produced.
HEADERS = {**NO_STORE, **CORS}


@router.get("/.well-known/oauth-authorization-server", name="oauth-server-metadata")
def server_metadata(request: Request) -> JSONResponse:
    registration = bool(ctx_app(request).settings["oauth.dynamic_registration"])
    return JSONResponse(
        authorization_server_metadata(issuer(request), registration=registration),
        headers=HEADERS,
    )


# The MCP endpoint is the one protected resource; both forms describe it.
@router.get("/.well-known/oauth-protected-resource", name="oauth-resource-metadata")
@router.get(f"/.well-known/oauth-protected-resource{MCP_PATH}", name="oauth-mcp-metadata")
def resource_metadata(request: Request) -> JSONResponse:
    base = issuer(request)
    return JSONResponse(protected_resource_metadata(base, base + MCP_PATH), headers=HEADERS)


for _path in WELL_KNOWN:
    router.add_api_route(_path, preflight, methods=["OPTIONS"])
