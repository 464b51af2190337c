"""The one app factory: a FastAPI app with every surface mounted (the REST API, OAuth, MCP,
the OpenAI-compatible gateway and the web workbench), plus the routes plugins register."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI

from ctx.core import App, PluginError
from ctx.ui import api, gateway, mcp, oauth, web
from ctx.ui.api.middleware import SELF_VERIFIED
from ctx.ui.api.operations import operations_router
from ctx.ui.version import VERSION

#: Routes that take files, with the setting that bounds their bodies; every other route has
#: server.body_limit.
ROUTE_BODY_LIMITS = (
    ("/api/ingest", "server.ingest_body_limit"),
    ("/api/blob/store", "server.blob_body_limit"),
)


def body_limit_for(app: App, path: str) -> int:
    for prefix, key in ROUTE_BODY_LIMITS:
        if path == prefix or path.startswith(prefix + "/"):
            return int(app.settings[key])
    return int(app.settings["server.body_limit"])


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
    api.mount(server, body_limit=lambda path: body_limit_for(app, path))
    server.include_router(operations_router(app.operations.values()))
    oauth.mount(server)
    mcp.mount(server, app)
    gateway.mount(server)
    web.mount(server, app)
    for reg in app.host.registrations("register_routes"):
        router = reg.args[0] if len(reg.args) == 1 else None
        if not isinstance(router, APIRouter):
            raise PluginError(f"plugin {reg.plugin} must call register(router) with an APIRouter")
        server.include_router(router)
    _document_rate_limits(server)
    return server


def _document_rate_limits(server: FastAPI) -> None:
    """Every keyed ``/api`` operation, plugins' included, lists the 429 of the per-key rate
    limits in ``/openapi.json`` (the forge webhooks take no key and are not limited)."""
    build = server.openapi

    def openapi() -> dict[str, Any]:
        if server.openapi_schema is not None:
            return server.openapi_schema
        schema = build()
        paths = schema.get("paths", {})
        model = paths.get("/api/store", {}).get("post", {}).get("responses", {}).get("429")
        for path, operations in paths.items():
            if not path.startswith("/api/") or path.startswith(SELF_VERIFIED) or model is None:
                continue
            for operation in operations.values():
                operation.setdefault("responses", {}).setdefault("429", model)
        return schema

    server.openapi = openapi  # type: ignore[method-assign]
