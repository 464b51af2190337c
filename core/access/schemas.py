"""The request models of the access operations: keys, sealed secrets, OAuth clients, tenants and
their grants. A model of an operation with path parameters adds them to the body it takes."""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import ConfigDict, Field, model_validator

from ctx.core.access.principals import ROLES, SCOPE_RE
from ctx.core.validation import NAME, Strict, alternatives, shaped

#: a key's role in its tenant (``ROLES``)
Role = Literal["owner", "admin", "member"]
assert get_args(Role) == ROLES  # one list of roles

#: a scope's name (and a tenant's: the same rule, ``validate_scope``), as the schema states it
ScopeName = Annotated[
    str,
    shaped(
        SCOPE_RE.pattern,
        "must be 1-50 lowercase letters, digits, '.', '_' or '-', starting with a letter or digit",
    ),
]
TenantNameText = Annotated[ScopeName, Field(description="The tenant's name.")]
#: a sealed secret's name (``check_secret_name``)
SECRET_NAME = NAME
SecretNameText = Annotated[
    str, shaped(SECRET_NAME, description="The secret's name: 1-64 of a-z 0-9 . _ -.")
]

# -- keys, secrets, OAuth clients (an admin's) ------------------------------------------------------


class KeyCreate(Strict):
    name: str = Field(min_length=1, max_length=200)
    home_scope: ScopeName
    allowed_scopes: list[ScopeName] = Field(default_factory=list)
    is_admin: bool = False
    tenant: TenantNameText | None = Field(
        default=None, description="The key's tenant (default: the root)."
    )
    role: Role | None = Field(default=None, description="owner, admin or member.")


class KeyId(Strict):
    key_id: str = Field(description="The key's id (or the prefix shown in lists).")


class SecretName(Strict):
    name: SecretNameText


class SecretValue(Strict):
    value: str = Field(min_length=1, description="The value to seal; it is never returned.")


class SecretSet(SecretValue):
    name: SecretNameText


class ClientId(Strict):
    client_id: str = Field(description="The OAuth client's id (ctx_…).")


# -- tenants --------------------------------------------------------------------------------------


class TenantCreate(Strict):
    name: TenantNameText
    display_name: str = Field(default="", max_length=200)


class TenantRef(Strict):
    name: TenantNameText


class ScopeClaim(Strict):
    scope: ScopeName
    move: bool = Field(default=False, description="Root admins: move a scope in use.")


class TenantScopeClaim(ScopeClaim):
    name: TenantNameText


class TenantKeyCreate(Strict):
    name: str = Field(min_length=1, max_length=200)
    home_scope: ScopeName
    allowed_scopes: list[ScopeName] = Field(default_factory=list, max_length=100)
    role: Role = Field(default="member", description="owner, admin or member")


class TenantKeyRequest(TenantKeyCreate):
    """A new key of ``tenant``: the body's ``name`` is the key's label, so the tenant of the path
    (``/api/tenants/{name}/keys``) is a field of its own here."""

    tenant: TenantNameText


class TenantKeyRef(TenantRef):
    key_id: str = Field(min_length=4, max_length=64, description="Key id or prefix.")


class Grant(Strict):
    model_config = ConfigDict(json_schema_extra=alternatives(("scope",), ("block_id",)))

    scope: ScopeName | None = Field(default=None, description="A scope to share.")
    block_id: str | None = Field(default=None, max_length=36, description="A block to share.")

    @model_validator(mode="after")
    def _one(self) -> Grant:
        if (self.scope is None) == (self.block_id is None):
            raise ValueError("give exactly one of scope and block_id")
        return self


class TenantGrant(Grant):
    name: TenantNameText


class BlockAccept(Strict):
    block_id: str = Field(min_length=1, max_length=36)


class TenantBlockAccept(BlockAccept):
    name: TenantNameText


class GrantRevoke(TenantRef):
    """What to take back: a scope (``?scope=``) or a block (``?block_id=``), exactly one."""

    scope: ScopeName | None = Field(default=None, description="A shared scope.")
    block_id: str | None = Field(default=None, max_length=36, description="A shared block.")
