"""API keys: random tokens shown once and stored as SHA-256, each tied to its scopes.

Every check fails closed; an unknown key and a revoked key are indistinguishable to the caller.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from typing import Any

import psycopg

from ctx.core.access.principals import Principal, validate_scope
from ctx.core.errors import NotFound, Unauthorized, ValidationError

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
) -> tuple[str, str]:
    """Create a key and return ``(id, token)``; the token is never retrievable again."""
    validate_scope(home_scope, "home_scope")
    allowed = [validate_scope(s, "allowed_scopes") for s in (allowed_scopes or [])]
    allowed = [s for s in dict.fromkeys(allowed) if s != home_scope]
    if not name or len(name) > 200:
        raise ValidationError("key name must be 1-200 characters", field="name")
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    row = conn.execute(
        "INSERT INTO context_api_keys (name, key_hash, key_prefix, home_scope, allowed_scopes, "
        "is_admin) VALUES (%s, %s, %s, %s, %s, %s) RETURNING id",
        (name, hash_token(token), token[:10], home_scope, allowed, is_admin),
    ).fetchone()
    assert row is not None
    return str(row["id"]), token


def authenticate(conn: psycopg.Connection[Any], token: str | None) -> Principal:
    """Return the principal for a token or raise the one 401 every failure shares."""
    if not token or len(token) > 200:
        raise Unauthorized("missing or invalid API key")
    row = conn.execute(
        "SELECT id, name, home_scope, allowed_scopes, is_admin, "
        "(last_used_at IS NULL OR last_used_at < now() - interval '1 minute') AS stale "
        "FROM context_api_keys WHERE key_hash = %s AND revoked_at IS NULL",
        (hash_token(token),),
    ).fetchone()
    if row is None:
        raise Unauthorized("missing or invalid API key")
    if row["stale"]:
        # Once a minute is precise enough, and keeps a row write off every request.
        conn.execute("UPDATE context_api_keys SET last_used_at = now() WHERE id = %s", (row["id"],))
    return principal_of(row)


def principal_of(row: Mapping[str, Any]) -> Principal:
    """The principal of a ``context_api_keys`` row (id, name, home_scope, allowed_scopes,
    is_admin), for every way in: a key, a web session."""
    return Principal(
        key_id=str(row["id"]),
        name=row["name"],
        home_scope=row["home_scope"],
        allowed_scopes=tuple(row["allowed_scopes"] or ()),
        is_admin=bool(row["is_admin"]),
    )


def list_keys(conn: psycopg.Connection[Any], include_revoked: bool = False) -> list[dict[str, Any]]:
    where = "" if include_revoked else "WHERE revoked_at IS NULL"
    rows = conn.execute(
        "SELECT id, name, key_prefix, home_scope, allowed_scopes, is_admin, created_at, "
        f"last_used_at, revoked_at FROM context_api_keys {where} ORDER BY created_at"
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
