"""``GET /api/status``: the parts of the server's status, each from the capability it belongs to."""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from ctx.core import llm
from ctx.core.embed import embedding_overview
from ctx.core.errors import ConfigError
from ctx.core.runtime import counts, installed_version

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App


@cache
def _version() -> str:
    return installed_version()


def token_counters(app: App) -> dict[str, dict[str, Any]]:
    """Per role, the token counter its backends' models get and why, if so, it fell back to the
    estimate (the governor's envelopes go to the chat role)."""
    out: dict[str, dict[str, Any]] = {}
    for role in llm.ROLES:
        try:
            out[role] = app.governor.counter_choice(role=role).as_json()
        except ConfigError as exc:  # governor.token_counter names one that cannot be used
            out[role] = {"counter": None, "error": exc.message}
    return out


def server_status(app: App, who: Principal, _request: None) -> dict[str, Any]:
    """``{"backends", "roles", "token_counters", "jobs", "embedding", "version"}``, and
    ``"replicas"`` with read replicas (``ReplicaSet.status``)."""
    backends = llm.backends_overview(app)
    with app.connection() as conn:
        jobs = counts(conn)
    return {
        "backends": backends["backends"],
        "roles": backends["roles"],
        "token_counters": token_counters(app),
        "jobs": jobs,
        "embedding": embedding_overview(app),
        "version": _version(),
        **({"replicas": app.replicas.status()} if app.replicas is not None else {}),
    }
