"""Tenants: who owns which scopes, who may administer them, and what is shared across them.

A tenant owns scopes (``context_tenant_scopes``; a scope nobody claimed is the root tenant's), so
the scope stays the one data discriminator and every read path that filters by a key's read scopes
is tenant-safe once those scopes are resolved (``ctx_key_read_scopes``). Sharing is explicit: a
scope grant lets another tenant's keys read a whole scope (a key still lists it in its allowed
scopes), a block grant shows one block to another tenant in retrieval and by id.

Administration: the root tenant's admin keys administer every tenant; an owner or admin key
administers its own tenant (its keys, scopes and grants); only owners create or revoke owner keys.
The root tenant is administered by admin keys only: it owns every unclaimed scope.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import sql

from ctx.core.access.principals import MANAGER_ROLES, ROLES, ROOT_TENANT, Principal, validate_scope
from ctx.core.errors import Conflict, Forbidden, NotFound, ValidationError

TENANT_COLUMNS = "t.id::text AS id, t.name, t.display_name, t.is_root, t.created_at"


def validate_tenant_name(name: str) -> str:
    return validate_scope(name, "tenant")


def get_tenant(conn: psycopg.Connection[Any], name: str | None) -> dict[str, Any]:
    """The tenant called ``name`` (None: the root), or 404."""
    if name is None:
        row = conn.execute(
            f"SELECT {TENANT_COLUMNS} FROM context_tenants t WHERE is_root"
        ).fetchone()
    else:
        validate_tenant_name(name)
        row = conn.execute(
            f"SELECT {TENANT_COLUMNS} FROM context_tenants t WHERE name = %s", (name,)
        ).fetchone()
    if row is None:
        raise NotFound(f"no tenant {name!r}; see `ctx tenants list`")
    return dict(row)


def list_tenants(conn: psycopg.Connection[Any], who: Principal) -> list[dict[str, Any]]:
    """Every tenant for a root admin; otherwise the caller's own."""
    rows = conn.execute(
        f"SELECT {TENANT_COLUMNS}, "
        "(SELECT count(*) FROM context_api_keys k WHERE k.tenant_id = t.id "
        " AND k.revoked_at IS NULL) AS keys, "
        "(SELECT count(*) FROM context_tenant_scopes s WHERE s.tenant_id = t.id) AS scopes "
        "FROM context_tenants t WHERE %s OR t.id::text = %s ORDER BY NOT t.is_root, t.name",
        (who.is_admin, who.tenant_id or ""),
    ).fetchall()
    return [dict(r) for r in rows]


def create_tenant(
    conn: psycopg.Connection[Any], who: Principal, name: str, display_name: str = ""
) -> dict[str, Any]:
    """A new tenant under the root; root admins only."""
    who.require_admin()
    validate_tenant_name(name)
    if len(display_name) > 200:
        raise ValidationError("display_name must be at most 200 characters", field="display_name")
    row = conn.execute(
        "INSERT INTO context_tenants (name, display_name, parent_id) "
        "VALUES (%s, %s, ctx_root_tenant()) ON CONFLICT (name) DO NOTHING RETURNING id",
        (name, display_name),
    ).fetchone()
    if row is None:
        raise Conflict(f"tenant {name!r} exists already")
    return get_tenant(conn, name)


def delete_tenant(conn: psycopg.Connection[Any], who: Principal, name: str) -> dict[str, Any]:
    """Remove an empty tenant: no active key and no block or blob left in its scopes. Its scopes,
    grants and revoked keys go with it."""
    who.require_admin()
    tenant = get_tenant(conn, name)
    if tenant["is_root"]:
        raise Forbidden("the root tenant cannot be deleted")
    busy = conn.execute(
        "SELECT (SELECT count(*) FROM context_api_keys WHERE tenant_id = %(t)s "
        "        AND revoked_at IS NULL) AS keys, "
        "(SELECT count(*) FROM context_blocks b JOIN context_tenant_scopes s ON s.scope = b.scope "
        " WHERE s.tenant_id = %(t)s) AS blocks, "
        "(SELECT count(*) FROM context_blobs b JOIN context_tenant_scopes s ON s.scope = b.scope "
        " WHERE s.tenant_id = %(t)s) AS blobs",
        {"t": tenant["id"]},
    ).fetchone()
    assert busy is not None
    if busy["keys"] or busy["blocks"] or busy["blobs"]:
        raise Conflict(
            f"tenant {name!r} still has {busy['keys']} active key(s), {busy['blocks']} block(s) "
            f"and {busy['blobs']} blob(s); revoke the keys and export or move the data first"
        )
    conn.execute("DELETE FROM context_scope_grants WHERE scope IN "
                 "(SELECT scope FROM context_tenant_scopes WHERE tenant_id = %s)", (tenant["id"],))  # fmt: skip
    conn.execute("DELETE FROM context_tenants WHERE id = %s", (tenant["id"],))
    return {"tenant": name, "deleted": True}


