"""PostgreSQL faults under a running ``ctxd``: a restart, and a disk that fills up.

One PostgreSQL on 127.0.0.1 and one ``ctx serve`` (tests/support/cluster_kit.py). While the
database restarts, every request answers a JSON 503 ``database_unavailable`` with Retry-After
(MCP, the OpenAI gateway and the web workbench each in their own shape), none a 500 and none
hanging; once it is back, the same process serves writes and queries again, hears a setting
changed in the database (its LISTEN connection came back) and embeds a new block (its job loop
survived). Under a file size limit, a blob that does not fit answers 507 ``storage_full`` and
leaves nothing behind; with the limit gone, writes work again.
"""

from __future__ import annotations

import base64
import hashlib
import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import httpx
import openai_server
import psycopg
import psycopg.errors
import pytest
from cluster_kit import (
    Fleet,
    Process,
    TcpPostgres,
    peer_embedder,
    pg_start,
    pg_stop,
    postgres_bin_or_skip,
    query_rows,
    wait_for,
)
from web_kit import Browser

from ctx.core import App
from ctx.core.errors import DatabaseError
from ctx.core.runtime import retried

pytestmark = pytest.mark.slow  # scheduled first (tests/conftest.py)

CLIENT_TIMEOUT = 20.0  # a request still unanswered after this counts as hanging
FILE_LIMIT = 40 * 1_048_576  # above a 16 MB WAL segment, below what the test stores
BLOB_BYTES = 4 * 1_048_576


@dataclass
class Rig:
    pg: TcpPostgres
    fleet: Fleet
    server: Process


@pytest.fixture(scope="module")
def rig(
    tmp_path_factory: pytest.TempPathFactory, peer: openai_server.OpenAIServer
) -> Iterator[Rig]:
    bin_dir = postgres_bin_or_skip()
    with TcpPostgres(bin_dir) as pg:
        settings = peer_embedder(peer.base_url)
        fleet = Fleet(pg.create_database("ctx"), tmp_path_factory.mktemp("fleet"), settings)
        fleet.init()
        server = fleet.server("a")
        try:
            fleet.wait_ready(server)
            yield Rig(pg, fleet, server)
        finally:
            fleet.stop_all()
            if not (pg.pgdata / "postmaster.pid").exists():
                pg_start(pg)  # a test stopped here: TcpPostgres.stop expects a running cluster


@dataclass(frozen=True)
class Answer:
    action: str
    status: int | None  # None: no answer within CLIENT_TIMEOUT, or the connection failed
    body: Any
    retry_after: str | None
    seconds: float
    block_id: str | None = None


class Traffic:
    """A client storing a block and searching, in a loop, until stopped."""

    def __init__(self, rig: Rig) -> None:
        self.client = rig.fleet.client(rig.server)
        self.client.timeout = httpx.Timeout(CLIENT_TIMEOUT)
        self.answers: list[Answer] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _call(self, action: str, path: str, body: dict[str, Any]) -> Answer:
        started = time.monotonic()
        try:
            reply = self.client.post(path, json=body)
        except httpx.HTTPError as exc:
            return Answer(action, None, repr(exc), None, time.monotonic() - started)
        seconds = time.monotonic() - started
        try:
            data = reply.json()
        except ValueError:
            data = reply.text
        block_id = data.get("id") if action == "store" and reply.status_code == 200 else None
        return Answer(
            action, reply.status_code, data, reply.headers.get("retry-after"), seconds, block_id
        )

    def _run(self) -> None:
        n = 0
        while not self._stop.is_set():
            n += 1
            content = f"Tide table entry {n}: high water at {n % 12 + 1} o'clock."
            body = {"title": f"Tide {n}", "content": content, "category": "tides"}
            self.answers.append(self._call("store", "/api/store", body))
            self.answers.append(self._call("search", "/api/search", {"query": "tide"}))

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2 * CLIENT_TIMEOUT + 5)
        self.client.close()

    def count(self, status: int, since: int = 0) -> int:
        return sum(1 for a in self.answers[since:] if a.status == status)


