"""OAuth 2.1 for remote MCP clients: the authorization code flow with PKCE, where the access
token IS the user's ctx API key.

The flow: ``/authorize`` checks the request (``check_authorization_request``) and shows a form
with a single-use form token (``open_form``); the user types their API key; the post
(``submit_form``) trades the form token and a valid key for a single-use code valid for five
minutes; ``/token`` redeems the code with the PKCE verifier (``redeem_code``) and answers the key.

Everything is in PostgreSQL, so any replica can finish what another began. Codes and form tokens
are stored as SHA-256; the key a code stands for is sealed with AES-GCM under a key derived from
the code (HKDF-SHA256), so a database reader without the code learns nothing. There is no refresh
token: the key does not expire (it is revoked instead).
"""

from __future__ import annotations

import hmac
import os
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

import psycopg
from authlib.oauth2.rfc6749 import (
    InvalidGrantError,
    InvalidRequestError,
    UnsupportedResponseTypeError,
)
from authlib.oauth2.rfc7636 import create_s256_code_challenge
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from ctx.core.access.keys import authenticate, hash_token
from ctx.core.access.oauth_clients import AUTH_METHODS, OAuthClient, OAuthError, get_client
from ctx.core.errors import Unauthorized

CODE_TTL_SECONDS = 300
FORM_TTL_SECONDS = 600
#: RFC 7636 section 4.1: 43-128 unreserved characters (the challenge has the same alphabet).
PKCE_RE = re.compile(r"^[A-Za-z0-9._~-]{43,128}$")
MAX_STATE = 2000
_HKDF_INFO = b"ctx oauth code v1"
_FORM_GONE = "this sign-in form has expired or was already used; start again from your client"


class AuthorizeError(OAuthError):
    """An error of a well-formed request of a client the operator added: sent back to its
    redirect URI with the unchanged ``state`` (RFC 6749 section 4.1.2.1). Errors before the
    redirect URI is known to be registered, and every error of a client that registered itself,
    are plain ``OAuthError``s, shown to the user and never redirected."""

    def __init__(self, error: str, description: str, redirect_uri: str, state: str | None) -> None:
        super().__init__(error, description)
        self.redirect_uri = redirect_uri
        self.state = state


@dataclass(frozen=True)
class AuthorizationRequest:
    client: OAuthClient
    redirect_uri: str
    state: str | None
    code_challenge: str


@dataclass(frozen=True)
class SignIn:
    """The outcome of a form post: a ``code`` when the key was accepted, otherwise a fresh
    ``retry_token`` to show the form again with."""

    request: AuthorizationRequest
    code: str | None = None
    retry_token: str | None = None


# -- discovery ------------------------------------------------------------------------------------