def managed_tenant(conn: psycopg.Connection[Any], who: Principal, name: str) -> dict[str, Any]:
    """The tenant ``name`` if the caller may administer it; the same 404 as an unknown tenant
    otherwise, so a key learns nothing about tenants it does not administer."""
    tenant = get_tenant(conn, name)
    if not who.manages(tenant["id"]):
        raise NotFound(f"no tenant {name!r}; see `ctx tenants list`")
    return tenant


# --- scopes -----------------------------------------------------------------------------------


def scope_owner(conn: psycopg.Connection[Any], scope: str) -> dict[str, Any]:
    """The tenant owning ``scope`` and whether it claimed it explicitly."""
    row = conn.execute(
        f"SELECT {TENANT_COLUMNS}, EXISTS (SELECT 1 FROM context_tenant_scopes WHERE scope = %s) "
        "AS claimed FROM context_tenants t WHERE t.id = ctx_scope_tenant(%s)",
        (scope, scope),
    ).fetchone()
    assert row is not None
    return dict(row)


# Tables whose scope column says who may use a scope rather than holding data of it.
_TENANCY_TABLES = ("context_tenant_scopes", "context_scope_grants", "context_api_keys")


def scope_in_use(conn: psycopg.Connection[Any], scope: str, tenant_id: str) -> bool:
    """Whether ``scope`` was ever used: any row of any table with a ``scope`` column (blocks,
    blobs, threads, chats, issues, the write log, whatever a plugin adds), or an active key of
    another tenant. A scope once used is never free: its history is someone's."""
    tables = conn.execute(
        "SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema() "
        "AND column_name = 'scope' AND NOT (table_name = ANY(%s)) ORDER BY table_name",
        (list(_TENANCY_TABLES),),
    ).fetchall()
    for t in tables:
        query = sql.SQL("SELECT 1 FROM {} WHERE scope = %s LIMIT 1").format(
            sql.Identifier(t["table_name"])
        )
        if conn.execute(query, (scope,)).fetchone():
            return True
    row = conn.execute(
        "SELECT EXISTS (SELECT 1 FROM context_api_keys WHERE revoked_at IS NULL "
        "AND tenant_id <> %s AND (home_scope = %s OR %s = ANY(allowed_scopes))) AS busy",
        (tenant_id, scope, scope),
    ).fetchone()
    assert row is not None
    return bool(row["busy"])


def claim_scope(
    conn: psycopg.Connection[Any],
    tenant: dict[str, Any],
    scope: str,
    *,
    move: bool = False,
    detail: bool = True,
) -> None:
    """Make ``tenant`` own ``scope``. A scope nobody claimed and nobody ever used is free; taking
    one in use or another tenant's is a move, which only a root admin may ask for (``move``),
    and never while keys of the old owner live in it. Whatever the old owner shared of the scope
    is unshared. ``detail`` False: a refusal names no other tenant (for tenant keys)."""
    validate_scope(scope)
    owner = scope_owner(conn, scope)
    if owner["id"] == tenant["id"]:
        return
    homes = conn.execute(
        "SELECT count(*) AS n FROM context_api_keys WHERE revoked_at IS NULL "
        "AND home_scope = %s AND tenant_id <> %s",
        (scope, tenant["id"]),
    ).fetchone()
    assert homes is not None
    if homes["n"]:
        raise Conflict(
            f"scope {scope!r} is the home scope of {homes['n']} active key(s) of tenant "
            f"{owner['name']!r}; revoke them first"
            if detail
            else f"scope {scope!r} is not free"
        )
    free = not owner["claimed"] and not scope_in_use(conn, scope, tenant["id"])
    if not free and not move:
        raise Conflict(
            f"scope {scope!r} belongs to tenant {owner['name']!r}"
            + ("" if owner["claimed"] else " and is in use")
            + "; a root admin can move it"
            if detail
            else f"scope {scope!r} is not free"
        )
    if tenant["is_root"]:
        conn.execute("DELETE FROM context_tenant_scopes WHERE scope = %s", (scope,))
    elif move:
        conn.execute(
            "INSERT INTO context_tenant_scopes (scope, tenant_id) VALUES (%s, %s) "
            "ON CONFLICT (scope) DO UPDATE SET tenant_id = EXCLUDED.tenant_id",
            (scope, tenant["id"]),
        )
    else:  # a claim racing another one for the same free scope: the first wins, never both
        won = conn.execute(
            "INSERT INTO context_tenant_scopes (scope, tenant_id) VALUES (%s, %s) "
            "ON CONFLICT (scope) DO NOTHING RETURNING scope",
            (scope, tenant["id"]),
        ).fetchone()
        if won is None:
            raise Conflict(f"scope {scope!r} is not free")
    # the old owner's shares of this scope were the old owner's decision, not the new one's
    conn.execute("DELETE FROM context_scope_grants WHERE scope = %s", (scope,))
    conn.execute(
        "DELETE FROM context_block_grants g USING context_blocks b "
        "WHERE b.id = g.block_id AND b.scope = %s",
        (scope,),
    )


