"""Principals: who is calling, the one scope they write and the scopes they read.

A key writes only to its home scope and reads its home scope plus its allowed scopes, each only
while its tenant owns the scope or holds a grant for it (resolved in SQL by
``ctx_key_read_scopes``; a principal built from a key row is ``resolved`` and its read scopes are
final, even when empty). The admin tier unlocks operator endpoints and counts only for keys of the
root tenant; a tenant role (owner, admin, member) is authority inside the key's own tenant. Neither
ever widens the scopes a key reads or writes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from ctx.core.errors import Forbidden, ValidationError

SCOPE_RE = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,49}$")
ROLES = ("owner", "admin", "member")
MANAGER_ROLES = ("owner", "admin")
ROOT_TENANT = "root"


@dataclass
class Freshness:
    """What one call by a key must read, for the reads a replica may serve
    (``ctx.core.runtime.replicas``). Authentication reads both positions in the primary's WAL:
    the key's last recorded write and the primary's own position at that moment. ``writes``
    says whether the call writes: None until the call is charged (``charge_limits`` knows its
    kinds), then True once any charge of it is a write. A call that writes reads from the
    primary, where its own writes are at once."""

    key_lsn: int
    primary_lsn: int
    writes: bool | None = None

    def charge(self, writes: bool) -> None:
        self.writes = bool(self.writes) or writes


@dataclass(frozen=True)
class Principal:
    key_id: str
    name: str
    home_scope: str
    allowed_scopes: tuple[str, ...] = ()
    is_admin: bool = False
    read_scopes: tuple[str, ...] = field(default=())
    tenant_id: str | None = None
    tenant: str = ROOT_TENANT
    tenant_role: str = "member"
    tenant_is_root: bool = False
    # True when read_scopes came from the database's tenant rules and are final (even empty);
    # False for a principal built in code, whose read scopes are its home and allowed scopes.
    resolved: bool = False
    # Set for a principal read from a key row (authentication): what its call must read. None
    # for a principal built in code (a job's), whose reads all go to the primary.
    freshness: Freshness | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.resolved and not self.read_scopes:
            ordered = [self.home_scope, *[s for s in self.allowed_scopes if s != self.home_scope]]
            object.__setattr__(self, "read_scopes", tuple(ordered))

    def can_read(self, scope: str) -> bool:
        return scope in self.read_scopes

    def require_write(self, scope: str) -> None:
        if scope != self.home_scope:
            raise Forbidden(
                f"this key writes only to its home scope {self.home_scope!r}, not {scope!r}"
            )
        if scope not in self.read_scopes:
            raise Forbidden(f"scope {scope!r} does not belong to this key's tenant {self.tenant!r}")

    def require_admin(self) -> None:
        if not self.is_admin:
            raise Forbidden("this action needs an admin key")

    def manages(self, tenant_id: str) -> bool:
        """Whether this key may administer ``tenant_id``: a root admin any tenant, an owner or
        admin key its own. The root tenant owns every unclaimed scope, so administering it is
        the operator's job: there a role without the admin tier administers nothing."""
        return self.is_admin or (
            self.tenant_id is not None
            and self.tenant_id == tenant_id
            and self.tenant_role in MANAGER_ROLES
            and not self.tenant_is_root
        )

    def require_manager(self, tenant_id: str, tenant: str) -> None:
        if not self.manages(tenant_id):
            raise Forbidden(f"this key cannot administer tenant {tenant!r}")

    def as_dict(self) -> dict[str, Any]:
        return {
            "key_id": self.key_id,
            "name": self.name,
            "home_scope": self.home_scope,
            "allowed_scopes": list(self.allowed_scopes),
            "read_scopes": list(self.read_scopes),
            "is_admin": self.is_admin,
            "tenant": self.tenant,
            "tenant_role": self.tenant_role,
        }

    def scopes_for(self, wanted: list[str] | None) -> list[str]:
        """The scopes a read covers: ``wanted`` (each must be readable) or all readable ones."""
        if wanted is None:
            return list(self.read_scopes)
        bad = [s for s in wanted if not self.can_read(s)]
        if bad:
            raise Forbidden(f"this key cannot read scope(s) {', '.join(bad)}")
        return list(wanted)


def validate_scope(scope: str, what: str = "scope") -> str:
    if not isinstance(scope, str) or not SCOPE_RE.match(scope):
        raise ValidationError(
            f"{what} {scope!r} is invalid: use 1-50 lowercase letters, digits, '.', '_' or '-'",
            field=what,
        )
    return scope


class WhoAmI(BaseModel):
    """The calling key, as ``/api/whoami`` describes it (never its token)."""

    key_id: str
    name: str
    home_scope: str
    allowed_scopes: list[str]
    read_scopes: list[str]
    is_admin: bool
    tenant: str
    tenant_role: str
