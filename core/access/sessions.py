"""Web sessions: an API key signs in once and the browser carries a random session token.

The token never reaches the database: the table keeps its SHA-256. A session lives until it
expires, its key is revoked, or it signs out; each look-up checks all three, so revoking a key
signs its browsers out on their next request.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

import psycopg

from ctx.core.access.keys import KEY_COLUMNS, KEY_TENANT_JOIN, authenticate, principal_of
from ctx.core.access.principals import Principal
from ctx.core.errors import Unauthorized

SESSION_TOKEN_BYTES = 32


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def open_session(
    conn: psycopg.Connection[Any], api_key: str, *, hours: float, user_agent: str = ""
) -> tuple[str, Principal]:
    """Check ``api_key`` and open a session for it: the new token and the principal. Any
    failure is the one 401 a wrong key gets."""
    who = authenticate(conn, api_key)
    token = secrets.token_urlsafe(SESSION_TOKEN_BYTES)
    conn.execute("DELETE FROM context_web_sessions WHERE expires_at < now()")
    conn.execute(
        "INSERT INTO context_web_sessions (token_hash, key_id, expires_at, user_agent) "
        "VALUES (%s, %s, now() + make_interval(secs => %s), %s)",
        (_hash(token), who.key_id, float(hours) * 3600.0, user_agent[:300]),
    )
    return token, who


def session_principal(conn: psycopg.Connection[Any], token: str | None) -> Principal:
    """The principal of a live session, or 401 (unknown, expired, signed out, key revoked)."""
    if not token or len(token) > 200:
        raise Unauthorized("not signed in")
    row = conn.execute(
        f"SELECT {KEY_COLUMNS}, (s.seen_at < now() - interval '1 minute') AS stale "
        "FROM context_web_sessions s JOIN context_api_keys k ON k.id = s.key_id "
        f"{KEY_TENANT_JOIN} "
        "WHERE s.token_hash = %s AND s.expires_at > now() AND k.revoked_at IS NULL",
        (_hash(token),),
    ).fetchone()
    if row is None:
        raise Unauthorized("not signed in, or the session has ended")
    if row["stale"]:  # once a minute is precise enough
        conn.execute(
            "UPDATE context_web_sessions SET seen_at = now() WHERE token_hash = %s",
            (_hash(token),),
        )
        conn.execute("UPDATE context_api_keys SET last_used_at = now() WHERE id = %s", (row["id"],))
    return principal_of(row)


def close_session(conn: psycopg.Connection[Any], token: str | None) -> bool:
    """End a session; False when there was none."""
    if not token or len(token) > 200:
        return False
    cur = conn.execute("DELETE FROM context_web_sessions WHERE token_hash = %s", (_hash(token),))
    return cur.rowcount > 0
