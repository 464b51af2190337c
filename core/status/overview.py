"""``GET /api/status``: the parts of the server's status, each from the capability it belongs to."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from ctx.core import llm
from ctx.core.embed import embedding_overview
from ctx.core.runtime import counts, installed_version

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App


@cache
def _version() -> str:
    return installed_version()


def server_status(app: App, who: Principal, _request: None) -> dict[str, Any]:
    """``{"backends", "roles", "jobs", "embedding", "version"}``."""
    backends = llm.backends_overview(app)
    with app.connection() as conn:
        jobs = counts(conn)
    return {
        "backends": backends["backends"],
        "roles": backends["roles"],
        "jobs": jobs,
        "embedding": embedding_overview(app),
        "version": _version(),
    }
