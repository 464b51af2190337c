"""The backend and call-log operations as the REST API answers them (``ctx.core.llm.operations``):
list, create, show, change, delete and test backends; read the log of model calls. Each is called
``service(app, who, input)``.

A backend is shown with this process's cooldown; every write goes through the pool
(``app.backends``), which drops itself so the next call sees the change (other ``ctxd`` processes
learn it through ``NOTIFY ctx_settings``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ctx.core.llm.backends import Backend, get_backend, list_backends
from ctx.core.llm.calllog import check_log_filters, log_summary, read_log
from ctx.core.llm.probe import probe_roles
from ctx.core.llm.schemas import (
    ROLES,
    BackendChange,
    BackendCreate,
    BackendName,
    CallLogRequest,
    ProbeInput,
)

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App


def backend_row(app: App, backend: Backend) -> dict[str, Any]:
    """A backend as the API shows it: its fields and this process's cooldown (or null)."""
    return {**backend.as_json(), "cooldown": app.backends.cooldowns().get(backend.name)}


def installed_kinds(app: App) -> list[dict[str, Any]]:
    """The backend kinds installed, by name: the roles each serves and whether it needs a URL."""
    return [
        {
            "name": k.name,
            "roles": list(k.roles) or list(ROLES),
            "needs_url": getattr(k, "needs_url", True),
            "description": k.description,
        }
        for k in sorted(app.backend_kinds.values(), key=lambda k: k.name)
    ]


def backends_overview(app: App) -> dict[str, Any]:
    """Each backend with its cooldown and its last 24 hours, and each role's chain (or why it is
    empty)."""
    pool = app.backends
    cooldowns = pool.cooldowns()
    with app.connection() as conn:
        summary = log_summary(conn)
    rows = [
        {
            "name": b.name,
            "kind": b.kind,
            "roles": list(b.roles),
            "trust": b.trust,
            "enabled": b.enabled,
            "priority": b.priority,
            "cooldown": cooldowns.get(b.name),
            "last_24h": [
                {k: v for k, v in row.items() if k != "backend"}
                for row in summary
                if row["backend"] == b.name
            ],
        }
        for b in pool.backends()
    ]
    roles = {}
    for role in ROLES:
        chain = [b.name for b in pool.chain(role)]
        roles[role] = {"chain": chain, "reason": None if chain else pool.why_empty(role)}
    return {"backends": rows, "roles": roles}


def backends(app: App, who: Principal, _request: None) -> dict[str, Any]:
    with app.connection() as conn:
        rows = list_backends(conn)
    return {"backends": [backend_row(app, b) for b in rows], "kinds": installed_kinds(app)}


def create(app: App, who: Principal, request: BackendCreate) -> dict[str, Any]:
    data = request.model_dump(exclude_unset=True)
    name = data.pop("name")
    return backend_row(app, app.backends.create(name, data, by=f"api:{who.name}"))


def show(app: App, who: Principal, request: BackendName) -> dict[str, Any]:
    with app.connection() as conn:
        return backend_row(app, get_backend(conn, request.name))


def update(app: App, who: Principal, request: BackendChange) -> dict[str, Any]:
    changes = request.model_dump(exclude_unset=True)
    name = changes.pop("name")
    return backend_row(app, app.backends.update(name, changes, by=f"api:{who.name}"))


def delete(app: App, who: Principal, request: BackendName) -> dict[str, Any]:
    app.backends.delete(request.name)
    return {"name": request.name, "deleted": True}


def probe(app: App, who: Principal, request: ProbeInput) -> dict[str, Any]:
    return {"backend": request.name, "results": probe_roles(app, request.name, request.roles)}


def call_log(app: App, who: Principal, request: CallLogRequest) -> dict[str, Any]:
    """The calls asked for, newest first, and the last 24 hours per backend and role."""
    check_log_filters(request.role, request.outcome)
    with app.connection() as conn:
        calls = read_log(conn, limit=request.limit, role=request.role, backend=request.backend,
                         outcome=request.outcome, before=request.before)  # fmt: skip
        summary = log_summary(conn)
    return {"calls": calls, "summary": summary}
