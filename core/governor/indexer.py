"""Indexing: each event becomes a record (a block of the private ``event`` type in the thread's
category), then gets its vector.

Work reaches the indexer two ways. The outbox: ``governor.index`` jobs, committed with their
events, claimed with SKIP LOCKED by any worker of any process. The work ring: a bounded queue in
this process through which ``prepare``/``commit`` hand the new job ids straight to the indexer
threads. A full ring drops the hint, never the work: the job is in the outbox.

Two steps per batch, each one transaction: (1) the records are written (text channels) with
their dates extracted (date channel): ``indexed_at``; (2) their vectors and context blends are
written (dense channel): ``embedded_at``. When step 2 fails (the embedder is down) the records
stay findable by text and the embed jobs their store queued do the vectors later; the sweep marks
``embedded_at`` once the vectors exist.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from typing import TYPE_CHECKING, Any, cast

from ctx.core.access import Principal
from ctx.core.blocks import StoreRequest, insert_derived, notify_written
from ctx.core.embed import active_generation, embed_blocks
from ctx.core.errors import error_text
from ctx.core.governor.events import INDEX_KIND
from ctx.core.runtime import Job, JobHandler, claim_matching, retried, run_batch, run_kind
from ctx.core.temporal import extract_block, relative_parser

if TYPE_CHECKING:
    from collections.abc import Callable

    import psycopg

    from ctx.core.app import App

log = logging.getLogger("ctx.governor")
RECORD_TYPE = "event"
SWEEP_EVERY = 30.0


def governor_principal(scope: str) -> Principal:
    """Who writes records: ctx itself, in the thread's scope only (no key: audit rows carry
    none)."""
    return Principal(key_id=cast(str, None), name="ctx governor", home_scope=scope)


def record_title(row: dict[str, Any]) -> str:
    """``Caroline, 8 May 2023 (#3)``: who and when, as a person scanning sources wants it; the
    sequence number keeps the natural key unique."""
    speaker = row["name"] or row["role"]
    when = row["occurred_at"]
    return f"{speaker}, {when.day} {when:%B %Y} (#{row['seq']})"


def record_request(row: dict[str, Any]) -> StoreRequest:
    meta = {
        "thread": row["session_id"],
        "seq": row["seq"],
        "role": row["role"],
        "visibility": "thread",
    }
    if row["name"]:
        meta["name"] = row["name"]
    return StoreRequest.model_validate(
        {
            "title": record_title(row),
            "content": row["content"],
            "category": row["category"],
            "scope": row["scope"],
            "block_type": RECORD_TYPE,
            "sensitivity": row["sensitivity"],
            "occurred_at": row["occurred_at"],
            "metadata": meta,
        }
    )


def _pending(conn: psycopg.Connection[Any], pairs: list[tuple[int, int]]) -> list[dict[str, Any]]:
    return conn.execute(
        """
        SELECT e.thread_id, e.seq, e.role, e.name, e.content, e.sensitivity, e.occurred_at,
               e.record_id::text AS record_id, e.indexed_at, e.embedded_at,
               t.scope, t.category, t.session_id
          FROM context_thread_events e JOIN context_threads t ON t.id = e.thread_id
          JOIN unnest(%s::bigint[], %s::bigint[]) AS p(thread_id, seq)
            ON p.thread_id = e.thread_id AND p.seq = e.seq
         WHERE e.indexed_at IS NULL OR e.embedded_at IS NULL
         ORDER BY e.thread_id, e.seq
        """,
        ([p[0] for p in pairs], [p[1] for p in pairs]),
    ).fetchall()


def _drop_jobs(conn: psycopg.Connection[Any], kind: str, block_ids: list[str]) -> None:
    """The queued jobs a record's store asked for that this indexer did itself."""
    conn.execute(
        "DELETE FROM context_jobs WHERE kind = %s AND status = 'queued' AND dedupe_key = ANY(%s)",
        (kind, block_ids),
    )


def write_records(app: App, rows: list[dict[str, Any]]) -> list[str]:
    """Step 1: the records of events that have none, with their dates; ``indexed_at``."""
    todo = [r for r in rows if r["indexed_at"] is None]
    if not todo:
        return []
    written: list[dict[str, Any]] = []
    parser = relative_parser(app)
    with app.connection() as conn:
        for row in todo:
            block = insert_derived(
                app,
                conn,
                governor_principal(row["scope"]),
                record_request(row),
                row["record_id"],
                origin="governor",
            )
            if block is not None:
                written.append(block)
            extract_block(conn, row["record_id"], parser)
        ids = [r["record_id"] for r in todo]
        _drop_jobs(conn, "temporal", ids)
        conn.execute(
            "UPDATE context_thread_events SET indexed_at = now() WHERE record_id = ANY(%s)",
            (ids,),
        )
        _notify_threads(conn, {r["thread_id"] for r in todo})
    notify_written(app, written)
    return [r["record_id"] for r in todo]


def embed_records(app: App, record_ids: list[str], threads: set[int]) -> int:
    """Step 2: vectors and context blends of the records; ``embedded_at``. A transaction the
    server rolled back to break a deadlock runs again; anything else fails open."""
    if not record_ids:
        return 0

    def embed() -> int:
        with app.connection() as conn:
            if active_generation(conn) is None:
                return 0
            embed_blocks(app, conn, record_ids)
            _drop_jobs(conn, "embed", record_ids)
            n = mark_embedded(conn, record_ids)
            _notify_threads(conn, threads)
            return n

    try:
        return retried(embed)
    except Exception as exc:
        log.warning(
            "embedding %d thread records failed (%s); they are found by text until the embed "
            "jobs catch up",
            len(record_ids),
            error_text(exc, str),
        )
        return 0


def mark_embedded(conn: psycopg.Connection[Any], record_ids: list[str] | None = None) -> int:
    """``embedded_at`` for events whose record has a vector in the active generation (all such
    events with ``record_ids`` None: the sweep). The rows are locked in key order, so two
    markers never wait for each other; the sweep skips rows an indexer is marking right now."""
    skip = " SKIP LOCKED" if record_ids is None else ""
    cur = conn.execute(
        f"""
        UPDATE context_thread_events e SET embedded_at = now()
          FROM (SELECT d.thread_id, d.seq FROM context_thread_events d
                  JOIN context_block_embeddings v ON v.block_id = d.record_id
                  JOIN context_embedding_generations g
                    ON g.id = v.generation AND g.status = 'active'
                 WHERE d.embedded_at IS NULL AND d.indexed_at IS NOT NULL
                   AND (%(ids)s::uuid[] IS NULL OR d.record_id = ANY(%(ids)s::uuid[]))
                 ORDER BY d.thread_id, d.seq
                 FOR UPDATE OF d{skip}) due
         WHERE e.thread_id = due.thread_id AND e.seq = due.seq
        """,
        {"ids": record_ids},
    )
    return cur.rowcount or 0


def _notify_threads(conn: psycopg.Connection[Any], threads: set[int]) -> None:
    for thread_id in threads:
        conn.execute("SELECT pg_notify('ctx_governor', %s)", (str(thread_id),))


def handle_index_jobs(app: App, jobs: list[Job]) -> None:
    pairs = [(int(j.payload["thread_id"]), int(j.payload["seq"])) for j in jobs]
    with app.connection() as conn:
        rows = _pending(conn, pairs)
    if not rows:
        return
    write_records(app, rows)
    todo = [r["record_id"] for r in rows if r["embedded_at"] is None]
    embed_records(app, todo, {r["thread_id"] for r in rows})
    app.governor.indexed()


def sweep_embedded(app: App) -> int:
    """Events whose vectors the generic embed jobs wrote: mark them; queue nothing."""
    with app.connection() as conn:
        n = mark_embedded(conn)
    if n:
        app.governor.indexed()
    return 0


INDEX_HANDLER = JobHandler(
    INDEX_KIND,
    handle_index_jobs,
    batch_size=32,
    description="Turn governed thread events into records and embed them.",
    sweep=sweep_embedded,
    sweep_every=SWEEP_EVERY,
)


class WorkRing:
    """A bounded hand-over of job ids to this process's indexer threads. ``offer`` never blocks:
    when full it refuses (and counts it); the outbox still holds the work."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._ids: deque[int] = deque()
        self._cond = threading.Condition()
        self.offered = 0
        self.dropped = 0

    def offer(self, job_id: int | None) -> bool:
        if job_id is None:
            return False
        with self._cond:
            self.offered += 1
            if len(self._ids) >= self.capacity:
                self.dropped += 1
                return False
            self._ids.append(job_id)
            self._cond.notify()
            return True

    def take(self, limit: int, timeout: float) -> list[int]:
        with self._cond:
            if not self._ids:
                self._cond.wait(timeout)
            out: list[int] = []
            while self._ids and len(out) < limit:
                out.append(self._ids.popleft())
            return out

    def wake(self) -> None:
        with self._cond:
            self._cond.notify_all()

    def stats(self) -> dict[str, int]:
        with self._cond:
            return {
                "capacity": self.capacity,
                "queued": len(self._ids),
                "offered": self.offered,
                "dropped": self.dropped,
            }


def run_ids(app: App, ids: list[int]) -> int:
    """Claim the named index jobs (those another worker holds are skipped) and run them."""
    with app.connection() as conn:
        claimed = claim_matching(
            conn,
            INDEX_KIND,
            len(ids),
            app.lease.id(),
            ids=ids,
            max_attempts=int(app.settings["jobs.max_attempts"]),
        )
    return run_batch(app, INDEX_HANDLER, claimed)


def run_thread(app: App, thread_id: int, limit: int = 256) -> int:
    """Claim and run the queued index jobs of one thread now (strict prepare, flush)."""
    with app.connection() as conn:
        claimed = claim_matching(
            conn,
            INDEX_KIND,
            limit,
            app.lease.id(),
            payload={"thread_id": thread_id},
            max_attempts=int(app.settings["jobs.max_attempts"]),
        )
    return run_batch(app, INDEX_HANDLER, claimed)


class Indexer:
    """Threads that take job ids from the work ring; between hints they drain the outbox."""

    def __init__(self, app: App, ring: WorkRing, threads: int, idle_s: float = 1.0) -> None:
        self.app = app
        self.ring = ring
        self.count = threads
        self.idle_s = idle_s
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        for i in range(self.count):
            t = threading.Thread(target=self._loop, name=f"ctx-governor-{i}", daemon=True)
            t.start()
            self._threads.append(t)

    def stop(self) -> None:
        self._stop.set()
        self.ring.wake()
        for t in self._threads:
            t.join(timeout=30)
        self._threads.clear()

    def _step(self, work: Callable[[], int]) -> int:
        try:
            return work()
        except Exception as exc:  # the jobs went back with backoff; keep serving
            log.warning("governor indexing failed: %s", error_text(exc, str))
            return 0

    def _loop(self) -> None:
        batch = int(self.app.settings["governor.index_batch"])
        while not self._stop.is_set():
            ids = self.ring.take(batch, self.idle_s)
            if self._stop.is_set():
                return
            if ids:
                self._step(lambda ids=ids: run_ids(self.app, ids))  # type: ignore[misc]
            else:  # no hint: whatever the outbox holds (dropped hints, other processes' events)
                self._step(lambda: run_kind(self.app, INDEX_HANDLER, batch))
