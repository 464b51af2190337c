"""The one tenant route written by hand: ``POST /api/tenants/{name}/keys``, whose body has a
``name`` of its own (the key's label), so the tenant of the path cannot be an input field of the
same name. The route around it (access, kinds, OpenAPI entry) derives from ``CREATE_TENANT_KEY``
like every other tenant operation (``ctx.core.access.operations``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Path

from ctx.core.access import CREATE_TENANT_KEY, TenantKeyCreate, TenantKeyRequest
from ctx.ui.api.deps import AppDep, PrincipalDep

TenantName = Annotated[
    str, Path(min_length=1, max_length=50, pattern=r"^[a-z0-9][a-z0-9_.-]{0,49}$")
]


def create_tenant_key(
    name: TenantName, body: TenantKeyCreate, app: AppDep, who: PrincipalDep
) -> dict[str, Any]:
    """A key of the tenant; the token is in this answer only."""
    given = TenantKeyRequest(tenant=name, **body.model_dump())
    answer: dict[str, Any] = CREATE_TENANT_KEY.service_function()(app, who, given)
    return answer
