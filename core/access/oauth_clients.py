"""OAuth clients: who may ask for a ctx key over OAuth, and where the answer may be sent.

A client is registered by an operator (``ctx mcp add``) or by the client itself (RFC 7591 dynamic
registration, rate-limited per remote address). Its redirect URIs are checked when registered and
matched exactly at ``/authorize``, so ctx never redirects anywhere a client did not register.
"""

from __future__ import annotations

import hmac
import ipaddress
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

import psycopg
from authlib.oauth2.rfc6749 import InvalidClientError
from authlib.oauth2.rfc7591 import InvalidClientMetadataError, InvalidRedirectURIError

from ctx.core.access.keys import hash_token
from ctx.core.errors import CtxError, NotFound

CLIENT_PREFIX = "ctx_"
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "::1", "localhost"})
#: Token endpoint authentication: none (a public client, PKCE only) or a client secret.
AUTH_METHODS = ("none", "client_secret_post", "client_secret_basic")
MAX_REDIRECT_URIS = 20
MAX_URI_LENGTH = 2000
RATE_LIMITED = "too_many_requests"
#: A DNS label (IDNA A-labels included: ``xn--…`` is letters, digits and hyphens).
_LABEL_RE = re.compile(r"^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$")
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")


def has_control_characters(text: str) -> bool:
    """Whether ``text`` holds a C0 control character or DEL (NUL among them, which PostgreSQL
    refuses to store)."""
    return _CONTROL_RE.search(text) is not None


class OAuthError(CtxError):
    """An OAuth protocol error: ``error`` is the RFC 6749 / RFC 7591 code, ``message`` the
    ``error_description``. Raised from the command line it is a one-line message (exit 2)."""

    code = "oauth_error"

    def __init__(self, error: str, description: str, status: int = 400) -> None:
        super().__init__(description)
        self.error = error
        self.status_code = status


@dataclass(frozen=True)
class OAuthClient:
    client_id: str
    name: str
    redirect_uris: tuple[str, ...]
    public: bool
    registered_by: str
    remote_addr: str | None
    created_at: datetime

    def as_dict(self) -> dict[str, Any]:
        return {
            "client_id": self.client_id,
            "name": self.name,
            "redirect_uris": list(self.redirect_uris),
            "public": self.public,
            "registered_by": self.registered_by,
            "remote_addr": self.remote_addr,
            "created_at": self.created_at,
        }


def _bad_uri(uri: object, why: str) -> OAuthError:
    return OAuthError(InvalidRedirectURIError.error, f"redirect URI {uri!r} {why}")


def _is_host_name(host: str) -> bool:
    labels = host.split(".")
    if not all(_LABEL_RE.match(label) for label in labels) or len(host) > 253:
        return False
    if labels[-1].isdigit():  # browsers read a name ending in a number as an IPv4 address
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            return False
    return True


def _is_host_and_port(netloc: str) -> bool:
    """Whether ``netloc`` is a host name, an IPv4 address or a bracketed IPv6 address, with an
    optional port of digits: nothing a CSP header or a browser could read as more than that."""
    if netloc.startswith("["):
        literal, sep, rest = netloc[1:].partition("]")
        if not sep or "%" in literal or (rest and not rest.startswith(":")):
            return False  # "%": a zone id means nothing to another machine
        try:
            ipaddress.IPv6Address(literal)
        except ValueError:
            return False
        port = rest[1:] if rest else None
    else:
        host, sep, port_text = netloc.partition(":")
        if not _is_host_name(host):
            return False
        port = port_text if sep else None
    return port is None or (port.isascii() and port.isdigit())


