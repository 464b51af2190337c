"""The REST API: one router per resource, the error handlers, the request middleware."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from ctx.ui.api import docs
from ctx.ui.api.errors import install_error_handlers
from ctx.ui.api.middleware import CtxMiddleware, json_messages

__all__ = ["ROUTERS", "json_messages", "mount"]

ROUTERS = (docs.router,)


def mount(api: FastAPI, body_limit: Callable[[str], int]) -> None:
    """Add the REST routes, their error handlers and middleware to ``api``."""
    install_error_handlers(api)
    for router in ROUTERS:
        api.include_router(router)
    api.mount(docs.STATIC_URL, StaticFiles(directory=docs.STATIC), name="api-static")
    api.add_middleware(CtxMiddleware, body_limit=body_limit)
