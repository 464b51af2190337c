"""The tenant operations over ``ctx.core.access.tenants``. Any key may call them; each checks
the caller's authority itself (a root admin for every tenant, an owner or admin key for its own),
and a tenant the key may not administer is the 404 of one that does not exist."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ctx.core.access import tenants
from ctx.core.access.keys import create_key
from ctx.core.errors import ValidationError

if TYPE_CHECKING:
    import psycopg

    from ctx.core.access.principals import Principal
    from ctx.core.access.schemas import (
        GrantRevoke,
        TenantBlockAccept,
        TenantCreate,
        TenantGrant,
        TenantKeyRef,
        TenantKeyRequest,
        TenantRef,
        TenantScopeClaim,
    )
    from ctx.core.app import App


def tenant_overview(conn: psycopg.Connection[Any], tenant: dict[str, Any]) -> dict[str, Any]:
    """A tenant with its scopes, keys (never tokens) and grants."""
    return {
        **tenant,
        "scopes": tenants.tenant_scopes(conn, tenant),
        "keys": tenants.tenant_keys(conn, tenant),
        "grants": tenants.list_grants(conn, tenant),
    }


def list_tenants(app: App, who: Principal, _: None) -> dict[str, Any]:
    with app.connection() as conn:
        return {"tenants": tenants.list_tenants(conn, who)}


def create_tenant(app: App, who: Principal, given: TenantCreate) -> dict[str, Any]:
    with app.connection() as conn:
        return tenants.create_tenant(conn, who, given.name, given.display_name)


def show_tenant(app: App, who: Principal, given: TenantRef) -> dict[str, Any]:
    with app.connection() as conn:
        return tenant_overview(conn, tenants.managed_tenant(conn, who, given.name))


def delete_tenant(app: App, who: Principal, given: TenantRef) -> dict[str, Any]:
    with app.connection() as conn:
        return tenants.delete_tenant(conn, who, given.name)


def add_scope(app: App, who: Principal, given: TenantScopeClaim) -> dict[str, Any]:
    with app.connection() as conn:
        return tenants.add_scope(conn, who, given.name, given.scope, move=given.move)


def create_tenant_key(app: App, who: Principal, given: TenantKeyRequest) -> dict[str, Any]:
    with app.connection() as conn:
        key_id, token = create_key(
            conn,
            name=given.name,
            home_scope=given.home_scope,
            allowed_scopes=given.allowed_scopes,
            tenant=tenants.managed_tenant(conn, who, given.tenant)["name"],
            role=given.role,
            who=who,
        )
    return {"id": key_id, "api_key": token, "tenant": given.tenant, "role": given.role}


def revoke_tenant_key(app: App, who: Principal, given: TenantKeyRef) -> dict[str, Any]:
    with app.connection() as conn:
        return tenants.revoke_tenant_key(conn, who, given.name, given.key_id)


def grant(app: App, who: Principal, given: TenantGrant) -> dict[str, Any]:
    with app.connection() as conn:
        if given.scope is not None:
            return tenants.grant_scope(conn, who, given.scope, given.name)
        return tenants.grant_block(conn, who, str(given.block_id), given.name)


def accept_block(app: App, who: Principal, given: TenantBlockAccept) -> dict[str, Any]:
    with app.connection() as conn:
        return tenants.accept_block(conn, who, given.name, given.block_id)


def revoke_grant(app: App, who: Principal, given: GrantRevoke) -> dict[str, Any]:
    with app.connection() as conn:
        if (given.scope is None) == (given.block_id is None):
            raise ValidationError("give exactly one of scope and block_id", field="scope")
        if given.scope is not None:
            return tenants.revoke_scope(conn, who, given.scope, given.name)
        return tenants.revoke_block(conn, who, str(given.block_id), given.name)


def list_grants(app: App, who: Principal, given: TenantRef) -> dict[str, Any]:
    with app.connection() as conn:
        return tenants.list_grants(conn, tenants.managed_tenant(conn, who, given.name))
