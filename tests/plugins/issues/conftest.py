from __future__ import annotations

from typing import Any

import pytest


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
