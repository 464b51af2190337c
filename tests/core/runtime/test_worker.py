"""Job handlers from plugins: registration, and a worker that runs whatever kinds exist."""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from plugin_kit import host_with, registers

from ctx.core import App, Job, JobHandler, JobOutcome, PluginError, enqueue
from ctx.core.runtime import Worker, claim, drain, job_handlers, requeue


def Handlers(*handlers: Any) -> object:
    return registers("register_job_handlers", *handlers)


def _registry(*plugins: tuple[str, object]) -> dict[str, JobHandler]:
    return job_handlers(host_with(*plugins))


def noop(app: App, jobs: list[Job]) -> None:
    return None


def test_the_core_registers_its_own_kinds() -> None:
    assert sorted(_registry()) == [
        "digest.daily",
        "embed",
        "embed_context",
        "governor.index",
        "graph.overview",
        "guard",
        "rebuild",
        "scope_terms",
        "temporal",
    ]


@pytest.mark.parametrize(
    ("handler", "message"),
    [
        (JobHandler("embed", noop), "job kind 'embed' registered twice: by core.embed and by p"),
        (JobHandler("Bad Kind", noop), "invalid job kind 'Bad Kind'"),
        (JobHandler("ok", noop, batch_size=0), "a batch size of at least 1"),
        (JobHandler("ok", noop, sweep=noop, sweep_every=0), "sweep_every > 0"),
        ("summaries", "must call register(JobHandler(...))"),
    ],
)
def test_bad_registrations_stop_start_up(handler: Any, message: str) -> None:
    with pytest.raises(PluginError) as caught:
        _registry(("p", Handlers(handler)))
    assert message in caught.value.message


class Counter:
    """A job kind of a plugin: counts payload numbers; 'steps' jobs need three visits."""

    def __init__(self) -> None:
        self.seen: list[int] = []
        self.visits: dict[int, int] = {}

    def handle(self, app: App, jobs: list[Job]) -> JobOutcome:
        again = []
        for job in jobs:
            if job.payload.get("fail"):
                raise RuntimeError("poison")
            self.seen.append(int(job.payload["n"]))
            self.visits[job.id] = self.visits.get(job.id, 0) + 1
            if job.payload.get("steps") and self.visits[job.id] < 3:
                again.append(job.id)
        return JobOutcome(requeue=tuple(again))


@pytest.fixture
def counted(database_url: str, tmp_path: Path) -> Iterator[tuple[App, Counter]]:
    counter = Counter()
    app = App(database_url=database_url, home=tmp_path, load_entry_points=False)
    app.host.register(Handlers(JobHandler("example.count", counter.handle, batch_size=2)), "ex")
    app.open()
    try:
        yield app, counter
    finally:
        app.close()


def _jobs(app: App) -> list[dict[str, Any]]:
    with app.connection() as conn:
        return conn.execute(
            "SELECT kind, status, attempts, last_error FROM context_jobs ORDER BY id"
        ).fetchall()


def test_the_worker_runs_a_plugin_kind(counted: tuple[App, Counter]) -> None:
    app, counter = counted
    with app.connection() as conn:
        for n in range(5):
            enqueue(conn, "example.count", {"n": n})
    worker = Worker(app)
    assert "example.count" in worker.handlers
    assert worker.run_once() == 2  # one batch of each kind per round
    while worker.run_once():
        pass
    assert sorted(counter.seen) == [0, 1, 2, 3, 4]
    assert _jobs(app) == []


def test_handed_back_jobs_come_again_without_counting_an_attempt(
    counted: tuple[App, Counter],
) -> None:
    app, counter = counted
    with app.connection() as conn:
        enqueue(conn, "example.count", {"n": 7, "steps": True})
    assert drain(app, "example.count") == 1
    assert _jobs(app) == [
        {"kind": "example.count", "status": "queued", "attempts": 0, "last_error": None}
    ]
    drain(app, "example.count")
    drain(app, "example.count")
    assert counter.seen == [7, 7, 7] and _jobs(app) == []


