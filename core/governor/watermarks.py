"""Watermarks: per thread, the highest sequence number that reached a stage with no gap before
it. ``recorded`` (the event is stored), ``indexed`` (its record is written: text and date
channels), ``embedded`` (its record's vector is written: the dense channel). Read from the events'
own marks through partial indexes, so they are exact and cheap; nothing caches them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import psycopg


def watermarks(conn: psycopg.Connection[Any], thread_id: int) -> dict[str, int]:
    row = conn.execute(
        """
        SELECT t.last_seq AS recorded,
               coalesce((SELECT min(e.seq) - 1 FROM context_thread_events e
                          WHERE e.thread_id = t.id AND e.indexed_at IS NULL), t.last_seq)
                   AS indexed,
               coalesce((SELECT min(e.seq) - 1 FROM context_thread_events e
                          WHERE e.thread_id = t.id AND e.embedded_at IS NULL), t.last_seq)
                   AS embedded
          FROM context_threads t WHERE t.id = %s
        """,
        (thread_id,),
    ).fetchone()
    if row is None:
        return {"recorded": 0, "indexed": 0, "embedded": 0}
    return {k: int(row[k]) for k in ("recorded", "indexed", "embedded")}


def queue_health(conn: psycopg.Connection[Any], kind: str, thread_id: int) -> dict[str, Any]:
    """The index jobs of this thread and of all threads, by status, and the oldest waiting."""
    rows = conn.execute(
        """
        SELECT status, count(*) AS n,
               count(*) FILTER (WHERE payload @> jsonb_build_object('thread_id', %(t)s)) AS mine,
               extract(epoch FROM now() - min(created_at)) AS oldest_s
          FROM context_jobs WHERE kind = %(kind)s GROUP BY status
        """,
        {"t": thread_id, "kind": kind},
    ).fetchall()
    out: dict[str, Any] = {"thread": {}, "all": {}, "oldest_s": None}
    for r in rows:
        out["all"][r["status"]] = int(r["n"])
        if r["mine"]:
            out["thread"][r["status"]] = int(r["mine"])
        if r["status"] == "queued" and r["oldest_s"] is not None:
            out["oldest_s"] = round(float(r["oldest_s"]), 1)
    return out
