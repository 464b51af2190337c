"""A remote MCP client that knows only the server's URL: the official SDK's OAuth client starts
at the 401 of ``/mcp``, discovers the protected-resource and authorization-server metadata,
registers itself, sends the user to the sign-in form, exchanges the code with PKCE and then calls
tools with the token — the way claude.ai and Claude Code connect."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any
from urllib.parse import parse_qs, urljoin, urlsplit

import httpx
import httpx2
from live import live_server
from mcp import Client
from mcp.client.auth import AuthorizationCodeResult, OAuthClientProvider
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

from ctx.core import App

REDIRECT = "http://127.0.0.1:33419/callback"


class MemoryStorage:
    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client: OAuthClientInformationFull | None = None

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client = client_info


class User:
    """The person at the browser: opens the authorization URL, types the key, and hands the
    code the server redirects with back to the client (as a loopback callback would)."""

    def __init__(self, api_key: str) -> None:
        self.api_key = api_key
        self.callback: dict[str, str] = {}
        self.seen_form = ""

    async def open(self, authorization_url: str) -> None:
        def sign_in() -> None:
            with httpx.Client() as browser:
                page = browser.get(authorization_url)
                assert page.status_code == 200, page.text
                self.seen_form = page.text
                fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', page.text))
                action = re.search(r'<form method="post" action="([^"]+)"', page.text)
                assert action is not None
                answer = browser.post(
                    urljoin(authorization_url, action.group(1).replace("&amp;", "&")),
                    data={**fields, "api_key": self.api_key, "decision": "allow"},
                )
                assert answer.status_code == 303, answer.text
                location = answer.headers["location"]
                assert location.startswith(REDIRECT)
                self.callback = {k: v[0] for k, v in parse_qs(urlsplit(location).query).items()}

        await asyncio.to_thread(sign_in)

    async def come_back(self) -> AuthorizationCodeResult:
        return AuthorizationCodeResult(
            code=self.callback["code"],
            state=self.callback.get("state"),
            iss=self.callback.get("iss"),  # RFC 9207: the client checks who answered
        )


def test_the_sdk_client_connects_with_oauth_from_nothing_but_the_url(app: App, keys: Any) -> None:
    api_key = keys.make("alpha")
    user = User(api_key)
    storage = MemoryStorage()

    async def go(url: str) -> tuple[set[str], dict[str, Any]]:
        auth = OAuthClientProvider(
            server_url=url + "/mcp",
            client_metadata=OAuthClientMetadata(
                client_name="SDK test client",
                redirect_uris=[REDIRECT],  # type: ignore[list-item]
                grant_types=["authorization_code", "refresh_token"],
                response_types=["code"],
                token_endpoint_auth_method="none",
            ),
            storage=storage,
            redirect_handler=user.open,
            callback_handler=user.come_back,
        )
        async with httpx2.AsyncClient(auth=auth, timeout=60) as http:
            transport = streamable_http_client(url + "/mcp", http_client=http)
            async with Client(transport) as client:  # type: ignore[arg-type]
                names = {t.name for t in (await client.list_tools()).tools}
                stored = await client.call_tool(
                    "store", {"title": "OAuth works", "content": "connected via the SDK"}
                )
                return names, json.loads(stored.content[0].text)

    with live_server(app) as url:
        names, stored = asyncio.run(go(url))
    assert {"query", "store", "search"} <= names
    assert stored["action"] == "created" and stored["scope"] == "alpha"  # the key's identity
    assert storage.client is not None and str(storage.client.client_id).startswith("ctx_")
    assert storage.tokens is not None and storage.tokens.access_token == api_key
    assert "SDK test client" in user.seen_form  # the user saw who asks for access
