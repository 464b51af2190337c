"""API keys: random tokens shown once and stored as SHA-256, each tied to its scopes.

Every check fails closed; an unknown key and a revoked key are indistinguishable to the caller.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from typing import Any

import psycopg

from ctx.core.access.principals import Freshness, Principal, validate_scope
from ctx.core.access.tenants import check_key_request, get_tenant
from ctx.core.errors import Forbidden, NotFound, Unauthorized, ValidationError

TOKEN_PREFIX = "ctx_"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_from_headers(headers: Mapping[str, str]) -> str | None:
    """The key a request carries: ``X-Context-Key``, or an ``Authorization: Bearer`` token."""
    key = headers.get("x-context-key")
    if key:
        return key.strip()
    scheme, _, value = headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return None


def create_key(
    conn: psycopg.Connection[Any],
    *,
    name: str,
    home_scope: str,
    allowed_scopes: list[str] | None = None,
    is_admin: bool = False,
    tenant: str | None = None,
    role: str | None = None,
    who: Principal | None = None,
) -> tuple[str, str]:
    """Create a key and return ``(id, token)``; the token is never retrievable again.

    The key belongs to ``tenant`` (None: the root) with ``role`` (default: owner for admin keys,
    member otherwise); its scopes must be the tenant's, free (then the tenant claims them) or, for
    allowed scopes, granted to it. ``who`` is the key asking (None: the local operator)."""
    validate_scope(home_scope, "home_scope")
    allowed = [validate_scope(s, "allowed_scopes") for s in (allowed_scopes or [])]
    allowed = [s for s in dict.fromkeys(allowed) if s != home_scope]
    if not name or len(name) > 200:
        raise ValidationError("key name must be 1-200 characters", field="name")
    role = role or ("owner" if is_admin else "member")
    owner = get_tenant(conn, tenant)
    check_key_request(conn, who, owner, role=role, is_admin=is_admin, home_scope=home_scope,
                      allowed_scopes=allowed)  # fmt: skip
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    row = conn.execute(
        "INSERT INTO context_api_keys (name, key_hash, key_prefix, home_scope, allowed_scopes, "
        "is_admin, tenant_id, tenant_role) VALUES (%s, %s, %s, %s, %s, %s, %s, %s) RETURNING id",
        (name, hash_token(token), token[:10], home_scope, allowed, is_admin, owner["id"], role),
    ).fetchone()
    assert row is not None
    return str(row["id"]), token


# What every way in (a key, a web session) reads of the key ``k``: its tenant joined as ``t``,
# its read scopes as the tenant rules resolve them, and what its call must read (``Freshness``:
# the WAL position of its last recorded write, the primary's position now), in the same
# statement, so that read replicas cost authentication no extra round trip.
KEY_COLUMNS = (
    "k.id, k.name, k.home_scope, k.allowed_scopes, k.is_admin, k.tenant_id, k.tenant_role, "
    "t.name AS tenant, t.is_root AS tenant_is_root, ctx_key_read_scopes(k.id) AS read_scopes, "
    "ctx_scope_tenant(k.home_scope) = k.tenant_id AS home_owned, "
    "(SELECT pg_wal_lsn_diff(w.lsn, '0/0')::bigint FROM context_key_lsns w "
    "WHERE w.key_id = k.id) AS key_lsn, "
    "pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::bigint AS primary_lsn"
)
KEY_TENANT_JOIN = "JOIN context_tenants t ON t.id = k.tenant_id"


def authenticate(conn: psycopg.Connection[Any], token: str | None) -> Principal:
    """Return the principal for a token or raise the one 401 every failure shares."""
    if not token or len(token) > 200:
        raise Unauthorized("missing or invalid API key")
    row = conn.execute(
        f"SELECT {KEY_COLUMNS}, "
        "(k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute') AS stale "
        f"FROM context_api_keys k {KEY_TENANT_JOIN} "
        "WHERE k.key_hash = %s AND k.revoked_at IS NULL",
        (hash_token(token),),
    ).fetchone()
    if row is None:
        raise Unauthorized("missing or invalid API key")
    if row["stale"]:
        # Once a minute is precise enough, and keeps a row write off every request.
        conn.execute("UPDATE context_api_keys SET last_used_at = now() WHERE id = %s", (row["id"],))
    return principal_of(row)


def principal_of(row: Mapping[str, Any]) -> Principal:
    """The principal of a key row read with ``KEY_COLUMNS``, for every way in: a key, a web
    session. The operator tier counts only in the root tenant.

    A key whose home scope its tenant no longer owns (a scope moved away under it) is refused
    whole: much of ctx acts on the home scope (writes, chats, digests, numbering), and none of it
    may reach another tenant's scope."""
    read_scopes = tuple(row["read_scopes"] or ())
    if row["home_scope"] not in read_scopes or not row["home_owned"]:
        raise Forbidden(
            f"this key's home scope {row['home_scope']!r} no longer belongs to its tenant "
            f"{row['tenant']!r}; create a new key"
        )
    return Principal(
        key_id=str(row["id"]),
        name=row["name"],
        home_scope=row["home_scope"],
        allowed_scopes=tuple(row["allowed_scopes"] or ()),
        is_admin=bool(row["is_admin"]) and bool(row["tenant_is_root"]),
        read_scopes=read_scopes,
        tenant_id=str(row["tenant_id"]),
        tenant=row["tenant"],
        tenant_role=row["tenant_role"],
        tenant_is_root=bool(row["tenant_is_root"]),
        resolved=True,
        freshness=Freshness(int(row["key_lsn"] or 0), int(row["primary_lsn"])),
    )


def list_keys(conn: psycopg.Connection[Any], include_revoked: bool = False) -> list[dict[str, Any]]:
    where = "" if include_revoked else "WHERE k.revoked_at IS NULL"
    rows = conn.execute(
        "SELECT k.id, k.name, k.key_prefix, k.home_scope, k.allowed_scopes, k.is_admin, "
        "t.name AS tenant, k.tenant_role, k.created_at, k.last_used_at, k.revoked_at "
        f"FROM context_api_keys k {KEY_TENANT_JOIN} {where} ORDER BY k.created_at"
    ).fetchall()
    return [{**r, "id": str(r["id"])} for r in rows]


def revoke_key(conn: psycopg.Connection[Any], key_id: str) -> None:
    """Revoke one active key by id or display prefix; an ambiguous prefix revokes nothing."""
    rows = conn.execute(
        "SELECT id FROM context_api_keys "
        "WHERE (id::text = %s OR key_prefix = %s) AND revoked_at IS NULL LIMIT 2",
        (key_id, key_id),
    ).fetchall()
    if not rows:
        raise NotFound(f"no active key {key_id!r}; see `ctx keys list`")
    if len(rows) > 1:
        raise ValidationError(f"{key_id!r} matches several keys; give the full id")
    conn.execute("UPDATE context_api_keys SET revoked_at = now() WHERE id = %s", (rows[0]["id"],))
