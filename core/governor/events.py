"""Thread events: appended with their outbox job in one transaction, read back newest first.

An event is the authoritative fact; its record (a block that indexing derives) may come later.
The sequence number comes from the thread row (``last_seq + 1``), so appends to one thread are
serialised and gapless; the job that will index the event commits with it, so a crash after the
commit leaves the work queued, never lost.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from psycopg.types.json import Jsonb

from ctx.core.runtime import enqueue

if TYPE_CHECKING:
    import psycopg

    from ctx.core.governor.schemas import EventIn
    from ctx.core.governor.threads import Thread

INDEX_KIND = "governor.index"


@dataclass(frozen=True)
class Event:
    seq: int
    role: str
    name: str | None
    content: str
    occurred_at: datetime
    sensitivity: str
    record_id: str

    def as_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "role": self.role,
            "name": self.name,
            "content": self.content,
            "occurred_at": self.occurred_at.isoformat(),
            "sensitivity": self.sensitivity,
            "record_id": self.record_id,
        }


@dataclass(frozen=True)
class Appended:
    event: Event
    job_id: int | None


_COLUMNS = "seq, role, name, content, occurred_at, sensitivity, record_id::text AS record_id"


def _event(row: dict[str, Any]) -> Event:
    return Event(
        int(row["seq"]),
        row["role"],
        row["name"],
        row["content"],
        row["occurred_at"],
        row["sensitivity"],
        row["record_id"],
    )


def append_event(
    conn: psycopg.Connection[Any], thread: Thread, event: EventIn, sensitivity: str
) -> Appended:
    """In the caller's transaction: the next sequence number, the event row and its outbox job."""
    seq_row = conn.execute(
        "UPDATE context_threads SET last_seq = last_seq + 1, updated_at = now() "
        "WHERE id = %s RETURNING last_seq",
        (thread.id,),
    ).fetchone()
    assert seq_row is not None
    seq = int(seq_row["last_seq"])
    row = conn.execute(
        f"""
        INSERT INTO context_thread_events
            (thread_id, seq, role, name, content, metadata, sensitivity, occurred_at)
        VALUES (%s, %s, %s, %s, %s, %s, %s, %s)
        RETURNING {_COLUMNS}
        """,
        (
            thread.id,
            seq,
            event.role,
            event.name,
            event.content,
            Jsonb(event.meta),
            sensitivity,
            event.occurred_at or datetime.now(UTC),
        ),
    ).fetchone()
    assert row is not None
    return Appended(_event(row), queue_index(conn, thread.id, seq))


def queue_index(conn: psycopg.Connection[Any], thread_id: int, seq: int) -> int | None:
    """The outbox job that turns event ``seq`` into its record (one queued per event)."""
    return enqueue(
        conn, INDEX_KIND, {"thread_id": thread_id, "seq": seq}, dedupe_key=f"{thread_id}:{seq}"
    )


def recent_events(
    conn: psycopg.Connection[Any], thread_id: int, before_seq: int, limit: int
) -> list[Event]:
    """Up to ``limit`` events before ``before_seq``, newest first."""
    if limit <= 0:
        return []
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM context_thread_events WHERE thread_id = %s AND seq < %s "
        "ORDER BY seq DESC LIMIT %s",
        (thread_id, before_seq, limit),
    ).fetchall()
    return [_event(r) for r in rows]


def events_by_seq(conn: psycopg.Connection[Any], thread_id: int, seqs: list[int]) -> list[Event]:
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM context_thread_events WHERE thread_id = %s AND seq = ANY(%s) "
        "ORDER BY seq",
        (thread_id, seqs),
    ).fetchall()
    return [_event(r) for r in rows]
