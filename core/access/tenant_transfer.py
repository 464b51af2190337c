"""Tenancy in an admin export: the tenants, the scopes each claimed and the scope grants (before
the blocks), and the block grants (after them, since they name blocks). Tenants are named, never
by id: the root tenant of the importing server stays its root (it takes the root's name and
display name), and every other tenant is matched by name."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from ctx.core.access.schemas import ScopeName
from ctx.core.runtime import (
    UUID_PATTERN,
    TransferLine,
    TransferRecord,
    TransferSection,
    iso_times,
    outcome_of,
    skipped,
)

if TYPE_CHECKING:
    import psycopg

    from ctx.core.blocks import ExportContext, RestoreContext


class TenantLine(TransferLine):
    type: Literal["tenant"]
    name: ScopeName
    display_name: str = Field(default="", max_length=200)
    parent: ScopeName | None = None
    is_root: bool = False
    created_at: datetime


class TenantScopeLine(TransferLine):
    type: Literal["tenant_scope"]
    scope: ScopeName
    tenant: ScopeName
    created_at: datetime


class ScopeGrantLine(TransferLine):
    type: Literal["scope_grant"]
    scope: ScopeName
    tenant: ScopeName
    owner: ScopeName
    granted_by: str | None = Field(default=None, pattern=UUID_PATTERN)
    created_at: datetime


class BlockGrantLine(TransferLine):
    type: Literal["block_grant"]
    block_id: str = Field(pattern=UUID_PATTERN)
    tenant: ScopeName
    granted_by: str | None = Field(default=None, pattern=UUID_PATTERN)
    created_at: datetime
    accepted_at: datetime | None = None


_TENANTS = """
SELECT t.name, t.display_name, p.name AS parent, t.is_root, t.created_at
  FROM context_tenants t LEFT JOIN context_tenants p ON p.id = t.parent_id
 ORDER BY t.is_root DESC, t.created_at, t.name
"""
_SCOPES = """
SELECT s.scope, t.name AS tenant, s.created_at
  FROM context_tenant_scopes s JOIN context_tenants t ON t.id = s.tenant_id ORDER BY s.scope
"""
_SCOPE_GRANTS = """
SELECT g.scope, t.name AS tenant, o.name AS owner, g.granted_by::text AS granted_by, g.created_at
  FROM context_scope_grants g JOIN context_tenants t ON t.id = g.tenant_id
  JOIN context_tenants o ON o.id = g.owner_tenant_id
 ORDER BY g.scope, t.name
"""
_BLOCK_GRANTS = """
SELECT g.block_id::text AS block_id, t.name AS tenant, g.granted_by::text AS granted_by,
       g.created_at, g.accepted_at
  FROM context_block_grants g JOIN context_tenants t ON t.id = g.tenant_id
 ORDER BY g.block_id, t.name
