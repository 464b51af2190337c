"""The job queue: dedupe while queued, SKIP LOCKED claims, backoff, quarantine."""

from __future__ import annotations

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
