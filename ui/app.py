"""The one app factory: a FastAPI app with every surface mounted: the REST API (every declared
operation's route), OAuth, MCP, the OpenAI-compatible gateway and the web workbench."""

from __future__ import annotations

from fastapi import FastAPI

from ctx.core import App
from ctx.ui import api, gateway, mcp, oauth, web
from ctx.ui.version import VERSION


def create_app(app: App) -> FastAPI:
    server = FastAPI(
        title="ctx",
        version=VERSION,
        description="Memory and knowledge layer for LLM agents.",
        docs_url=None,  # served by ctx.ui.api.docs from vendored assets
        redoc_url=None,
        openapi_url="/openapi.json",
    )
    server.state.ctx = app
    api.mount(server, app)
    oauth.mount(server)
    mcp.mount(server, app)
    gateway.mount(server)
    web.mount(server, app)
    return server
