"""Settings of the access capability: the server's public address and OAuth client registration."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from ctx.core.runtime import Setting, SettingCheck

SETTINGS = [
    Setting(
        "server.public_url",
        str,
        "",
        "The address clients reach ctxd at (https://ctx.example.com, the root of its host, no "
        "path), for OAuth metadata and redirects behind a proxy; empty: taken from each request.",
    ),
    Setting(
        "oauth.dynamic_registration",
        bool,
        True,
        "Let MCP clients register themselves (RFC 7591, POST /register); off: only clients "
        "added with `ctx mcp add` can sign in.",
    ),
    Setting(
        "oauth.registrations_per_hour",
        int,
        20,
        "Dynamic client registrations allowed per remote address and hour (then HTTP 429).",
        minimum=1,
        maximum=100_000,
    ),
    Setting(
        "web.session_hours",
        float,
        12.0,
        "How long a web workbench sign-in lasts (hours); signing out or revoking the key ends it "
        "sooner.",
        minimum=0.05,
        maximum=24 * 90,
    ),
]


def public_url_problem(get: Callable[[str], Any]) -> str | None:
    url = str(get("server.public_url"))
    if not url:
        return None
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        return (
            "server.public_url must be an http(s) address without query or fragment, "
            "such as https://ctx.example.com"
        )
    if parts.path not in ("", "/"):
        # RFC 8414 puts the metadata of https://host/ctx at https://host/.well-known/…/ctx,
        # outside ctx: clients would never find it.
        return (
            f"server.public_url must not have a path ({parts.path!r}): OAuth discovery needs "
            "/.well-known/ at the root, so serve ctx at the root of its host (its own host "
            "name, such as https://ctx.example.com)"
        )
    return None


PUBLIC_URL_VALID = SettingCheck("server.public_url is an http(s) address", public_url_problem)