def validate_redirect_uri(uri: object) -> str:
    """``uri`` if it may be registered: https, or http on a loopback host; a host name or IP
    address and a port of digits; no fragment, no user info, nothing but printable ASCII.
    Anything else (``javascript:``, ``data:``, custom schemes) is ``invalid_redirect_uri``."""
    if not isinstance(uri, str) or not uri:
        raise _bad_uri(uri, "must be a non-empty string")
    if len(uri) > MAX_URI_LENGTH:
        raise _bad_uri(uri[:60] + "…", f"is longer than {MAX_URI_LENGTH} characters")
    if any(not 0x21 <= ord(c) <= 0x7E or c == "\\" for c in uri):
        raise _bad_uri(uri, "may hold printable ASCII only (no spaces or backslashes)")
    try:
        parts = urlsplit(uri)
    except ValueError:  # a bracketed host that is no IPv6 address
        raise _bad_uri(uri, "has an invalid host or port") from None
    if parts.scheme not in ("http", "https"):
        raise _bad_uri(uri, "must use https (or http on a loopback address)")
    if "#" in uri:
        raise _bad_uri(uri, "must not have a fragment")
    if "@" in parts.netloc:
        raise _bad_uri(uri, "must not carry a user name or password")
    try:
        host, _ = parts.hostname, parts.port
    except ValueError:
        raise _bad_uri(uri, "has an invalid host or port") from None
    if not host:
        raise _bad_uri(uri, "has no host")
    if not _is_host_and_port(parts.netloc):
        raise _bad_uri(
            uri,
            "has an invalid host or port: use a host name (letters, digits, '-', '.'), "
            "an IP address ([…] for IPv6) and a port of digits",
        )
    if parts.scheme == "http" and host not in LOOPBACK_HOSTS:
        raise _bad_uri(uri, "may use http only on 127.0.0.1, ::1 or localhost; use https")
    return uri


def validate_redirect_uris(uris: object) -> list[str]:
    if not isinstance(uris, list | tuple) or not uris:
        raise OAuthError(InvalidRedirectURIError.error, "redirect_uris: give at least one URI")
    if len(uris) > MAX_REDIRECT_URIS:
        raise OAuthError(
            InvalidRedirectURIError.error, f"redirect_uris: at most {MAX_REDIRECT_URIS} URIs"
        )
    return list(dict.fromkeys(validate_redirect_uri(u) for u in uris))


def _validate_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip() or len(name) > 200:
        raise OAuthError(InvalidClientMetadataError.error, "client_name must be 1-200 characters")
    if has_control_characters(name):
        raise OAuthError(InvalidClientMetadataError.error, "client_name must be one line of text")
    return name.strip()


def _client(row: Mapping[str, Any]) -> OAuthClient:
    return OAuthClient(
        client_id=row["client_id"],
        name=row["name"],
        redirect_uris=tuple(row["redirect_uris"]),
        public=row["secret_hash"] is None,
        registered_by=row["registered_by"],
        remote_addr=row["remote_addr"],
        created_at=row["created_at"],
    )


def create_client(
    conn: psycopg.Connection[Any],
    *,
    name: str,
    redirect_uris: Sequence[str],
    public: bool,
    registered_by: str = "cli",
    remote_addr: str | None = None,
) -> tuple[OAuthClient, str | None]:
    """Register a client; returns it and its secret (``None`` for a public client). The secret is
    stored only as a hash: this is the one time it is seen."""
    uris = validate_redirect_uris(list(redirect_uris))
    clean_name = _validate_name(name)
    client_id = CLIENT_PREFIX + secrets.token_urlsafe(16)
    secret = None if public else secrets.token_urlsafe(32)
    row = conn.execute(
        "INSERT INTO context_oauth_clients (client_id, name, redirect_uris, secret_hash, "
        "registered_by, remote_addr) VALUES (%s, %s, %s, %s, %s, %s) RETURNING *",
        (
            client_id,
            clean_name,
            uris,
            None if secret is None else hash_token(secret),
            registered_by,
            remote_addr,
        ),
    ).fetchone()
    assert row is not None
    return _client(row), secret


def _client_row(conn: psycopg.Connection[Any], client_id: object) -> dict[str, Any] | None:
    if not isinstance(client_id, str) or not client_id.startswith(CLIENT_PREFIX):
        return None
    if len(client_id) > 200 or has_control_characters(client_id):
        return None  # no such client, and nothing psycopg may refuse to send
    return conn.execute(
        "SELECT * FROM context_oauth_clients WHERE client_id = %s", (client_id,)
    ).fetchone()


def get_client(conn: psycopg.Connection[Any], client_id: object) -> OAuthClient | None:
    row = _client_row(conn, client_id)
    return None if row is None else _client(row)


