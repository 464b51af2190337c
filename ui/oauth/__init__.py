"""OAuth 2.1 for remote MCP clients over HTTP: discovery, the sign-in form, the token and
registration endpoints. The mechanism is ``ctx.core.access``, which also declares the admin's
client list and removal (operations, like the rest of the REST API)."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from ctx.ui.oauth import authorize, metadata, token
from ctx.ui.oauth.common import STATIC, STATIC_URL, issuer, resource_metadata_url

ROUTERS = (metadata.router, authorize.router, token.router)

__all__ = ["ROUTERS", "issuer", "mount", "resource_metadata_url"]


def mount(server: FastAPI) -> None:
    """Add the OAuth routes and their stylesheet to ``server``."""
    for router in ROUTERS:
        server.include_router(router)
    server.mount(STATIC_URL, StaticFiles(directory=STATIC), name="oauth-static")
