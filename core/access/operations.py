"""The access operations, each declared once (``ctx.core.operations``): the calling key, API keys,
sealed secrets and OAuth clients (an admin's), and tenants with their scopes, keys and grants.
Only models are imported here; the services are named."""

from __future__ import annotations

from ctx.core.access.principals import WhoAmI
from ctx.core.access.schemas import (
    BlockAccept,
    ClientId,
    Grant,
    GrantRevoke,
    KeyCreate,
    KeyId,
    ScopeClaim,
    SecretName,
    SecretSet,
    SecretValue,
    TenantBlockAccept,
    TenantCreate,
    TenantGrant,
    TenantKeyCreate,
    TenantKeyRef,
    TenantKeyRequest,
    TenantRef,
    TenantScopeClaim,
)
from ctx.core.operations import Operation, Rest

SERVICE = "ctx.core.access.service"
TENANTS = "ctx.core.access.tenant_service"
ADMIN = ("admin",)
BY_ID = {
    404: "No such key, secret or OAuth client.",
    409: "The change collides with what uses it (a secret a backend or setting still uses).",
}
TENANT_ERRORS = {
    404: "No such tenant, key or grant (or one this key does not administer).",
    409: "The tenant or scope exists already, belongs to another tenant, or the tenant still "
    "holds keys or data.",
}

WHOAMI = Operation(
    name="access.whoami",
    summary="The calling key: name, home scope, read scopes, admin bit, tenant and role.",
    service=f"{SERVICE}:whoami",
    output=WhoAmI,
    reach="none",
    rest=Rest("GET", "/api/whoami", tags=("blocks",)),
)

# -- API keys, sealed secrets, OAuth clients: an admin's ----------------------------------------

LIST_KEYS = Operation(
    name="access.list-keys",
    summary="Every active key (never its token).",
    service=f"{SERVICE}:list_keys",
    access="admin",
    reach="none",
    rest=Rest("GET", "/api/keys", tags=ADMIN),
)

CREATE_KEY = Operation(
    name="access.create-key",
    summary="Create a key; its token is in this answer only.",
    service=f"{SERVICE}:create_key",
    input=KeyCreate,
    kind="write",
    access="admin",
    reach="none",
    rest=Rest("POST", "/api/keys", status=201, errors=BY_ID, tags=ADMIN),
)

REVOKE_KEY = Operation(
    name="access.revoke-key",
    summary="Revoke a key: requests with it answer 401 from now on.",
    service=f"{SERVICE}:revoke_key",
    input=KeyId,
    kind="write",
    access="admin",
    reach="none",
    rest=Rest("DELETE", "/api/keys/{key_id}", errors=BY_ID, tags=ADMIN),
)

LIST_SECRETS = Operation(
    name="access.list-secrets",
    summary="Sealed secrets: names, the key that sealed each, when and by whom, and what uses "
    "each (``references``); never a value.",
    service=f"{SERVICE}:list_secrets",
    access="admin",
    reach="none",
    rest=Rest("GET", "/api/secrets", tags=ADMIN),
)

SET_SECRET = Operation(
    name="access.set-secret",
    summary="Seal a value under ``name`` (replacing an earlier one); write-only.",
    service=f"{SERVICE}:set_secret",
    input=SecretSet,
    kind="write",
    access="admin",
    reach="none",
    rest=Rest("PUT", "/api/secrets/{name}", body=SecretValue, errors=BY_ID, tags=ADMIN),
)

DELETE_SECRET = Operation(
    name="access.delete-secret",
    summary="Delete a sealed secret (refused while a backend or a setting uses it).",
    service=f"{SERVICE}:delete_secret",
    input=SecretName,
    kind="write",
    access="admin",
    reach="none",
    rest=Rest("DELETE", "/api/secrets/{name}", errors=BY_ID, tags=ADMIN),
)

LIST_OAUTH_CLIENTS = Operation(
    name="access.list-oauth-clients",
    summary="Every OAuth client, from `ctx mcp add` and dynamic registration (never a secret).",
    service=f"{SERVICE}:list_clients",
    access="admin",
    reach="none",
    rest=Rest("GET", "/api/oauth/clients", tags=ADMIN),
)

REMOVE_OAUTH_CLIENT = Operation(
    name="access.remove-oauth-client",
    summary="Remove an OAuth client; keys it obtained stay valid until revoked.",
    service=f"{SERVICE}:remove_client",
    input=ClientId,
    kind="write",
    access="admin",
    reach="none",
    rest=Rest("DELETE", "/api/oauth/clients/{client_id}", errors=BY_ID, tags=ADMIN),
)

# -- tenants: a root admin's for every tenant, an owner's or admin's for its own -----------------
# Any key may call these; the service checks the caller's role in the tenant, and a tenant it
# may not administer answers the 404 of one that does not exist.

LIST_TENANTS = Operation(
    name="access.list-tenants",
    summary="Every tenant (root admins) or the caller's own, with counts of keys and claimed "
    "scopes.",
    service=f"{TENANTS}:list_tenants",
    reach="none",
    rest=Rest("GET", "/api/tenants", errors=TENANT_ERRORS, tags=("tenants",)),
    cli=True,
)

