"""Claims are leases: a dead worker's jobs are taken back at once, a live worker's only once stale."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import openai_server
import psycopg
import pytest
from psycopg.rows import dict_row

from ctx.core import App, Principal, StoreRequest, embed, store_block
from ctx.core.runtime import Lease, claim, enqueue, fail, finish, requeue
from ctx.core.runtime.lease import LEASE_CLASS

pytestmark = pytest.mark.slow  # scheduled first (tests/conftest.py)

ALPHA = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")


def _jobs(url: str) -> list[dict[str, Any]]:
    with psycopg.connect(url, row_factory=dict_row) as conn:
        return conn.execute(
            "SELECT id, kind, status, locked_by, attempts FROM context_jobs ORDER BY id"
        ).fetchall()


def test_a_live_lease_keeps_its_jobs_and_a_dead_one_frees_them(database_url: str) -> None:
    first, second = Lease(database_url), Lease(database_url)
    try:
        with psycopg.connect(database_url, autocommit=True, row_factory=dict_row) as conn:
            for n in range(3):
                enqueue(conn, "embed", {"n": n})
            mine = claim(conn, "embed", 2, first.id())
            assert [j["locked_by"] for j in _jobs(database_url)][:2] == [first.id()] * 2
            # Another worker gets only the one nobody holds.
            theirs = claim(conn, "embed", 10, second.id())
            assert len(mine) == 2 and len(theirs) == 1
            assert claim(conn, "embed", 10, second.id()) == []
            _dead(conn, first)  # the process died: its session, and so its lock, is gone
            again = claim(conn, "embed", 10, second.id())
            assert {j.id for j in again} == {j.id for j in mine}
            assert all(j.attempts == 2 for j in again)  # the lost attempt still counts
    finally:
        first.close()
        second.close()


def _dead(conn: psycopg.Connection[Any], lease: Lease) -> None:
    """Close ``lease`` as a crash would, and wait until its session is gone: PostgreSQL frees a
    closed connection's locks when its backend exits, a moment after the client hangs up (longer
    on a busy machine), and only then is the lease dead for the next claim."""
    lease_id = lease.id()
    lease.close()
    deadline = time.monotonic() + 30
    while conn.execute(
        "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND classid = %s::oid "
        "AND objid = %s::oid",
        (LEASE_CLASS, lease_id),
    ).fetchone():
        assert time.monotonic() < deadline, "a closed lease's lock outlived its session"
        time.sleep(0.02)


def test_a_lost_lease_connection_comes_back_with_the_same_id(database_url: str) -> None:
    lease = Lease(database_url)
    try:
        before = lease.id()
        with psycopg.connect(database_url, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' "
                "AND classid = %s::oid AND objid = %s::oid",
                (LEASE_CLASS, before),
            )
        assert lease.id() == before
    finally:
        lease.close()


# -- kill -9 of a real worker process ---------------------------------------------------------


@pytest.fixture
def stalling() -> Iterator[Any]:
    with openai_server.OpenAIServer(native_dimensions=32) as server:
        yield server


def _worker(database_url: str, tmp_path: Any) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CTX_")}
    env.update(
        {"CTX_DATABASE_URL": database_url, "CTX_HOME": str(tmp_path), "CTX_LOAD_PLUGINS": ""}
    )
    return subprocess.Popen(
        [sys.executable, "-m", "ctx.ui.cli", "worker"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def _wait(what: str, done: Any, seconds: float) -> float:
    started = time.monotonic()
    while not done():
        if time.monotonic() - started > seconds:
            raise AssertionError(f"{what} did not happen within {seconds} s")
        time.sleep(0.2)
    return time.monotonic() - started


def test_jobs_of_a_killed_worker_finish_right_after_restart(
    app: App, database_url: str, stalling: Any, tmp_path: Any
) -> None:
    with app.connection() as conn:
        conn.execute("UPDATE context_embedding_generations SET status = 'retired'")
    options = {"base_url": stalling.base_url, "model": "m", "dimensions": 16}
    embed.create_generation(app, "openai", options, active=True)
    ids = [
        str(store_block(app, ALPHA, StoreRequest(title=f"B{i}", content="text"))["id"])
        for i in range(3)
    ]
    stalling.reset("hang")
    worker = _worker(database_url, tmp_path)
    try:
        _wait(
            "the worker claiming the embed jobs",
            lambda: (
                [j["status"] for j in _jobs(database_url) if j["kind"] == "embed"]
                == ["running"] * 3
            ),
            60,
        )
    finally:
        worker.send_signal(signal.SIGKILL)
        worker.wait(timeout=30)
    stalling.reset("ok")
    assert {j["status"] for j in _jobs(database_url) if j["kind"] == "embed"} == {"running"}

    restarted = _worker(database_url, tmp_path)
    try:
        took = _wait(
            "the restarted worker finishing the orphaned jobs",
            lambda: not [j for j in _jobs(database_url) if j["kind"] == "embed"],
            60,
        )
    finally:
        restarted.send_signal(signal.SIGTERM)
        restarted.wait(timeout=30)
    print(f"orphaned jobs finished {took:.1f} s after the restart")
    assert took < 60
    with app.connection() as conn:
        rows = conn.execute("SELECT block_id::text AS id FROM context_block_embeddings").fetchall()
    assert {r["id"] for r in rows} >= set(ids)


def test_a_query_completes_orphaned_jobs_once(app: App, database_url: str, stalling: Any) -> None:
    """Inline embedding claims a dead worker's jobs and finishes them: no re-embedding on every
    query for fifteen minutes."""
    with app.connection() as conn:
        conn.execute("UPDATE context_embedding_generations SET status = 'retired'")
    embed.create_generation(
        app, "openai", {"base_url": stalling.base_url, "model": "m", "dimensions": 16}, active=True
    )
    store_block(app, ALPHA, StoreRequest(title="Orphan", content="text"))
    dead = Lease(database_url)
    with psycopg.connect(database_url, autocommit=True, row_factory=dict_row) as conn:
        assert len(claim(conn, "embed", 10, dead.id())) == 1
        _dead(conn, dead)
    assert embed.embed_pending(app, ["alpha"]) == 1
    assert [j for j in _jobs(database_url) if j["kind"] == "embed"] == []
    calls = len(stalling.requests)
    assert embed.embed_pending(app, ["alpha"]) == 0
    assert len(stalling.requests) == calls  # nothing left to embed again


def test_a_job_that_keeps_killing_its_worker_is_quarantined(database_url: str) -> None:
    """Each death counts an attempt; out of attempts, the job is quarantined, not claimed again."""
    with psycopg.connect(database_url, autocommit=True, row_factory=dict_row) as conn:
        enqueue(conn, "embed", {"n": 1})
        for attempt in range(1, 4):
            dying = Lease(database_url)
            (job,) = claim(conn, "embed", 10, dying.id(), max_attempts=3)
            assert job.attempts == attempt and job.owner == dying.id()
            _dead(conn, dying)  # the worker crashed while running it
        assert claim(conn, "embed", 10, None, max_attempts=3) == []
        row = conn.execute("SELECT status, attempts, last_error FROM context_jobs").fetchone()
    assert row["status"] == "quarantined" and row["attempts"] == 3
    assert "its worker stopped while running it, 3 attempts" in row["last_error"]


def test_a_taken_back_job_says_so_and_its_first_owner_cannot_settle_it(database_url: str) -> None:
    first, second = Lease(database_url), Lease(database_url)
    try:
        with psycopg.connect(database_url, autocommit=True, row_factory=dict_row) as conn:
            enqueue(conn, "embed", {"n": 1})
            (mine,) = claim(conn, "embed", 10, first.id())
            conn.execute("UPDATE context_jobs SET locked_at = now() - interval '16 minutes'")
            (theirs,) = claim(conn, "embed", 10, second.id())  # stale: taken back from a live one
            assert theirs.id == mine.id and theirs.owner == second.id()
            # The first owner's late failure no longer touches a job another worker runs.
            fail(conn, mine.id, "late", max_attempts=1, owner=first.id())
            requeue(conn, [mine.id], owner=first.id())
            row = conn.execute("SELECT status, locked_by, last_error FROM context_jobs").fetchone()
            assert row["status"] == "running" and row["locked_by"] == second.id()
            assert row["last_error"].startswith("taken back")
            fail(conn, theirs.id, "boom", max_attempts=5, owner=second.id())
            row = conn.execute("SELECT status, last_error FROM context_jobs").fetchone()
            assert (row["status"], row["last_error"]) == ("queued", "boom")
    finally:
        first.close()
        second.close()


def test_a_query_finishes_a_live_workers_job_itself(
    app: App, database_url: str, stalling: Any
) -> None:
    """A job a live worker holds is embedded inline and finished, not answered without."""
    with app.connection() as conn:
        conn.execute("UPDATE context_embedding_generations SET status = 'retired'")
    embed.create_generation(
        app, "openai", {"base_url": stalling.base_url, "model": "m", "dimensions": 16}, active=True
    )
    block = store_block(app, ALPHA, StoreRequest(title="Held", content="text"))
    busy = Lease(database_url)
    try:
        with psycopg.connect(database_url, autocommit=True, row_factory=dict_row) as conn:
            (job,) = claim(conn, "embed", 10, busy.id())
        assert embed.embed_pending(app, ["alpha"]) == 1
        assert [j for j in _jobs(database_url) if j["kind"] == "embed"] == []
        with app.connection() as conn:
            row = conn.execute(
                "SELECT count(*) AS n FROM context_block_embeddings WHERE block_id = %s",
                (block["id"],),
            ).fetchone()
        assert row["n"] == 1
        with psycopg.connect(database_url, autocommit=True) as conn:  # the worker's own finish
            finish(conn, [job.id])
    finally:
        busy.close()


def test_a_query_leaves_a_job_out_of_attempts_to_the_worker(
    app: App, database_url: str, stalling: Any
) -> None:
    """The inline path never reclaims a job that already used up its attempts."""
    with app.connection() as conn:
        conn.execute("UPDATE context_embedding_generations SET status = 'retired'")
    embed.create_generation(
        app, "openai", {"base_url": stalling.base_url, "model": "m", "dimensions": 16}, active=True
    )
    store_block(app, ALPHA, StoreRequest(title="Poison", content="text"))
    with psycopg.connect(database_url, autocommit=True, row_factory=dict_row) as conn:
        conn.execute("UPDATE context_jobs SET attempts = 4 WHERE kind = 'embed'")
        dead = Lease(database_url)
        claim(conn, "embed", 10, dead.id(), max_attempts=5)  # its 5th attempt, then it dies
        _dead(conn, dead)
    assert embed.embed_pending(app, ["alpha"]) == 0
    with psycopg.connect(database_url, autocommit=True, row_factory=dict_row) as conn:
        assert claim(conn, "embed", 10, None, max_attempts=5) == []
        row = conn.execute("SELECT status FROM context_jobs WHERE kind = 'embed'").fetchone()
    assert row["status"] == "quarantined"
