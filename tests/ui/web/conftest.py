"""Fixtures for the workbench's in-process tests: clients signed in with keys of their own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from web_kit import Browser, make_key

from ctx.core import App
from ctx.ui import create_app


@pytest.fixture
def server(app: App) -> Iterator[TestClient]:
    with TestClient(create_app(app), raise_server_exceptions=False) as c:
        yield c


@pytest.fixture
def browser(app: App, server: TestClient) -> Browser:
    """Signed in with a plain key of scope 'team' that also reads 'shared'."""
    b = Browser(server, make_key(app, "team", ["shared"]))
    b.sign_in()
    return b


@pytest.fixture
def admin(app: App) -> Iterator[Browser]:
    """Signed in with an admin key (its own client, so its cookie is its own)."""
    with TestClient(create_app(app), raise_server_exceptions=False) as c:
        b = Browser(c, make_key(app, "ops", admin=True))
        b.sign_in()
        yield b