"""


def export_tenancy(reader: ExportContext) -> Iterator[dict[str, Any]]:
    for kind, sql in (("tenant", _TENANTS), ("tenant_scope", _SCOPES),
                      ("scope_grant", _SCOPE_GRANTS)):  # fmt: skip
        for row in reader.rows(sql):
            yield {"type": kind, **iso_times(row)}


def export_block_grants(reader: ExportContext) -> Iterator[dict[str, Any]]:
    for row in reader.rows(_BLOCK_GRANTS):
        yield {"type": "block_grant", **iso_times(row)}


def tenant_id(conn: psycopg.Connection[Any], name: str) -> str | None:
    """The id of the tenant called ``name`` here, or None."""
    row = conn.execute("SELECT id::text AS id FROM context_tenants WHERE name = %s", (name,))
    found = row.fetchone()
    return None if found is None else found["id"]


def restore_tenant(restore: RestoreContext, line: TenantLine) -> str:
    conn = restore.conn
    if line.is_root:
        here = conn.execute(
            "SELECT id, name, display_name, created_at FROM context_tenants WHERE is_root "
            "FOR UPDATE"
        ).fetchone()
        parent = None
    else:
        here = conn.execute(
            "SELECT t.id, t.name, t.display_name, t.created_at, p.name AS parent, t.is_root "
            "FROM context_tenants t LEFT JOIN context_tenants p ON p.id = t.parent_id "
            "WHERE t.name = %s FOR UPDATE OF t",
            (line.name,),
        ).fetchone()
        if here is not None and here["is_root"]:
            return skipped(f"tenant {line.name!r} is this server's root tenant")
        parent = tenant_id(conn, line.parent or "")
        if parent is None:
            return skipped(f"its parent tenant {line.parent!r} is not here")
    wanted = {"name": line.name, "display_name": line.display_name,
              "created_at": line.created_at}  # fmt: skip
    if not line.is_root:
        wanted["parent"] = line.parent
    outcome = outcome_of(None if here is None else dict(here), wanted)
    if outcome == "created":
        conn.execute(
            "INSERT INTO context_tenants (name, display_name, parent_id, created_at) "
            "VALUES (%s, %s, %s, %s)",
            (line.name, line.display_name, parent, line.created_at),
        )
    elif outcome == "updated" and here is not None:
        conn.execute(
            "UPDATE context_tenants SET name = %s, display_name = %s, created_at = %s, "
            "parent_id = coalesce(%s, parent_id) WHERE id = %s",
            (line.name, line.display_name, line.created_at, parent, here["id"]),
        )
    return outcome


def restore_tenant_scope(restore: RestoreContext, line: TenantScopeLine) -> str:
    conn = restore.conn
    owner = tenant_id(conn, line.tenant)
    if owner is None:
        return skipped(f"tenant {line.tenant!r} is not here")
    here = conn.execute(
        "SELECT tenant_id::text AS tenant_id, created_at FROM context_tenant_scopes "
        "WHERE scope = %s FOR UPDATE",
        (line.scope,),
    ).fetchone()
    outcome = outcome_of(here, {"tenant_id": owner, "created_at": line.created_at})
    if outcome != "unchanged":
        conn.execute(
            "INSERT INTO context_tenant_scopes (scope, tenant_id, created_at) VALUES (%s, %s, %s) "
            "ON CONFLICT (scope) DO UPDATE SET tenant_id = EXCLUDED.tenant_id, "
            "created_at = EXCLUDED.created_at",
            (line.scope, owner, line.created_at),
        )
    return outcome


def restore_scope_grant(restore: RestoreContext, line: ScopeGrantLine) -> str:
    conn = restore.conn
    to, owner = tenant_id(conn, line.tenant), tenant_id(conn, line.owner)
    if to is None or owner is None:
        missing = line.tenant if to is None else line.owner
        return skipped(f"tenant {missing!r} is not here")
    here = conn.execute(
        "SELECT owner_tenant_id::text AS owner, granted_by::text AS granted_by, created_at "
        "FROM context_scope_grants WHERE scope = %s AND tenant_id = %s FOR UPDATE",
        (line.scope, to),
    ).fetchone()
    wanted = {"owner": owner, "granted_by": line.granted_by, "created_at": line.created_at}
    outcome = outcome_of(here, wanted)
    if outcome != "unchanged":
        conn.execute(
            "INSERT INTO context_scope_grants (scope, tenant_id, owner_tenant_id, granted_by, "
            "created_at) VALUES (%s, %s, %s, %s, %s) ON CONFLICT (scope, tenant_id) DO UPDATE "
            "SET owner_tenant_id = EXCLUDED.owner_tenant_id, granted_by = EXCLUDED.granted_by, "
            "created_at = EXCLUDED.created_at",
            (line.scope, to, owner, line.granted_by, line.created_at),
        )
    return outcome


def restore_block_grant(restore: RestoreContext, line: BlockGrantLine) -> str:
    conn = restore.conn
    if restore.block_exists(line.block_id) is None:
        return skipped(f"block {line.block_id} is not here")
    to = tenant_id(conn, line.tenant)
    if to is None:
        return skipped(f"tenant {line.tenant!r} is not here")
    here = conn.execute(
        "SELECT granted_by::text AS granted_by, created_at, accepted_at FROM context_block_grants "
        "WHERE block_id = %s AND tenant_id = %s FOR UPDATE",
        (line.block_id, to),
    ).fetchone()
    wanted = {"granted_by": line.granted_by, "created_at": line.created_at,
              "accepted_at": line.accepted_at}  # fmt: skip
    outcome = outcome_of(here, wanted)
    if outcome != "unchanged":
        conn.execute(
            "INSERT INTO context_block_grants (block_id, tenant_id, granted_by, created_at, "
            "accepted_at) VALUES (%s, %s, %s, %s, %s) ON CONFLICT (block_id, tenant_id) DO UPDATE "
            "SET granted_by = EXCLUDED.granted_by, created_at = EXCLUDED.created_at, "
            "accepted_at = EXCLUDED.accepted_at",
            (line.block_id, to, line.granted_by, line.created_at, line.accepted_at),
        )
    return outcome


TENANCY_SECTION = TransferSection(
    "tenancy",
    (
        TransferRecord("tenant", TenantLine, restore_tenant),
        TransferRecord("tenant_scope", TenantScopeLine, restore_tenant_scope),
        TransferRecord("scope_grant", ScopeGrantLine, restore_scope_grant),
    ),
    export_tenancy,
    tables=("context_tenants", "context_tenant_scopes", "context_scope_grants"),
    admin=True,
    first=True,
)

BLOCK_GRANTS_SECTION = TransferSection(
    "block_grants",
    (TransferRecord("block_grant", BlockGrantLine, restore_block_grant),),
    export_block_grants,
    tables=("context_block_grants",),
    admin=True,
)
