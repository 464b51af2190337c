"""The workbench's cookies: the signed session cookie, its CSRF token and safe redirect targets.

The session cookie holds a random token and an HMAC of it under a key derived from the server's
seal key, so a forged or altered cookie is refused before any database look-up; the token itself
is checked against ``context_web_sessions`` (ctx.core.access). The CSRF token is a second HMAC of
the session token: it needs no storage, changes with every sign-in and cannot be derived from
the cookie without the server's key.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import weakref

from starlette.requests import Request

from ctx.core import App

SESSION_COOKIE = "ctx_session"
SIGNIN_COOKIE = "ctx_signin"  # double-submit token of the sign-in form (login CSRF)
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"


_KEYS: weakref.WeakKeyDictionary[App, bytes] = weakref.WeakKeyDictionary()


def _key(app: App) -> bytes:
    key = _KEYS.get(app)
    if key is None:  # the seal key is read from disk or the environment: once per App
        key = hmac.new(app.seal_key, b"ctx web workbench v1", hashlib.sha256).digest()
        _KEYS[app] = key
    return key


def _mac(app: App, purpose: str, value: str) -> str:
    digest = hmac.new(_key(app), f"{purpose}:{value}".encode(), hashlib.sha256).digest()
    return digest.hex()[:43]


def sign(app: App, token: str) -> str:
    """The cookie value of a session token."""
    return f"{token}.{_mac(app, 'session', token)}"


def unsign(app: App, value: str | None) -> str | None:
    """The session token of a cookie value, or None when it is missing or altered."""
    if not value or len(value) > 200 or "." not in value:
        return None
    token, mac = value.rsplit(".", 1)
    if not hmac.compare_digest(mac, _mac(app, "session", token)):
        return None
    return token


def csrf_token(app: App, session_token: str) -> str:
    return _mac(app, "csrf", session_token)


def csrf_ok(app: App, session_token: str, sent: str | None) -> bool:
    return bool(sent) and hmac.compare_digest(str(sent), csrf_token(app, session_token))


def new_signin_token() -> str:
    return secrets.token_urlsafe(24)


def secure_request(request: Request) -> bool:
    """Whether cookies should carry ``Secure``: the request came over https (directly, or as
    the public URL says)."""
    if request.url.scheme == "https":
        return True
    app: App = request.app.state.ctx
    return str(app.settings["server.public_url"]).startswith("https://")


def safe_next(target: str | None, default: str = "/") -> str:
    """A redirect target after sign-in: a path on this server, never another origin."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return default
    if "\\" in target or any(ord(c) < 32 for c in target) or len(target) > 2000:
        return default
    return target