def list_clients(conn: psycopg.Connection[Any]) -> list[dict[str, Any]]:
    rows = conn.execute("SELECT * FROM context_oauth_clients ORDER BY created_at").fetchall()
    return [_client(r).as_dict() for r in rows]


def remove_client(conn: psycopg.Connection[Any], client_id: str) -> None:
    """Remove a client with its pending sign-ins and codes; keys it obtained stay valid (revoke
    them with ``ctx keys revoke``)."""
    row = conn.execute(
        "DELETE FROM context_oauth_clients WHERE client_id = %s RETURNING client_id", (client_id,)
    ).fetchone()
    if row is None:
        raise NotFound(f"no OAuth client {client_id!r}; see `ctx mcp list`")


def authenticate_client(
    conn: psycopg.Connection[Any], client_id: object, secret: str | None
) -> OAuthClient:
    """The client calling the token endpoint: a public one by its id, a confidential one by its
    id and secret. Every failure is the same ``invalid_client``."""
    refused = OAuthError(InvalidClientError.error, "unknown client or wrong client secret", 401)
    row = _client_row(conn, client_id)
    if row is None:
        raise refused
    stored = row["secret_hash"]
    if stored is None:
        if secret:
            raise refused  # a public client has no secret to send
    elif not secret or not hmac.compare_digest(stored, hash_token(secret)):
        raise refused
    return _client(row)


def register_dynamic(
    conn: psycopg.Connection[Any],
    metadata: object,
    *,
    remote_addr: str,
    per_hour: int,
) -> dict[str, Any]:
    """RFC 7591 dynamic registration: validate the client's metadata, apply the per-address rate
    limit and return the registration response (with the secret, once, for a confidential one).

    The server registers what it supports: grant type ``authorization_code`` and response type
    ``code``; a client that also asks for ``refresh_token`` is registered without it (the token is
    the API key, which does not expire)."""
    if not isinstance(metadata, dict):
        raise OAuthError(InvalidClientMetadataError.error, "send the metadata as a JSON object")
    method = metadata.get("token_endpoint_auth_method", "client_secret_basic")
    if method not in AUTH_METHODS:
        raise OAuthError(
            InvalidClientMetadataError.error,
            f"token_endpoint_auth_method must be one of {', '.join(AUTH_METHODS)}",
        )
    grants = metadata.get("grant_types", ["authorization_code"])
    if not isinstance(grants, list) or "authorization_code" not in grants:
        raise OAuthError(
            InvalidClientMetadataError.error, "grant_types must include authorization_code"
        )
    responses = metadata.get("response_types", ["code"])
    if not isinstance(responses, list) or "code" not in responses:
        raise OAuthError(InvalidClientMetadataError.error, "response_types must include code")
    uris = validate_redirect_uris(metadata.get("redirect_uris"))
    name = _validate_name(metadata.get("client_name") or "unnamed MCP client")
    # One registration at a time per address, so replicas cannot both pass the count.
    conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 7591))", (remote_addr,))
    recent = conn.execute(
        "SELECT count(*) AS n FROM context_oauth_clients WHERE registered_by = 'dynamic' "
        "AND remote_addr = %s AND created_at > now() - interval '1 hour'",
        (remote_addr,),
    ).fetchone()
    if recent is not None and recent["n"] >= per_hour:
        raise OAuthError(
            RATE_LIMITED,
            f"at most {per_hour} client registrations per hour from one address; try later",
            429,
        )
    client, secret = create_client(
        conn,
        name=name,
        redirect_uris=uris,
        public=method == "none",
        registered_by="dynamic",
        remote_addr=remote_addr,
    )
    response: dict[str, Any] = {
        "client_id": client.client_id,
        "client_id_issued_at": int(client.created_at.timestamp()),
        "client_name": client.name,
        "redirect_uris": list(client.redirect_uris),
        "grant_types": ["authorization_code"],
        "response_types": ["code"],
        "token_endpoint_auth_method": method,
    }
    if secret is not None:
        response["client_secret"] = secret
        response["client_secret_expires_at"] = 0  # never
    return response
