"""The web workbench: server-rendered pages (Jinja + htmx) over the same core functions the API
calls. One router and one template folder per resource; partials are named ``_*.html``.

Plugins extend it through the ``register_web`` hook (``WebPage``, ``NavEntry``,
``TemplateDir``), and their page routes use ``UserDep``/``AdminUserDep`` and ``render``.
"""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from ctx.core import App
from ctx.ui.web import errors
from ctx.ui.web.deps import AdminUserDep, UserDep, WebAppDep
from ctx.ui.web.extend import NavEntry, TemplateDir, WebPage, collect
from ctx.ui.web.markdown import to_html
from ctx.ui.web.render import STATIC, STATIC_URL, Pages, render, swaps_region
from ctx.ui.web.routes import ROUTERS

__all__ = [
    "AdminUserDep",
    "NavEntry",
    "TemplateDir",
    "UserDep",
    "WebAppDep",
    "WebPage",
    "mount",
    "render",
    "swaps_region",
    "to_html",
]


def mount(server: FastAPI, app: App) -> None:
    """Add the workbench's pages, its static files and its error pages to ``server``."""
    ext = collect([(reg.plugin, tuple(reg.args)) for reg in app.host.registrations("register_web")])
    server.state.web = Pages(ext)
    errors.install(server)
    for router in ROUTERS:
        server.include_router(router)
    for page in ext.pages:
        server.include_router(page.router)
    server.mount(STATIC_URL, StaticFiles(directory=STATIC), name="web-static")