def add_scope(
    conn: psycopg.Connection[Any], who: Principal, name: str, scope: str, *, move: bool = False
) -> dict[str, Any]:
    tenant = managed_tenant(conn, who, name)
    if move and not who.is_admin:
        raise Forbidden("only a root admin moves a scope between tenants")
    claim_scope(conn, tenant, scope, move=move, detail=who.is_admin)
    return {"tenant": name, "scope": scope}


def tenant_scopes(conn: psycopg.Connection[Any], tenant: dict[str, Any]) -> list[str]:
    """The scopes a tenant owns: its claimed ones; for the root, every scope in use that no other
    tenant claimed."""
    if not tenant["is_root"]:
        rows = conn.execute(
            "SELECT scope FROM context_tenant_scopes WHERE tenant_id = %s ORDER BY scope",
            (tenant["id"],),
        ).fetchall()
        return [r["scope"] for r in rows]
    rows = conn.execute(
        "SELECT s AS scope FROM (SELECT DISTINCT scope AS s FROM context_blocks "
        "UNION SELECT home_scope FROM context_api_keys WHERE revoked_at IS NULL) x "
        "WHERE NOT EXISTS (SELECT 1 FROM context_tenant_scopes c WHERE c.scope = x.s) ORDER BY s"
    ).fetchall()
    return [r["scope"] for r in rows]


# --- grants -----------------------------------------------------------------------------------


def grant_scope(
    conn: psycopg.Connection[Any], who: Principal, scope: str, to: str
) -> dict[str, Any]:
    """Let tenant ``to`` read ``scope``; by an administrator of the scope's tenant. The receiving
    tenant's keys read it once a key lists it in its allowed scopes (their administrators decide
    that), and only while the granting tenant owns the scope."""
    validate_scope(scope)
    owner = scope_owner(conn, scope)
    if not who.manages(owner["id"]):
        raise Forbidden(f"this key cannot share scope {scope!r}")
    target = get_tenant(conn, to)
    if target["id"] == owner["id"]:
        raise ValidationError(f"tenant {to!r} owns scope {scope!r} already", field="to")
    conn.execute(
        "INSERT INTO context_scope_grants (scope, tenant_id, granted_by, owner_tenant_id) "
        "VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
        (scope, target["id"], who.key_id, owner["id"]),
    )
    return {"scope": scope, "tenant": to, "granted": True}


def revoke_scope(
    conn: psycopg.Connection[Any], who: Principal, scope: str, to: str
) -> dict[str, Any]:
    """Take back a scope grant: by the scope's owner, or declined by the receiving tenant."""
    validate_scope(scope)
    owner = scope_owner(conn, scope)
    # the scope's administrators may name any tenant; anyone else only one it administers, and
    # learns nothing about the others (the 404 of a missing tenant)
    target = get_tenant(conn, to) if who.manages(owner["id"]) else managed_tenant(conn, who, to)
    cur = conn.execute(
        "DELETE FROM context_scope_grants WHERE scope = %s AND tenant_id = %s",
        (scope, target["id"]),
    )
    if not cur.rowcount:
        raise NotFound(f"scope {scope!r} is not shared with tenant {to!r}")
    return {"scope": scope, "tenant": to, "granted": False}


def _block_row(conn: psycopg.Connection[Any], block_id: str) -> dict[str, Any] | None:
    row = conn.execute(
        "SELECT id::text AS id, scope, ctx_scope_tenant(scope)::text AS tenant_id "
        "FROM context_blocks WHERE id::text = %s",
        (block_id,),
    ).fetchone()
    return None if row is None else dict(row)


