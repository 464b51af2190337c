"""The REST API: a route per declared operation (``operations``), the API documentation, the
error handlers and the request middleware."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from ctx.core import App
from ctx.ui.api import docs
from ctx.ui.api.errors import install_error_handlers
from ctx.ui.api.middleware import CtxMiddleware, json_messages
from ctx.ui.api.operations import RouteRules, operations_router

__all__ = ["json_messages", "mount"]


def mount(api: FastAPI, app: App) -> None:
    """Add the REST API to ``api``: the routes of every declared operation, the documentation,
    the error handlers and the request middleware (its per-route rules derived from the same
    declarations)."""
    install_error_handlers(api)
    # the built routes themselves, not include_router: including wraps the router and derives
    # every route a second time for each server on its first request
    api.router.routes.extend(operations_router(app.operations.values()).routes)
    api.include_router(docs.router)
    api.mount(docs.STATIC_URL, StaticFiles(directory=docs.STATIC), name="api-static")
    api.add_middleware(
        CtxMiddleware,
        rules=RouteRules(app.operations.values(), app.settings),
        after_write=app.note_write if app.replicas is not None else None,
    )