def authorization_server_metadata(issuer: str, *, registration: bool) -> dict[str, Any]:
    """RFC 8414 metadata. No ``refresh_token`` grant (the token does not expire), no scopes."""
    metadata: dict[str, Any] = {
        "issuer": issuer,
        "authorization_endpoint": f"{issuer}/authorize",
        "token_endpoint": f"{issuer}/token",
        "response_types_supported": ["code"],
        "response_modes_supported": ["query"],
        "grant_types_supported": ["authorization_code"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": list(AUTH_METHODS),
        "authorization_response_iss_parameter_supported": True,
    }
    if registration:
        metadata["registration_endpoint"] = f"{issuer}/register"
    return metadata


def protected_resource_metadata(issuer: str, resource: str) -> dict[str, Any]:
    """RFC 9728 metadata of ``resource`` (the MCP endpoint), protected by this server."""
    return {
        "resource": resource,
        "authorization_servers": [issuer],
        "bearer_methods_supported": ["header"],
        "resource_name": "ctx",
    }


# -- /authorize -----------------------------------------------------------------------------------


def unique_params(params: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Request parameters (a query or a form body) as a dict. A parameter given twice is refused
    (RFC 6749 section 3.1), and so is a NUL character, which PostgreSQL cannot store."""
    values: dict[str, str] = {}
    for name, value in params:
        if name in values:
            raise OAuthError(InvalidRequestError.error, f"parameter {name} is given twice")
        if "\x00" in value:
            raise OAuthError(InvalidRequestError.error, f"parameter {name} holds a NUL character")
        values[name] = value
    return values


def check_authorization_request(
    conn: psycopg.Connection[Any], params: Iterable[tuple[str, str]]
) -> AuthorizationRequest:
    """The request behind ``GET /authorize``. An unknown client or a redirect URI it did not
    register raises ``OAuthError`` (show it; never redirect); anything else wrong raises
    ``AuthorizeError`` (send it to the redirect URI) for a client from ``ctx mcp add``, and
    ``OAuthError`` for one that registered itself: anyone may register any https redirect URI,
    so redirecting before the user acted would make ``/authorize`` an open redirector
    (RFC 9700 section 4.11.2)."""
    query = unique_params(params)
    client = get_client(conn, query.get("client_id"))
    if client is None:
        raise OAuthError("invalid_client", "unknown client_id; register the client first")
    redirect_uri = query.get("redirect_uri")
    if redirect_uri is None and len(client.redirect_uris) == 1:
        redirect_uri = client.redirect_uris[0]
    if redirect_uri is None or redirect_uri not in client.redirect_uris:
        raise OAuthError(
            InvalidRequestError.error, "redirect_uri is missing or not registered for this client"
        )
    state = query.get("state")

    def refuse(error: str, description: str) -> OAuthError:
        if client.registered_by == "dynamic":
            return OAuthError(error, description)
        return AuthorizeError(error, description, redirect_uri, state)

    if query.get("response_type") != "code":
        raise refuse(UnsupportedResponseTypeError.error, "response_type must be code")
    if state is not None and len(state) > MAX_STATE:
        raise refuse(InvalidRequestError.error, f"state is longer than {MAX_STATE} characters")
    challenge = query.get("code_challenge")
    if not challenge:
        raise refuse(InvalidRequestError.error, "code_challenge is required (PKCE with S256)")
    if query.get("code_challenge_method") != "S256":
        raise refuse(InvalidRequestError.error, "code_challenge_method must be S256")
    if not PKCE_RE.match(challenge):
        raise refuse(InvalidRequestError.error, "code_challenge is not a valid S256 challenge")
    return AuthorizationRequest(client, redirect_uri, state, challenge)


def open_form(conn: psycopg.Connection[Any], request: AuthorizationRequest) -> str:
    """Store the request behind a new single-use form token and return the token."""
    conn.execute("DELETE FROM context_oauth_requests WHERE expires_at < now()")
    token = secrets.token_urlsafe(32)
    conn.execute(
        "INSERT INTO context_oauth_requests (token_hash, client_id, redirect_uri, state, "
        "code_challenge, expires_at) VALUES (%s, %s, %s, %s, %s, now() + %s * interval '1 second')",
        (
            hash_token(token),
            request.client.client_id,
            request.redirect_uri,
            request.state,
            request.code_challenge,
            FORM_TTL_SECONDS,
        ),
    )
    return token


def _take_form(conn: psycopg.Connection[Any], token: object) -> AuthorizationRequest:
    if not isinstance(token, str) or not token or len(token) > 200:
        raise OAuthError(InvalidRequestError.error, _FORM_GONE)
    row = conn.execute(
        "DELETE FROM context_oauth_requests WHERE token_hash = %s "
        "RETURNING client_id, redirect_uri, state, code_challenge, expires_at > now() AS fresh",
        (hash_token(token),),
    ).fetchone()
    client = get_client(conn, row["client_id"]) if row else None
    if row is None or not row["fresh"] or client is None:
        raise OAuthError(InvalidRequestError.error, _FORM_GONE)
    return AuthorizationRequest(client, row["redirect_uri"], row["state"], row["code_challenge"])


def cancel_form(conn: psycopg.Connection[Any], token: object) -> AuthorizationRequest:
    """The user declined: spend the form token; the caller redirects with ``access_denied``."""
    return _take_form(conn, token)


def submit_form(conn: psycopg.Connection[Any], token: object, api_key: object) -> SignIn:
    """The form post: spend the form token, check the key, and issue a code for it; a refused
    key yields a fresh form token instead. A spent or unknown form token raises ``OAuthError``."""
    request = _take_form(conn, token)
    key = api_key.strip() if isinstance(api_key, str) else ""
    try:
        authenticate(conn, key)
    except Unauthorized:
        return SignIn(request, retry_token=open_form(conn, request))
    return SignIn(request, code=_issue_code(conn, request, key))


def _aad(client_id: str, redirect_uri: str) -> bytes:
    return f"{client_id}\n{redirect_uri}".encode()


def _code_cipher(code: str) -> AESGCM:
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=_HKDF_INFO).derive(
        code.encode("utf-8")
    )
    return AESGCM(key)


def seal(code: str, secret: str, aad: bytes) -> bytes:
    """``secret`` encrypted under a key only ``code`` yields: nonce || ciphertext || tag."""
    nonce = os.urandom(12)
    return nonce + _code_cipher(code).encrypt(nonce, secret.encode("utf-8"), aad)


def unseal(code: str, sealed: bytes, aad: bytes) -> str:
    return _code_cipher(code).decrypt(sealed[:12], sealed[12:], aad).decode("utf-8")


def _issue_code(conn: psycopg.Connection[Any], request: AuthorizationRequest, key: str) -> str:
    conn.execute("DELETE FROM context_oauth_codes WHERE expires_at < now()")
    code = secrets.token_urlsafe(32)
    client_id = request.client.client_id
    conn.execute(
        "INSERT INTO context_oauth_codes (code_hash, client_id, redirect_uri, code_challenge, "
        "sealed_key, expires_at) VALUES (%s, %s, %s, %s, %s, now() + %s * interval '1 second')",
        (
            hash_token(code),
            client_id,
            request.redirect_uri,
            request.code_challenge,
            seal(code, key, _aad(client_id, request.redirect_uri)),
            CODE_TTL_SECONDS,
        ),
    )
    return code


def redirect_location(redirect_uri: str, params: dict[str, str | None]) -> str:
    """The registered ``redirect_uri`` with ``params`` added to its query (``None`` left out)."""
    parts = urlsplit(redirect_uri)
    added = urlencode({k: v for k, v in params.items() if v is not None})
    query = f"{parts.query}&{added}" if parts.query else added
    return urlunsplit((parts.scheme, parts.netloc, parts.path, query, ""))


# -- /token ---------------------------------------------------------------------------------------


def redeem_code(
    conn: psycopg.Connection[Any],
    *,
    client: OAuthClient,
    code: object,
    redirect_uri: object,
    code_verifier: object,
) -> str:
    """Trade a code for the API key it stands for. The code is spent by the first attempt,
    right or wrong: the deletion is committed before the checks, so no guess gets a second try.
    Unknown, spent or expired codes, another client's code, a different redirect URI, a wrong
    verifier and a key revoked meanwhile are all ``invalid_grant``."""
    if not isinstance(code, str) or not code or len(code) > 200:
        raise OAuthError(InvalidRequestError.error, "code is required")
    if not isinstance(code_verifier, str) or not code_verifier:
        raise OAuthError(InvalidRequestError.error, "code_verifier is required (PKCE)")
    if not PKCE_RE.match(code_verifier):
        raise OAuthError(InvalidRequestError.error, "code_verifier must be 43-128 characters")
    row = conn.execute(
        "DELETE FROM context_oauth_codes WHERE code_hash = %s "
        "RETURNING client_id, redirect_uri, code_challenge, sealed_key, expires_at > now() AS fresh",
        (hash_token(code),),
    ).fetchone()
    conn.commit()  # spent, whatever follows

    def refuse(description: str) -> OAuthError:
        return OAuthError(InvalidGrantError.error, description)

    if row is None:
        raise refuse("the code is unknown or was already used")
    if not row["fresh"]:
        raise refuse("the code has expired; codes are valid for five minutes")
    if row["client_id"] != client.client_id:
        raise refuse("the code was issued to another client")
    if redirect_uri is None and client.redirect_uris == (row["redirect_uri"],):
        redirect_uri = row["redirect_uri"]
    if redirect_uri != row["redirect_uri"]:
        raise refuse("redirect_uri does not match the one used at /authorize")
    expected = create_s256_code_challenge(code_verifier)
    if not hmac.compare_digest(expected, row["code_challenge"]):
        raise refuse("code_verifier does not match the code_challenge")
    try:
        key = unseal(code, bytes(row["sealed_key"]), _aad(client.client_id, row["redirect_uri"]))
    except (InvalidTag, UnicodeDecodeError):
        raise refuse("the code is unknown or was already used") from None
    try:
        authenticate(conn, key)
    except Unauthorized:
        raise refuse("the API key behind this code was revoked") from None
    return key
