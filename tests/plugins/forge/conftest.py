from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import forge_data
import pytest
from github_server import GitHubServer, Repo
from sync_kit import TOKEN, Synced

from ctx.core import App


@pytest.fixture(scope="session")
def github_schemas() -> Any:
    """GitHub's response schemas when npm could install them (else the shapes go unchecked)."""
    return forge_data.openapi_schemas() if forge_data.forge_data() is not None else None


@pytest.fixture
def gh(github_schemas: Any) -> Iterator[GitHubServer]:
    with GitHubServer(token=TOKEN, schemas=github_schemas) as running:
        yield running
        assert running.schema_errors == []


@pytest.fixture
def repo(gh: GitHubServer) -> Repo:
    return gh.add_repo("octo-org", "hello")


@pytest.fixture
def synced(app: App, client: Any, keys: Any, gh: GitHubServer, repo: Repo) -> Synced:
    return Synced(app, client, keys, gh, repo)
