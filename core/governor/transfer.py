"""Governed threads in an export: each thread (its sequence counter, reading desk and last
envelope), its events in order and its pins. The threads' records are blocks and travel with the
other blocks; an import writes them as they were (``origin="import"``), then the events they
derive from. An event whose record did not arrive is indexed again by the governor's job.

A pin of a block outside the exported scopes is left out (its block is not in the file). The
events' ``embedded_at`` is not carried: vectors are rebuilt by the importing store, and the
indexer's sweep marks the events once their records have one."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any, Literal

from psycopg.types.json import Jsonb
from pydantic import Field

from ctx.core.blocks import (
    UUID_PATTERN,
    ExportContext,
    RestoreContext,
    TransferLine,
    TransferRecord,
    TransferSection,
    outcome_of,
    skipped,
)
from ctx.core.errors import ValidationError
from ctx.core.governor.events import queue_index
from ctx.core.governor.threads import category_for, find_thread
from ctx.core.runtime import iso_times

Sensitivity = Literal["public", "internal", "personal", "credentials"]


class ThreadLine(TransferLine):
    type: Literal["thread"]
    scope: str
    session_id: str = Field(min_length=1, max_length=200)
    category: str
    last_seq: int = Field(ge=0)
    desk: list[Any] = Field(default_factory=list)
    last_envelope: dict[str, Any] | None = None
    created_at: datetime
    updated_at: datetime


class EventLine(TransferLine):
    type: Literal["thread_event"]
    scope: str
    session_id: str
    seq: int = Field(ge=1)
    role: Literal["system", "user", "assistant", "tool"]
    name: str | None = None
    content: str
    metadata: dict[str, Any] = Field(default_factory=dict)
    sensitivity: Sensitivity = "internal"
    occurred_at: datetime
    created_at: datetime
    record_id: str = Field(pattern=UUID_PATTERN)
    indexed_at: datetime | None = None

    def ref(self) -> str:
        return f"{self.session_id}#{self.seq}"


class PinLine(TransferLine):
    type: Literal["thread_pin"]
    scope: str
    session_id: str
    seq: int | None = Field(default=None, ge=1)
    block_id: str | None = Field(default=None, pattern=UUID_PATTERN)
    content: str | None = None
    label: str | None = None
    created_at: datetime

    def ref(self) -> str:
        return f"{self.session_id} pin"


THREAD = ("last_seq", "desk", "last_envelope", "created_at", "updated_at")
EVENT = ("role", "name", "content", "metadata", "sensitivity", "occurred_at", "created_at",
         "record_id", "indexed_at")  # fmt: skip
_EVENT_COLUMNS = ", ".join(k if k != "record_id" else "record_id::text AS record_id" for k in EVENT)
PIN = ("seq", "block_id", "content", "label", "created_at")

# The desk names the blocks of the last envelope; those outside the exported scopes stay here.
_THREADS = """
SELECT t.scope, t.session_id, t.category, t.last_seq,
       (SELECT coalesce(jsonb_agg(d.id ORDER BY d.n), '[]'::jsonb)
          FROM jsonb_array_elements(t.desk) WITH ORDINALITY AS d(id, n)
          JOIN context_blocks b ON b.id::text = d.id #>> '{}' AND b.scope = ANY(%(scopes)s))
           AS desk,
       t.last_envelope, t.created_at, t.updated_at
  FROM context_threads t WHERE t.scope = ANY(%(scopes)s) ORDER BY t.scope, t.created_at, t.id
"""
_EVENTS = """
SELECT t.scope, t.session_id, e.seq, e.role, e.name, e.content, e.metadata, e.sensitivity,
       e.occurred_at, e.created_at, e.record_id::text AS record_id, e.indexed_at
  FROM context_thread_events e JOIN context_threads t ON t.id = e.thread_id
 WHERE t.scope = ANY(%(scopes)s) ORDER BY t.scope, t.created_at, t.id, e.seq
"""
_PINS = """
SELECT t.scope, t.session_id, p.seq, p.block_id::text AS block_id, p.content, p.label,
       p.created_at
  FROM context_thread_pins p JOIN context_threads t ON t.id = p.thread_id
 WHERE t.scope = ANY(%(scopes)s)
   AND (p.block_id IS NULL OR EXISTS (SELECT 1 FROM context_blocks b
                                       WHERE b.id = p.block_id AND b.scope = ANY(%(scopes)s)))
 ORDER BY t.scope, t.created_at, t.id, p.id
"""


def _line(kind: str, row: dict[str, Any]) -> dict[str, Any]:
    return {"type": kind, **iso_times(row)}


def export_threads(reader: ExportContext) -> Iterator[dict[str, Any]]:
    for row in reader.rows(_THREADS):
        yield _line("thread", row)
    for row in reader.rows(_EVENTS):
        yield _line("thread_event", row)
    for row in reader.rows(_PINS):
        yield _line("thread_pin", row)


def restore_thread(restore: RestoreContext, line: ThreadLine) -> str:
    if line.category != category_for(line.session_id):
        raise ValidationError(
            f"thread {line.session_id!r}: category must be {category_for(line.session_id)!r}"
        )
    here = restore.conn.execute(
        f"SELECT {', '.join(THREAD)} FROM context_threads WHERE scope = %s AND session_id = %s "
        "FOR UPDATE",
        (line.scope, line.session_id),
    ).fetchone()
    there = {k: getattr(line, k) for k in THREAD}
    outcome = outcome_of(None if here is None else dict(here), there)
    if outcome != "unchanged":
        restore.conn.execute(
            f"""
            INSERT INTO context_threads (scope, session_id, category, {", ".join(THREAD)})
            VALUES (%(scope)s, %(session_id)s, %(category)s, %(last_seq)s, %(desk)s,
                    %(last_envelope)s, %(created_at)s, %(updated_at)s)
            ON CONFLICT (scope, session_id) DO UPDATE SET
                last_seq = greatest(context_threads.last_seq, EXCLUDED.last_seq),
                desk = EXCLUDED.desk, last_envelope = EXCLUDED.last_envelope,
                created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at
            """,
            {**line.model_dump(), "desk": Jsonb(line.desk),
             "last_envelope": None if line.last_envelope is None else Jsonb(line.last_envelope)},
        )  # fmt: skip
    return outcome


def restore_event(restore: RestoreContext, line: EventLine) -> str:
    conn = restore.conn
    thread = find_thread(conn, line.scope, line.session_id)
    if thread is None:
        return skipped(f"thread {line.session_id!r} is not here")
    here = conn.execute(
        f"SELECT {_EVENT_COLUMNS} FROM context_thread_events WHERE thread_id = %s AND seq = %s",
        (thread.id, line.seq),
    ).fetchone()
    there = {k: getattr(line, k) for k in EVENT}
    if here is not None:
        if here["record_id"] != line.record_id or here["content"] != line.content:
            return skipped(f"thread {line.session_id!r} has another event #{line.seq} here")
        return outcome_of(dict(here), there)
    taken = conn.execute(
        "SELECT 1 FROM context_thread_events WHERE record_id = %s", (line.record_id,)
    ).fetchone()
    if taken is not None:
        return skipped(f"record {line.record_id} belongs to another event here")
    record = conn.execute("SELECT 1 FROM context_blocks WHERE id = %s", (line.record_id,))
    indexed_at = line.indexed_at if record.fetchone() is not None else None
    conn.execute(
        f"""
        INSERT INTO context_thread_events (thread_id, seq, {", ".join(EVENT)})
        VALUES (%(thread_id)s, %(seq)s, {", ".join(f"%({k})s" for k in EVENT)})
        """,
        {**there, "thread_id": thread.id, "seq": line.seq, "metadata": Jsonb(line.metadata),
         "indexed_at": indexed_at},
    )  # fmt: skip
    conn.execute(
        "UPDATE context_threads SET last_seq = greatest(last_seq, %s) WHERE id = %s",
        (line.seq, thread.id),
    )
    if indexed_at is None:
        queue_index(conn, thread.id, line.seq)
    return "created"


def restore_pin(restore: RestoreContext, line: PinLine) -> str:
    conn = restore.conn
    if sum(x is not None for x in (line.seq, line.block_id, line.content)) != 1:
        raise ValidationError("a thread_pin names exactly one of seq, block_id, content")
    thread = find_thread(conn, line.scope, line.session_id)
    if thread is None:
        return skipped(f"thread {line.session_id!r} is not here")
    if line.block_id is not None and restore.block_exists(line.block_id) is None:
        return skipped(f"block {line.block_id} is not here")
    there = {k: getattr(line, k) for k in PIN}
    same = conn.execute(
        "SELECT 1 FROM context_thread_pins WHERE thread_id = %(thread)s "
        "AND seq IS NOT DISTINCT FROM %(seq)s AND block_id IS NOT DISTINCT FROM %(block_id)s "
        "AND content IS NOT DISTINCT FROM %(content)s AND label IS NOT DISTINCT FROM %(label)s",
        {**there, "thread": thread.id},
    ).fetchone()
    if same is not None:
        return "unchanged"
    conn.execute(
        "INSERT INTO context_thread_pins (thread_id, seq, block_id, content, label, created_at) "
        "VALUES (%(thread)s, %(seq)s, %(block_id)s, %(content)s, %(label)s, %(created_at)s)",
        {**there, "thread": thread.id},
    )
    return "created"


THREADS_SECTION = TransferSection(
    "governor",
    (
        TransferRecord("thread", ThreadLine, restore_thread),
        TransferRecord("thread_event", EventLine, restore_event),
        TransferRecord("thread_pin", PinLine, restore_pin),
    ),
    export_threads,
    tables=("context_threads", "context_thread_events", "context_thread_pins"),
)