def test_a_failing_batch_goes_back_with_backoff(counted: tuple[App, Counter]) -> None:
    app, _ = counted
    with app.connection() as conn:
        enqueue(conn, "example.count", {"n": 1, "fail": True})
    Worker(app).run_once()  # logged, not raised: the worker keeps going
    [job] = _jobs(app)
    assert (job["status"], job["attempts"]) == ("queued", 1)
    assert "poison" in job["last_error"]


def test_sweeps_run_when_due_and_after_a_reconnect(database_url: str, tmp_path: Path) -> None:
    calls: list[str] = []

    def sweep(app: App) -> int:
        calls.append("swept")
        with app.connection() as conn:
            enqueue(conn, "example.swept", {"n": len(calls)}, dedupe_key="one")
        return 1

    handler = JobHandler("example.swept", noop, sweep=sweep, sweep_every=3600)
    app = App(database_url=database_url, home=tmp_path, load_entry_points=False)
    app.host.register(Handlers(handler), "ex")
    app.open()
    try:
        worker = Worker(app, {"example.swept": handler})
        assert worker.sweep() == 1 and calls == ["swept"]
        assert worker.sweep() == 0  # not due again for an hour
        worker.run_once()
        assert calls == ["swept"]
        worker.notify("reconnect")  # notifications may have been lost: a backlog pass
        worker.run_once()
        assert calls == ["swept", "swept"]
        assert worker.sweep(force=True) == 1 and len(calls) == 3
    finally:
        app.close()


def test_handed_back_jobs_may_wait(counted: tuple[App, Counter]) -> None:
    app, _ = counted
    with app.connection() as conn:
        enqueue(conn, "example.count", {"n": 1})
        (job,) = claim(conn, "example.count", 5)
        requeue(conn, [job.id], delay_s=30)
        row = conn.execute(
            "SELECT status, run_after > now() + interval '20 seconds' AS later FROM context_jobs"
        ).fetchone()
    assert row == {"status": "queued", "later": True}
    assert drain(app, "example.count") == 0  # not ready yet


def test_a_job_handed_back_while_its_twin_is_queued_gives_way(
    counted: tuple[App, Counter],
) -> None:
    app, _ = counted
    with app.connection() as conn:
        enqueue(conn, "example.count", {"n": 1}, dedupe_key="b1")
        (running,) = claim(conn, "example.count", 5)
        enqueue(conn, "example.count", {"n": 2}, dedupe_key="b1")  # the block changed again
        requeue(conn, [running.id])  # would collide with the queued twin
        rows = conn.execute("SELECT id, status FROM context_jobs ORDER BY id").fetchall()
    assert [r["status"] for r in rows] == ["queued"] and rows[0]["id"] != running.id


def test_the_loops_of_a_worker_run_batches_side_by_side_each_job_once(
    database_url: str, tmp_path: Path
) -> None:
    """``jobs.worker_loops`` loops claim and run batches on their own: the first two batches
    meet inside the handler (each waits, bounded, for the other), so they ran side by side; and
    every job is done once."""
    meet = threading.Barrier(2, timeout=60)
    seen: list[int] = []
    batches = itertools.count()

    def handle(app: App, jobs: list[Job]) -> None:
        if next(batches) < 2:
            meet.wait()  # raises (the batch goes back) if the other loop never comes
        seen.extend(int(j.payload["n"]) for j in jobs)

    handler = JobHandler("example.pair", handle, batch_size=2)
    app = App(database_url=database_url, home=tmp_path, load_entry_points=False)
    app.host.register(Handlers(handler), "ex")
    app.open()
    worker = Worker(app, {"example.pair": handler})
    try:
        assert worker.loops == 2  # the default of jobs.worker_loops
        with app.connection() as conn:
            for n in range(10):
                enqueue(conn, "example.pair", {"n": n})
        worker.start()
        for _ in range(3000):  # bounded: until the queue is empty
            if not _jobs(app):
                break
            time.sleep(0.01)
    finally:
        worker.stop()
        app.close()
    assert not meet.broken
    assert sorted(seen) == list(range(10))