CREATE_TENANT = Operation(
    name="access.create-tenant",
    summary="A new tenant under the root (root admins).",
    service=f"{TENANTS}:create_tenant",
    input=TenantCreate,
    kind="write",
    reach="none",
    rest=Rest("POST", "/api/tenants", status=201, errors=TENANT_ERRORS, tags=("tenants",)),
    cli=True,
)

SHOW_TENANT = Operation(
    name="access.show-tenant",
    summary="The tenant, its scopes, keys (never tokens) and grants.",
    service=f"{TENANTS}:show_tenant",
    input=TenantRef,
    reach="none",
    rest=Rest("GET", "/api/tenants/{name}", errors=TENANT_ERRORS, tags=("tenants",)),
    cli=True,
)

DELETE_TENANT = Operation(
    name="access.delete-tenant",
    summary="Remove a tenant without active keys or data (root admins).",
    service=f"{TENANTS}:delete_tenant",
    input=TenantRef,
    kind="write",
    reach="none",
    rest=Rest("DELETE", "/api/tenants/{name}", errors=TENANT_ERRORS, tags=("tenants",)),
    cli=True,
)

ADD_TENANT_SCOPE = Operation(
    name="access.add-tenant-scope",
    summary="Claim a free scope for the tenant; root admins may move one in use (``move``).",
    service=f"{TENANTS}:add_scope",
    input=TenantScopeClaim,
    kind="write",
    reach="none",
    rest=Rest(
        "POST",
        "/api/tenants/{name}/scopes",
        status=201,
        body=ScopeClaim,
        errors=TENANT_ERRORS,
        tags=("tenants",),
    ),
    cli=True,
)

CREATE_TENANT_KEY = Operation(
    name="access.create-tenant-key",
    summary="A key of the tenant; the token is in this answer only.",
    description="A key of the tenant; the token is in this answer only. An owner key only by an "
    "owner (or a root admin), never an admin-tier key.",
    service=f"{TENANTS}:create_tenant_key",
    input=TenantKeyRequest,
    kind="write",
    reach="none",
    # the body's ``name`` is the key's label and the path's the tenant: one input cannot hold
    # both under that name, so a small endpoint puts the path's into ``tenant``
    rest=Rest(
        "POST",
        "/api/tenants/{name}/keys",
        status=201,
        body=TenantKeyCreate,
        endpoint="ctx.ui.api.tenants:create_tenant_key",
        errors=TENANT_ERRORS,
        tags=("tenants",),
    ),
    cli=True,
)

REVOKE_TENANT_KEY = Operation(
    name="access.revoke-tenant-key",
    summary="Revoke a key of the tenant: owner keys only by an owner, never the last owner.",
    service=f"{TENANTS}:revoke_tenant_key",
    input=TenantKeyRef,
    kind="write",
    reach="none",
    rest=Rest(
        "DELETE", "/api/tenants/{name}/keys/{key_id}", errors=TENANT_ERRORS, tags=("tenants",)
    ),
    cli=True,
)

GRANT_TO_TENANT = Operation(
    name="access.grant-to-tenant",
    summary="Share a scope or offer one block to tenant ``name``, by an administrator of its "
    "owner.",
    description="Share a scope or offer one block to tenant ``name``, by an administrator of "
    "its owner. A block shows there once an administrator of ``name`` accepts it.",
    service=f"{TENANTS}:grant",
    input=TenantGrant,
    kind="write",
    reach="none",
    rest=Rest(
        "POST",
        "/api/tenants/{name}/grants",
        status=201,
        body=Grant,
        errors=TENANT_ERRORS,
        tags=("tenants",),
    ),
    cli=True,
)

ACCEPT_TENANT_BLOCK = Operation(
    name="access.accept-tenant-block",
    summary="Accept a block offered to tenant ``name``: from now on its keys find it.",
    service=f"{TENANTS}:accept_block",
    input=TenantBlockAccept,
    kind="write",
    reach="none",
    rest=Rest(
        "POST",
        "/api/tenants/{name}/grants/accept",
        body=BlockAccept,
        errors=TENANT_ERRORS,
        tags=("tenants",),
    ),
    cli=True,
)

REVOKE_TENANT_GRANT = Operation(
    name="access.revoke-tenant-grant",
    summary="Take back a scope (``?scope=``) or block (``?block_id=``) shared with tenant "
    "``name`` (or, as ``name``, decline it).",
    service=f"{TENANTS}:revoke_grant",
    input=GrantRevoke,
    kind="write",
    reach="none",
    rest=Rest("DELETE", "/api/tenants/{name}/grants", errors=TENANT_ERRORS, tags=("tenants",)),
    cli=True,
)

LIST_TENANT_GRANTS = Operation(
    name="access.list-tenant-grants",
    summary="What the tenant shares and what is shared with it.",
    service=f"{TENANTS}:list_grants",
    input=TenantRef,
    reach="none",
    rest=Rest("GET", "/api/tenants/{name}/grants", errors=TENANT_ERRORS, tags=("tenants",)),
)
