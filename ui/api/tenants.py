"""Tenants over REST: ``/api/tenants`` for the root admin (every tenant) and for owner and admin
keys (their own tenant: its scopes, keys and grants). A tenant a key may not administer answers
404, the same as one that does not exist."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query
from pydantic import Field, model_validator

from ctx.core import access
from ctx.core.errors import ValidationError
from ctx.core.validation import Strict
from ctx.ui.api.deps import AppDep, PrincipalDep
from ctx.ui.api.errors import ERROR_RESPONSES, error_response

router = APIRouter(
    prefix="/api/tenants",
    tags=["tenants"],
    responses={
        **ERROR_RESPONSES,
        404: error_response("No such tenant, key or grant (or one this key does not administer)."),
        409: error_response(
            "The tenant or scope exists already, belongs to another tenant, or "
            "the tenant still holds keys or data."
        ),
    },
)
TenantName = Annotated[
    str, Path(min_length=1, max_length=50, pattern=r"^[a-z0-9][a-z0-9_.-]{0,49}$")
]


class TenantCreate(Strict):
    name: str = Field(min_length=1, max_length=50, description="Lowercase letters, digits, . _ -")
    display_name: str = Field(default="", max_length=200)


class ScopeClaim(Strict):
    scope: str = Field(min_length=1, max_length=50)
    move: bool = Field(default=False, description="Root admins: move a scope in use.")


class TenantKeyCreate(Strict):
    name: str = Field(min_length=1, max_length=200)
    home_scope: str = Field(min_length=1, max_length=50)
    allowed_scopes: list[str] = Field(default_factory=list, max_length=100)
    role: str = Field(default="member", description="owner, admin or member")


class Grant(Strict):
    scope: str | None = Field(default=None, max_length=50, description="A scope to share.")
    block_id: str | None = Field(default=None, max_length=36, description="A block to share.")

    @model_validator(mode="after")
    def _one(self) -> Grant:
        if (self.scope is None) == (self.block_id is None):
            raise ValueError("give exactly one of scope and block_id")
        return self


class BlockAccept(Strict):
    block_id: str = Field(min_length=1, max_length=36)


@router.get("", name="tenants-list")
def tenants_list(app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Every tenant (root admins) or the caller's own, with counts of keys and claimed scopes."""
    with app.connection() as conn:
        return {"tenants": access.tenants.list_tenants(conn, who)}


@router.post("", name="tenants-create", status_code=201)
def tenants_create(body: TenantCreate, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """A new tenant under the root (root admins)."""
    with app.connection() as conn:
        return access.tenants.create_tenant(conn, who, body.name, body.display_name)


@router.get("/{name}", name="tenants-show")
def tenants_show(name: TenantName, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """The tenant, its scopes, keys (never tokens) and grants."""
    with app.connection() as conn:
        tenant = access.tenants.managed_tenant(conn, who, name)
        return {
            **tenant,
            "scopes": access.tenants.tenant_scopes(conn, tenant),
            "keys": access.tenants.tenant_keys(conn, tenant),
            "grants": access.tenants.list_grants(conn, tenant),
        }


@router.delete("/{name}", name="tenants-delete")
def tenants_delete(name: TenantName, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Remove a tenant without active keys or data (root admins)."""
    with app.connection() as conn:
        return access.tenants.delete_tenant(conn, who, name)


@router.post("/{name}/scopes", name="tenants-scope-add", status_code=201)
def tenants_scope_add(
    name: TenantName, body: ScopeClaim, app: AppDep, who: PrincipalDep
) -> dict[str, Any]:
    """Claim a free scope for the tenant; root admins may move one in use (``move``)."""
    with app.connection() as conn:
        return access.tenants.add_scope(conn, who, name, body.scope, move=body.move)


@router.post("/{name}/keys", name="tenants-key-create", status_code=201)
def tenants_key_create(
    name: TenantName, body: TenantKeyCreate, app: AppDep, who: PrincipalDep
) -> dict[str, Any]:
    """A key of the tenant; the token is in this answer only."""
    with app.connection() as conn:
        key_id, token = access.create_key(
            conn,
            name=body.name,
            home_scope=body.home_scope,
            allowed_scopes=body.allowed_scopes,
            tenant=access.tenants.managed_tenant(conn, who, name)["name"],
            role=body.role,
            who=who,
        )
    return {"id": key_id, "api_key": token, "tenant": name, "role": body.role}


@router.delete("/{name}/keys/{key_id}", name="tenants-key-revoke")
def tenants_key_revoke(
    name: TenantName,
    key_id: Annotated[str, Path(min_length=4, max_length=64)],
    app: AppDep,
    who: PrincipalDep,
) -> dict[str, Any]:
    """Revoke a key of the tenant: owner keys only by an owner, never the last owner."""
    with app.connection() as conn:
        return access.tenants.revoke_tenant_key(conn, who, name, key_id)


@router.post("/{name}/grants", name="tenants-grant", status_code=201)
def tenants_grant(name: TenantName, body: Grant, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Share a scope or offer one block to tenant ``name``, by an administrator of its owner. A
    block shows there once an administrator of ``name`` accepts it."""
    with app.connection() as conn:
        if body.scope is not None:
            return access.tenants.grant_scope(conn, who, body.scope, name)
        return access.tenants.grant_block(conn, who, str(body.block_id), name)


@router.post("/{name}/grants/accept", name="tenants-grant-accept")
def tenants_grant_accept(
    name: TenantName, body: BlockAccept, app: AppDep, who: PrincipalDep
) -> dict[str, Any]:
    """Accept a block offered to tenant ``name``: from now on its keys find it."""
    with app.connection() as conn:
        return access.tenants.accept_block(conn, who, name, body.block_id)


@router.delete("/{name}/grants", name="tenants-grant-revoke")
def tenants_grant_revoke(
    name: TenantName,
    app: AppDep,
    who: PrincipalDep,
    scope: Annotated[str | None, Query(max_length=50)] = None,
    block_id: Annotated[str | None, Query(max_length=36)] = None,
) -> dict[str, Any]:
    """Take back a scope (``?scope=``) or block (``?block_id=``) shared with tenant ``name``."""
    with app.connection() as conn:
        if (scope is None) == (block_id is None):
            raise ValidationError("give exactly one of scope and block_id", field="scope")
        if scope is not None:
            return access.tenants.revoke_scope(conn, who, scope, name)
        return access.tenants.revoke_block(conn, who, str(block_id), name)


@router.get("/{name}/grants", name="tenants-grants")
def tenants_grants(name: TenantName, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    with app.connection() as conn:
        return access.tenants.list_grants(conn, access.tenants.managed_tenant(conn, who, name))
