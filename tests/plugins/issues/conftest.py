from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_kit import Browser, make_key

from ctx.ui import create_app


class Issues:
    """REST calls for one key."""

    def __init__(self, client: Any, token: str) -> None:
        self.client = client
        self.headers = {"X-Context-Key": token}

    def create(self, title: str, **fields: Any) -> dict[str, Any]:
        r = self.client.post("/api/issues", json={"title": title, **fields}, headers=self.headers)
        assert r.status_code == 201, r.text
        return dict(r.json())

    def call(self, method: str, path: str, **kwargs: Any) -> Any:
        return self.client.request(method, "/api/issues" + path, headers=self.headers, **kwargs)


@pytest.fixture
def alice(client: Any, keys: Any) -> Issues:
    return Issues(client, keys.make("repo-a"))


@pytest.fixture
def bob(client: Any, keys: Any) -> Issues:
    return Issues(client, keys.make("repo-b"))


@pytest.fixture
def web(app: Any) -> Iterator[Callable[..., Browser]]:
    """Workbench browsers signed in with keys of their own (each with its own client, so its
    cookie is its own): ``web("repo-a")``, ``web("repo-b", ["repo-a"])``."""
    with ExitStack() as stack:

        def sign_in(home: str, allowed: list[str] | None = None) -> Browser:
            client = stack.enter_context(TestClient(create_app(app), raise_server_exceptions=False))
            b = Browser(client, make_key(app, home, allowed))
            b.sign_in()
            return b

        yield sign_in