def grant_block(
    conn: psycopg.Connection[Any], who: Principal, block_id: str, to: str
) -> dict[str, Any]:
    """Offer one block to tenant ``to``, by an administrator of the block's tenant. The block
    shows there (in retrieval and by id; never in lists or exports) once an administrator of
    ``to`` accepts it, so no tenant can put text into another's answers; an offer by a key that
    administers both tenants (the root admin) is accepted at once."""
    block = _block_row(conn, block_id)
    if block is None or not who.manages(block["tenant_id"]):
        raise NotFound(f"no block {block_id!r} you can share")
    target = get_tenant(conn, to)
    if target["id"] == block["tenant_id"]:
        raise ValidationError(f"the block belongs to tenant {to!r} already", field="to")
    accepted = who.manages(target["id"])
    conn.execute(
        "INSERT INTO context_block_grants (block_id, tenant_id, granted_by, accepted_at) "
        "VALUES (%s, %s, %s, CASE WHEN %s THEN now() END) ON CONFLICT DO NOTHING",
        (block["id"], target["id"], who.key_id, accepted),
    )
    return {"block_id": block["id"], "tenant": to, "granted": True, "accepted": accepted}


def accept_block(
    conn: psycopg.Connection[Any], who: Principal, name: str, block_id: str
) -> dict[str, Any]:
    """Accept a block offered to tenant ``name`` (by one of its administrators)."""
    tenant = managed_tenant(conn, who, name)
    cur = conn.execute(
        "UPDATE context_block_grants SET accepted_at = now() "
        "WHERE block_id::text = %s AND tenant_id = %s AND accepted_at IS NULL",
        (block_id, tenant["id"]),
    )
    if not cur.rowcount:
        raise NotFound(f"no block {block_id!r} waits for tenant {name!r} to accept it")
    return {"block_id": block_id, "tenant": name, "accepted": True}


def revoke_block(
    conn: psycopg.Connection[Any], who: Principal, block_id: str, to: str
) -> dict[str, Any]:
    """Take back (or, for the receiving tenant, decline or drop) a block grant."""
    block = _block_row(conn, block_id)
    if block is not None and who.manages(block["tenant_id"]):
        target = get_tenant(conn, to)
    else:  # only the receiving tenant's administrators, who learn nothing about other tenants
        target = managed_tenant(conn, who, to)
    if block is None:
        raise NotFound(f"no block {block_id!r} shared with tenant {to!r}")
    cur = conn.execute(
        "DELETE FROM context_block_grants WHERE block_id = %s AND tenant_id = %s",
        (block["id"], target["id"]),
    )
    if not cur.rowcount:
        raise NotFound(f"no block {block_id!r} shared with tenant {to!r}")
    return {"block_id": block["id"], "tenant": to, "granted": False}


def list_grants(conn: psycopg.Connection[Any], tenant: dict[str, Any]) -> dict[str, Any]:
    """What the tenant shares and what is shared with it (blocks offered to it show their title,
    so its administrators know what they accept)."""
    t = tenant["id"]
    given_scopes = conn.execute(
        "SELECT g.scope, r.name AS tenant FROM context_scope_grants g "
        "JOIN context_tenants r ON r.id = g.tenant_id "
        "WHERE g.owner_tenant_id = %s AND ctx_scope_tenant(g.scope) = g.owner_tenant_id "
        "ORDER BY 1, 2",
        (t,),
    ).fetchall()
    received_scopes = conn.execute(
        "SELECT g.scope, o.name AS owner FROM context_scope_grants g "
        "JOIN context_tenants o ON o.id = ctx_scope_tenant(g.scope) "
        "WHERE g.tenant_id = %s AND g.owner_tenant_id = ctx_scope_tenant(g.scope) ORDER BY 1",
        (t,),
    ).fetchall()
    given_blocks = conn.execute(
        "SELECT g.block_id::text AS block_id, b.title, b.scope, r.name AS tenant, "
        "g.accepted_at IS NOT NULL AS accepted "
        "FROM context_block_grants g JOIN context_blocks b ON b.id = g.block_id "
        "JOIN context_tenants r ON r.id = g.tenant_id "
        "WHERE ctx_scope_tenant(b.scope) = %s ORDER BY b.title, 4",
        (t,),
    ).fetchall()
    received_blocks = conn.execute(
        "SELECT g.block_id::text AS block_id, b.title, o.name AS owner, "
        "g.accepted_at IS NOT NULL AS accepted "
        "FROM context_block_grants g JOIN context_blocks b ON b.id = g.block_id "
        "JOIN context_tenants o ON o.id = ctx_scope_tenant(b.scope) "
        "WHERE g.tenant_id = %s AND NOT b.is_archived ORDER BY b.title",
        (t,),
    ).fetchall()
    return {
        "tenant": tenant["name"],
        "scopes_shared": [dict(r) for r in given_scopes],
        "scopes_received": [dict(r) for r in received_scopes],
        "blocks_shared": [dict(r) for r in given_blocks],
        "blocks_received": [dict(r) for r in received_blocks],
    }