def _unavailable(reply: httpx.Response) -> bool:
    """A 503 that says the database is unavailable, in the REST API's shape."""
    body = reply.json()
    return bool(
        reply.status_code == 503
        and body["error"] == "database_unavailable"
        and body["message"].startswith("the database is unavailable")
        and reply.headers.get("retry-after") == "5"
    )


def _other_surfaces(rig: Rig, browser: Browser) -> dict[str, httpx.Response]:
    """One request on each other surface and /health, at once (each waits for the pool)."""
    url, key = rig.server.url, rig.fleet.api_key
    auth = {"Authorization": f"Bearer {key}"}
    mcp_call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "search", "arguments": {"query": "tide"}},
    }
    mcp_headers = {**auth, "Accept": "application/json, text/event-stream"}
    calls = {
        "mcp": lambda: httpx.post(
            f"{url}/mcp", json=mcp_call, headers=mcp_headers, timeout=CLIENT_TIMEOUT
        ),
        "gateway": lambda: httpx.get(f"{url}/v1/models", headers=auth, timeout=CLIENT_TIMEOUT),
        "web": lambda: browser.get("/"),
        "health": lambda: httpx.get(f"{url}/health", timeout=CLIENT_TIMEOUT),
    }
    with ThreadPoolExecutor(len(calls)) as pool:
        futures = {name: pool.submit(call) for name, call in calls.items()}
        return {name: future.result() for name, future in futures.items()}


def test_a_restart_answers_503_and_the_server_recovers_by_itself(rig: Rig) -> None:
    url, server = rig.fleet.database_url, rig.server
    pid = server.popen.pid
    browser = Browser(httpx.Client(base_url=server.url, timeout=CLIENT_TIMEOUT), rig.fleet.api_key)
    browser.sign_in()
    traffic = Traffic(rig)
    traffic.start()
    try:
        wait_for("writes before the restart", lambda: traffic.count(200) >= 4, 30)
        stopped = len(traffic.answers)  # every answer before this one came before the stop
        pg_stop(rig.pg)
        during = _other_surfaces(rig, browser)
        wait_for("the client seeing the outage", lambda: traffic.count(503, stopped) >= 2, 30)
        pg_start(rig.pg)
        restarted = len(traffic.answers)

        def stored_again() -> bool:
            return any(a.block_id for a in traffic.answers[restarted:])

        wait_for("a write after the restart", stored_again, 30)
    finally:
        traffic.stop()

    # The other surfaces, each in its own shape: never a 500.
    assert during["mcp"].status_code == 503
    assert during["mcp"].json()["error"] == "database_unavailable"
    gateway = during["gateway"]
    assert gateway.status_code == 503, gateway.text
    assert gateway.json()["error"]["message"].startswith("the database is unavailable")
    web = during["web"]
    assert web.status_code == 503 and "text/html" in web.headers["content-type"]
    assert "the database is unavailable" in web.text
    assert during["health"].status_code == 503

    # The client: answers only 200 or a clear 503, none hanging or lost.
    answers = traffic.answers
    assert all(a.status in (200, 503) for a in answers), [
        (a.action, a.status, a.body) for a in answers if a.status not in (200, 503)
    ]
    refused = [a for a in answers if a.status == 503]
    assert refused and all(
        a.body["error"] == "database_unavailable"
        and a.body["message"].startswith("the database is unavailable")
        and a.retry_after == "5"
        for a in refused
    ), refused
    assert all(a.status == 200 for a in answers[:stopped])
    print(
        f"{len(answers)} answers, {len(refused)} of them 503; slowest 503 "
        f"{max(a.seconds for a in refused):.1f} s, slowest answer "
        f"{max(a.seconds for a in answers):.1f} s"
    )
    acknowledged = [a.block_id for a in answers if a.block_id]
    kept = query_rows(
        url, "SELECT count(*) FROM context_blocks WHERE id = ANY(%s::uuid[])", acknowledged
    )
    assert kept == [(len(acknowledged),)]  # every write answered 200 is in the database

    with rig.fleet.client(server) as client:
        # Writes and queries work again, in the same process.
        stored = client.post(
            "/api/store",
            json={"title": "Breakwater", "content": "The breakwater was rebuilt.", "category": "x"},
        )
        assert stored.status_code == 200, stored.text
        block_id = stored.json()["id"]
        found = client.post("/api/search", json={"query": "breakwater"})
        assert [hit["id"] for hit in found.json()["results"]] == [block_id]

        # The job loop survived: the new block gets its embedding.
        def embedded() -> bool:
            rows = query_rows(
                url,
                "SELECT count(*) FROM context_block_embeddings WHERE block_id = %s::uuid",
                block_id,
            )
            return rows == [(1,)]

        wait_for("the block stored after the restart being embedded", embedded, 30)

        # The listener is back: a setting changed in the database reaches the server.
        def listening() -> bool:
            rows = query_rows(
                url,
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE application_name = %s AND query ILIKE 'LISTEN%%'",
                server.name,
            )
            return bool(rows[0][0])

        wait_for("the server's LISTEN connection coming back", listening, 30)
        query_rows(
            url,
            "INSERT INTO context_settings (key, value) VALUES ('embed.context_weight', '0.0') "
            "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value RETURNING key",
        )

        def sees_it() -> bool:
            row = client.get("/api/settings/embed.context_weight").json()
            return bool(row["value"] == 0.0 and row["source"] == "database")

        wait_for("the server seeing the setting changed in the database", sees_it, 30)
    assert server.popen.poll() is None and server.popen.pid == pid  # never restarted


