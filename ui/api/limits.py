"""Which per-key rate limits (``limits.*_per_minute``) a request counts against.

The route says: an operation's route counts against its declared kinds (``ctx.core.operations``),
a workbench page against what it declares with ``@charges`` (``ctx.ui.api.marks``), and a page that
declares nothing by its method (a GET reads, anything else writes). What one call's input adds (an
answer asked for, a delete among the actions) is charged where the input is read. MCP tools count
the same declarations (``ctx.core.tools``) and gateway turns their own (``ctx.ui.gateway``).
Wrong keys typed into a sign-in form count per client address (``client_address``).
"""

from __future__ import annotations

from typing import Any

from fastapi import Request

from ctx.core import App, Principal
from ctx.core.access import charge_limits
from ctx.ui.api.marks import declared_limits

READ = ("queries",)
WRITE = ("writes",)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def request_limits(request: Request) -> tuple[str, ...]:
    """The limits the request's route declares, else its method's default."""
    route = request.scope.get("route")
    declared = declared_limits(getattr(route, "endpoint", None))
    if declared is not None:
        return declared
    return READ if request.method in SAFE_METHODS else WRITE


def client_address(request: Request) -> str:
    """The address a request came from, as a limit per address counts it (behind a proxy, the
    proxy's, unless the server is told to trust its forwarded headers)."""
    return request.client.host if request.client else "unknown"


def charge_request(request: Request, app: App, who: Principal, conn: Any = None) -> None:
    """Count the request against its route's limits (HTTP 429 with Retry-After when over), in
    ``conn``'s transaction when given."""
    charge_limits(app, who, *request_limits(request), conn=conn)