# --- keys -------------------------------------------------------------------------------------


def check_key_request(
    conn: psycopg.Connection[Any],
    who: Principal | None,
    tenant: dict[str, Any],
    *,
    role: str,
    is_admin: bool,
    home_scope: str,
    allowed_scopes: list[str],
) -> None:
    """Refuse a key the caller may not make, and claim free scopes for the key's tenant: the home
    scope must be the tenant's (or free), each allowed scope the tenant's, free or granted to it.
    ``who`` None is the local operator (``ctx keys create`` on the database)."""
    if role not in ROLES:
        raise ValidationError(f"role must be one of {', '.join(ROLES)}", field="role")
    if is_admin and not tenant["is_root"]:
        raise ValidationError(
            "only keys of the root tenant can be admin keys; give a tenant owner or admin role",
            field="is_admin",
        )
    if who is not None and not who.is_admin:
        who.require_manager(tenant["id"], tenant["name"])
        if is_admin:
            raise Forbidden("only a root admin creates admin keys")
        if role == "owner" and who.tenant_role != "owner":
            raise Forbidden("only an owner creates owner keys")
    for scope in [home_scope, *allowed_scopes]:
        granted = (
            scope != home_scope
            and conn.execute(
                "SELECT 1 FROM context_scope_grants WHERE scope = %s AND tenant_id = %s",
                (scope, tenant["id"]),
            ).fetchone()
        )
        if not granted:
            claim_scope(conn, tenant, scope, detail=who is None or who.is_admin)


def revoke_tenant_key(
    conn: psycopg.Connection[Any], who: Principal, name: str, key_id: str
) -> dict[str, Any]:
    """Revoke a key of tenant ``name`` (by id or display prefix). An owner key goes only by an
    owner or the root admin, an admin-tier key only by the root admin, and the last owner only
    by the root admin, so no tenant administrator can take over or orphan its tenant."""
    tenant = managed_tenant(conn, who, name)
    rows = conn.execute(
        "SELECT id::text AS id, tenant_role, is_admin FROM context_api_keys "
        "WHERE (id::text = %s OR key_prefix = %s) AND revoked_at IS NULL AND tenant_id = %s "
        "LIMIT 2",
        (key_id, key_id, tenant["id"]),
    ).fetchall()
    if not rows:
        raise NotFound(f"no active key {key_id!r} in tenant {name!r}")
    if len(rows) > 1:
        raise ValidationError(f"{key_id!r} matches several keys; give the full id")
    key = rows[0]
    if key["is_admin"] and not who.is_admin:
        raise Forbidden("only a root admin revokes an admin key")
    if key["tenant_role"] == "owner" and not who.is_admin:
        if who.tenant_role != "owner":
            raise Forbidden("only an owner revokes an owner key")
        owners = conn.execute(
            "SELECT count(*) AS n FROM context_api_keys WHERE tenant_id = %s "
            "AND tenant_role = 'owner' AND revoked_at IS NULL",
            (tenant["id"],),
        ).fetchone()
        assert owners is not None
        if owners["n"] <= 1:
            raise Conflict(f"this is the last owner key of tenant {name!r}; make another first")
    conn.execute("UPDATE context_api_keys SET revoked_at = now() WHERE id = %s", (key["id"],))
    return {"id": key["id"], "revoked": True}


def tenant_keys(conn: psycopg.Connection[Any], tenant: dict[str, Any]) -> list[dict[str, Any]]:
    rows = conn.execute(
        "SELECT id::text AS id, name, key_prefix, home_scope, allowed_scopes, tenant_role, "
        "is_admin, created_at, last_used_at FROM context_api_keys "
        "WHERE tenant_id = %s AND revoked_at IS NULL ORDER BY created_at",
        (tenant["id"],),
    ).fetchall()
    return [dict(r) for r in rows]


__all__ = [
    "MANAGER_ROLES",
    "ROOT_TENANT",
    "accept_block",
    "add_scope",
    "check_key_request",
    "claim_scope",
    "create_tenant",
    "delete_tenant",
    "get_tenant",
    "grant_block",
    "grant_scope",
    "list_grants",
    "list_tenants",
    "managed_tenant",
    "revoke_block",
    "revoke_scope",
    "revoke_tenant_key",
    "scope_owner",
    "tenant_keys",
    "tenant_scopes",
]