def _blob(client: httpx.Client, title: str, data: bytes) -> httpx.Response:
    body = {"category": "fill", "title": title, "data": base64.b64encode(data).decode()}
    return client.post("/api/blob/store", json=body)


def test_a_full_disk_refuses_the_write_whole_and_writes_resume_with_space(rig: Rig) -> None:
    url = rig.fleet.database_url
    pg_stop(rig.pg)
    pg_start(rig.pg, file_size_limit=FILE_LIMIT)
    stored: dict[str, str] = {}  # title -> sha256 of every blob answered 200
    with rig.fleet.client(rig.server) as client:
        # Fill until a write is refused (more than the limit, so one must be).
        refused = None
        for n in range(FILE_LIMIT // BLOB_BYTES + 4):
            data = os.urandom(BLOB_BYTES)  # incompressible, so it takes its size on disk
            reply = _blob(client, f"fill {n}", data)
            if reply.status_code != 200:
                refused = (f"fill {n}", reply)
                break
            stored[f"fill {n}"] = hashlib.sha256(data).hexdigest()
        assert refused is not None, "the file size limit never stopped a write"
        title, reply = refused
        assert reply.status_code == 507, reply.text
        body = reply.json()
        assert body["error"] == "storage_full" and "out of disk space" in body["message"]
        assert body["request_id"]
        print(f"{len(stored)} blobs of {BLOB_BYTES} bytes stored, then: {body['message']}")
        assert len(stored) >= 2

        # Nothing half-written: no row for the refused blob, every chunk belongs to a blob and
        # every stored blob has all its bytes.
        assert query_rows(url, "SELECT count(*) FROM context_blobs WHERE title = %s", title) == [
            (0,)
        ]
        assert query_rows(
            url,
            "SELECT count(*) FROM context_blob_chunks c "
            "WHERE NOT EXISTS (SELECT 1 FROM context_blobs b WHERE b.id = c.blob_id)",
        ) == [(0,)]
        rows = query_rows(
            url,
            "SELECT b.title, b.sha256, b.size = sum(octet_length(c.data)) "
            "FROM context_blobs b JOIN context_blob_chunks c ON c.blob_id = b.id "
            "WHERE b.category = 'fill' GROUP BY b.id",
        )
        assert {r[0]: r[1] for r in rows} == stored and all(r[2] for r in rows)
        first = client.post("/api/blob/fetch", json={"category": "fill", "title": "fill 0"})
        assert first.status_code == 200
        data = base64.b64decode(first.json()["data"])
        assert hashlib.sha256(data).hexdigest() == stored["fill 0"]

        # Space returns (the limit goes, with a restart): the same write succeeds.
        pg_stop(rig.pg)
        pg_start(rig.pg)
        again = _blob(client, title, os.urandom(BLOB_BYTES))
        assert again.status_code == 200, again.text
        assert query_rows(url, "SELECT count(*) FROM context_blobs WHERE title = %s", title) == [
            (1,)
        ]


def test_a_lost_session_is_unavailable_and_the_pool_replaces_it(app: App) -> None:
    """A session ended under the caller (57P01, as in a restart) is a 503 with Retry-After; the
    next checkout gets a working connection."""
    with pytest.raises(DatabaseError) as caught, app.connection() as conn:
        conn.execute("SELECT pg_terminate_backend(pg_backend_pid())")
    assert caught.value.status_code == 503 and caught.value.retry_after == 5
    assert caught.value.message.startswith("the database is unavailable")
    with app.connection() as conn:
        assert conn.execute("SELECT 1 AS one").fetchone() == {"one": 1}


def test_a_statement_error_is_the_callers_not_an_outage(app: App) -> None:
    """A cancelled statement is an OperationalError too, and a duplicate key an IntegrityError:
    both reach the caller unchanged, and the connection stays usable."""
    with pytest.raises(psycopg.errors.QueryCanceled), app.connection() as conn:
        conn.execute("SET LOCAL statement_timeout = 1")
        conn.execute("SELECT pg_sleep(1)")
    with pytest.raises(psycopg.errors.UniqueViolation), app.connection() as conn:
        conn.execute("CREATE TEMP TABLE once (n int PRIMARY KEY)")
        conn.execute("INSERT INTO once VALUES (1), (1)")
    with app.connection() as conn:
        assert conn.execute("SELECT 2 AS two").fetchone() == {"two": 2}


def test_a_transaction_rolled_back_for_a_deadlock_runs_again(app: App) -> None:
    """Two transactions that lock the same two rows in opposite orders: PostgreSQL breaks the
    deadlock by rolling one back; ``retried`` runs that one again and both get through."""
    with app.connection() as conn:
        conn.execute("CREATE TABLE deadlock_probe (id int PRIMARY KEY, n int NOT NULL)")
        conn.execute("INSERT INTO deadlock_probe VALUES (1, 0), (2, 0)")
    both_hold_one = threading.Barrier(2, timeout=30)
    runs: list[tuple[int, ...]] = []

    def bump(order: tuple[int, ...]) -> None:
        runs.append(order)
        with app.connection() as conn:
            for i, row in enumerate(order):
                conn.execute("UPDATE deadlock_probe SET n = n + 1 WHERE id = %s", (row,))
                if i == 0 and len(runs) <= 2:  # only the first runs meet at the barrier
                    both_hold_one.wait()

    with ThreadPoolExecutor(2) as pool:
        done = [pool.submit(retried, lambda o=order: bump(o)) for order in ((1, 2), (2, 1))]
        for future in done:
            future.result(timeout=60)
    assert len(runs) == 3  # one of the two ran again
    with app.connection() as conn:
        rows = conn.execute("SELECT id, n FROM deadlock_probe ORDER BY id").fetchall()
    assert rows == [{"id": 1, "n": 2}, {"id": 2, "n": 2}]


def test_other_errors_are_not_run_again(app: App) -> None:
    runs: list[int] = []

    def broken() -> None:
        runs.append(1)
        with app.connection() as conn:
            conn.execute("SELECT 1/0")

    with pytest.raises(psycopg.errors.DivisionByZero):
        retried(broken)
    assert runs == [1]
