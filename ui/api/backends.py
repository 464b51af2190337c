"""Admin endpoints for the model backends: list, create, change, delete and test them.

A backend's secret is referenced by name (``PUT /api/secrets/{name}`` seals it); every write
drops this process's pool so the next call sees the change (other ``ctxd`` processes learn it
through ``NOTIFY ctx_settings``).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import Field, field_validator

from ctx.core import App, llm
from ctx.core.errors import ValidationError
from ctx.core.validation import Strict
from ctx.ui.api.deps import AdminDep, AppDep
from ctx.ui.api.errors import BY_ID_RESPONSES, ERROR_RESPONSES

router = APIRouter(
    prefix="/api/backends", tags=["backends"], responses={**ERROR_RESPONSES, **BY_ID_RESPONSES}
)


class BackendCreate(llm.BackendFields):
    """A new backend: its name and fields (kind is required; the rest have defaults)."""

    name: str = Field(min_length=1, max_length=64)


class ProbeRequest(Strict):
    roles: list[str] | None = Field(
        default=None, max_length=len(llm.ROLES), description="Roles to test (default: all)."
    )

    @field_validator("roles")
    @classmethod
    def _roles(cls, v: list[str] | None) -> list[str] | None:
        unknown = [r for r in v or () if r not in llm.ROLES]
        if unknown:
            raise ValueError(f"unknown role(s) {unknown}; roles: {', '.join(llm.ROLES)}")
        return v


def backend_row(app: App, backend: llm.Backend) -> dict[str, Any]:
    """A backend as the API shows it: its fields and this process's cooldown (or null)."""
    return {**backend.as_json(), "cooldown": app.backends.cooldowns().get(backend.name)}


def kinds(app: App) -> list[dict[str, Any]]:
    return [
        {
            "name": k.name,
            "roles": list(k.roles) or list(llm.ROLES),
            "needs_url": getattr(k, "needs_url", True),
            "description": k.description,
        }
        for k in sorted(app.backend_kinds.values(), key=lambda k: k.name)
    ]


@router.get("", name="backends-list")
def backends_list(app: AppDep, _: AdminDep) -> dict[str, Any]:
    """Every backend, highest priority first, with its cooldown; and the kinds installed."""
    with app.connection() as conn:
        rows = llm.list_backends(conn)
    return {"backends": [backend_row(app, b) for b in rows], "kinds": kinds(app)}


@router.post("", name="backends-create", status_code=201)
def backends_create(body: BackendCreate, app: AppDep, who: AdminDep) -> dict[str, Any]:
    """Add a backend; 422 names the field at fault (an unknown kind, role or secret, a role
    without a model, a bad URL), 409 when the name is taken."""
    data = body.model_dump(exclude_unset=True)
    name = data.pop("name")
    return backend_row(app, app.backends.create(name, data, by=f"api:{who.name}"))


@router.get("/{name}", name="backends-show")
def backends_show(name: str, app: AppDep, _: AdminDep) -> dict[str, Any]:
    with app.connection() as conn:
        return backend_row(app, llm.get_backend(conn, name))


@router.patch("/{name}", name="backends-update")
def backends_update(
    name: str, body: llm.BackendFields, app: AppDep, who: AdminDep
) -> dict[str, Any]:
    """Change the fields given (``"secret": null`` drops the secret)."""
    changes = body.model_dump(exclude_unset=True)
    return backend_row(app, app.backends.update(name, changes, by=f"api:{who.name}"))


@router.delete("/{name}", name="backends-delete")
def backends_delete(name: str, app: AppDep, _: AdminDep) -> dict[str, Any]:
    app.backends.delete(name)
    return {"name": name, "deleted": True}


@router.post("/{name}/test", name="backends-test")
def backends_test(
    name: str, app: AppDep, _: AdminDep, body: ProbeRequest | None = None
) -> dict[str, Any]:
    """One real request per role (those given, else all the backend has), with its latency;
    a failed role is a result with ``ok: false``, not an error status."""
    with app.connection() as conn:
        backend = llm.get_backend(conn, name)
    roles = body.roles if body is not None else None
    foreign = [r for r in roles or () if r not in backend.roles]
    if foreign:
        raise ValidationError(
            f"backend {name} does not serve {foreign}; its roles: "
            f"{', '.join(backend.roles) or 'none'}",
            field="roles",
        )
    return {"backend": name, "results": llm.probe_backend(app, backend, roles or None)}
