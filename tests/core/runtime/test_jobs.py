"""The job queue: dedupe while queued, SKIP LOCKED claims, backoff, quarantine."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import psycopg
import pytest
from psycopg.rows import dict_row

from ctx.core.runtime import jobs

Conn = psycopg.Connection[dict[str, Any]]


@pytest.fixture
def conn(database_url: str) -> Iterator[Conn]:
    with psycopg.connect(database_url, autocommit=True, row_factory=dict_row) as c:
        yield c


def _jobs(conn: Conn) -> list[dict[str, Any]]:
    return conn.execute(
        "SELECT id, kind, dedupe_key, status, attempts, last_error, "
        "run_after - now() AS wait FROM context_jobs ORDER BY id"
    ).fetchall()


def test_enqueue_dedupes_only_while_queued(conn: Conn) -> None:
    jobs.enqueue(conn, "embed", {"block_id": "b1"}, dedupe_key="b1")
    jobs.enqueue(conn, "embed", {"block_id": "b1", "again": True}, dedupe_key="b1")
    jobs.enqueue(conn, "temporal", {"block_id": "b1"}, dedupe_key="b1")
    jobs.enqueue(conn, "embed", {"n": 1})
    jobs.enqueue(conn, "embed", {"n": 1})  # no dedupe key: always a new job
    assert [(j["kind"], j["dedupe_key"]) for j in _jobs(conn)] == [
        ("embed", "b1"),
        ("temporal", "b1"),
        ("embed", None),
        ("embed", None),
    ]
    assert jobs.counts(conn) == {"embed": {"queued": 3}, "temporal": {"queued": 1}}

    claimed = jobs.claim(conn, "embed", 1)
    assert claimed[0].payload == {"block_id": "b1"} and claimed[0].attempts == 1
    jobs.enqueue(conn, "embed", {"block_id": "b1"}, dedupe_key="b1")  # running: queue a fresh one
    assert jobs.counts(conn)["embed"] == {"running": 1, "queued": 3}


def test_concurrent_claims_get_disjoint_jobs(conn: Conn, database_url: str) -> None:
    for n in range(5):
        jobs.enqueue(conn, "embed", {"n": n})
    jobs.enqueue(conn, "temporal", {"n": 99})
    with (
        psycopg.connect(database_url, row_factory=dict_row) as first,
        psycopg.connect(database_url, row_factory=dict_row) as second,
    ):
        mine = jobs.claim(first, "embed", 3)  # transaction stays open: rows stay locked
        theirs = jobs.claim(second, "embed", 3)
        rest = jobs.claim(second, "embed", 3)
        first.commit()
        second.commit()
    mine_ids = {j.id for j in mine}
    theirs_ids = {j.id for j in theirs}
    assert len(mine_ids) == 3 and len(theirs_ids) == 2
    assert mine_ids.isdisjoint(theirs_ids)
    assert rest == []
    assert {j.kind for j in mine + theirs} == {"embed"}
    assert jobs.counts(conn) == {"embed": {"running": 5}, "temporal": {"queued": 1}}

    jobs.finish(conn, sorted(mine_ids))  # done jobs leave the queue
    jobs.finish(conn, [])
    assert {j["id"] for j in _jobs(conn) if j["kind"] == "embed"} == theirs_ids


def test_failures_back_off_then_quarantine(conn: Conn) -> None:
    jobs.enqueue(conn, "embed", {"block_id": "poison"}, dedupe_key="poison")
    for attempt in (1, 2):
        (job,) = jobs.claim(conn, "embed", 10)
        assert job.attempts == attempt
        jobs.fail(conn, job.id, f"boom {attempt}", max_attempts=3)
        (row,) = _jobs(conn)
        assert row["status"] == "queued" and row["last_error"] == f"boom {attempt}"
        backoff = timedelta(seconds=2**attempt)
        assert backoff - timedelta(seconds=1) < row["wait"] <= backoff
        assert jobs.claim(conn, "embed", 10) == []  # not ready before its backoff
        conn.execute("UPDATE context_jobs SET run_after = now()")

    (job,) = jobs.claim(conn, "embed", 10)
    jobs.fail(conn, job.id, "x" * 5000, max_attempts=3)
    (row,) = _jobs(conn)
    assert row["status"] == "quarantined" and row["attempts"] == 3
    assert len(row["last_error"]) == 2000
    conn.execute("UPDATE context_jobs SET run_after = now()")
    assert jobs.claim(conn, "embed", 10) == []  # quarantined jobs never come back on their own
    jobs.enqueue(conn, "embed", {"block_id": "poison"}, dedupe_key="poison")
    assert jobs.counts(conn) == {"embed": {"quarantined": 1, "queued": 1}}


def _queued_with_key(conn: Conn, key: str) -> list[dict[str, Any]]:
    return [j for j in _jobs(conn) if j["dedupe_key"] == key and j["status"] == "queued"]


def test_jobs_of_one_dedupe_key_requeued_together_merge(conn: Conn) -> None:
    """A batch can hold two jobs of one key (a queued one and a stalled running one taken back);
    handed back together they become the one queued job the key allows, not a unique
    violation that loses the batch's settlement."""
    first = jobs.enqueue(conn, "guard", {"block_id": "b1"}, dedupe_key="b1")
    jobs.claim(conn, "guard", 10)  # running...
    second = jobs.enqueue(conn, "guard", {"block_id": "b1"}, dedupe_key="b1")
    conn.execute(
        "UPDATE context_jobs SET locked_at = now() - interval '1 hour' WHERE id = %s", (first,)
    )
    claimed = jobs.claim(conn, "guard", 10)  # ...and stalled: taken back with the queued one
    assert sorted(j.id for j in claimed) == sorted([first, second])

    jobs.requeue(conn, [j.id for j in claimed], delay_s=5)

    (left,) = _jobs(conn)
    assert left["status"] == "queued" and left["dedupe_key"] == "b1" and left["attempts"] == 0


def _wait_for_a_lock(conn: Conn) -> None:
    for _ in range(3000):  # bounded: until a session waits for a row or transaction lock
        row = conn.execute(
            "SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
        ).fetchone()
        if row and row["n"]:
            return
        time.sleep(0.01)
    raise AssertionError("nobody waited for a lock")


@pytest.mark.parametrize("settle", ["requeue", "fail"])
def test_a_job_put_back_while_its_key_is_queued_elsewhere_merges(
    conn: Conn, database_url: str, settle: str
) -> None:
    """A job is put back (handed back, or failed) while another transaction queues the same key:
    the queued job covers the work, so the one put back is dropped, whichever commits first."""
    job = jobs.enqueue(conn, "guard", {"block_id": "b1"}, dedupe_key="b1")
    assert job is not None
    jobs.claim(conn, "guard", 10)
    outcome: list[BaseException | None] = []
    with psycopg.connect(database_url, row_factory=dict_row) as store:
        jobs.enqueue(store, "guard", {"block_id": "b1"}, dedupe_key="b1")  # not committed yet

        def put_back() -> None:
            try:
                with psycopg.connect(database_url, row_factory=dict_row) as worker:
                    if settle == "requeue":
                        jobs.requeue(worker, [job])
                    else:
                        jobs.fail(worker, job, "model down", max_attempts=5)
                outcome.append(None)
            except BaseException as exc:
                outcome.append(exc)

        thread = threading.Thread(target=put_back)
        thread.start()
        _wait_for_a_lock(conn)  # the put-back waits on the store's queued key
        store.commit()
        thread.join(30)
    assert outcome == [None]
    (left,) = _jobs(conn)
    assert left["id"] != job and left["status"] == "queued" and left["dedupe_key"] == "b1"
