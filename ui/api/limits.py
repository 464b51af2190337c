"""Which per-key rate limits (``limits.*_per_minute``) a REST request counts against.

A GET counts as a read (``queries``) and any other method as a write, unless the route is listed
in ``ROUTE_KINDS``: POST routes that only read, and routes that call a language model. Routes
whose kind depends on the body add to it themselves (``/api/query`` asking for an answer,
``/api/manage`` deleting or editing). Plugin routes follow the same rule through ``PrincipalDep``.
The workbench's pages count the same way, through ``ctx.ui.web.deps``. MCP tools are counted in
``ctx.core.tools`` and gateway turns in ``ctx.ui.gateway``.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request

from ctx.core import App, Principal
from ctx.core.access import charge_limits
from ctx.ui.api.marks import declared_limits

READ = ("queries",)
WRITE = ("writes",)
MODEL = ("model",)

#: (method, route path) -> the limits a request counts against, where the method's default is
#: wrong.
ROUTE_KINDS: dict[tuple[str, str], tuple[str, ...]] = {
    ("POST", "/api/issues/suggest"): READ,
    # the workbench (its signed-in user's key); /ask adds a model call when it answers
    ("POST", "/ask"): READ,
    ("POST", "/graph/data/ego"): READ,
    ("POST", "/chat/{session}/send"): (*WRITE, *MODEL),
}


def route_kinds(method: str, path: str) -> tuple[str, ...]:
    """Transitional: the kinds of a route that declares none."""
    if method in ("GET", "HEAD", "OPTIONS"):
        return ROUTE_KINDS.get(("GET", path), READ)
    return ROUTE_KINDS.get((method, path), WRITE)


def charge_request(request: Request, app: App, who: Principal, conn: Any = None) -> None:
    """Count the request against its route's limits (HTTP 429 with Retry-After when over), in
    ``conn``'s transaction when given."""
    route = request.scope.get("route")
    declared = declared_limits(getattr(route, "endpoint", None))
    if declared is None:
        path = getattr(route, "path", None) or request.url.path
        declared = route_kinds(request.method, path)
    charge_limits(app, who, *declared, conn=conn)
