"""Protected items: pinned to a thread, always in its envelopes until released."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ctx.core.blocks import resolve_id
from ctx.core.errors import NotFound, ValidationError
from ctx.core.governor.envelope import Pin, when

if TYPE_CHECKING:
    import psycopg

    from ctx.core.access import Principal
    from ctx.core.governor.schemas import PinIn
    from ctx.core.governor.threads import Thread


def add_pins(
    conn: psycopg.Connection[Any], who: Principal, thread: Thread, items: list[PinIn]
) -> list[int]:
    ids = []
    for item in items:
        given = [x for x in (item.seq, item.block_id, item.content) if x is not None]
        if len(given) != 1:
            raise ValidationError("each item needs exactly one of seq, block_id, content")
        block_id = None
        if item.seq is not None:
            found = conn.execute(
                "SELECT 1 FROM context_thread_events WHERE thread_id = %s AND seq = %s",
                (thread.id, item.seq),
            ).fetchone()
            if found is None:
                raise NotFound(f"no event {item.seq} in thread {thread.session_id!r}")
        elif item.block_id is not None:
            block_id = resolve_id(conn, who, item.block_id)  # readable by the caller, or 404
        elif not (item.content or "").strip():
            raise ValidationError("content must not be empty", field="content")
        row = conn.execute(
            "INSERT INTO context_thread_pins (thread_id, seq, block_id, content, label) "
            "VALUES (%s, %s, %s, %s, %s) RETURNING id",
            (thread.id, item.seq, block_id, item.content, item.label),
        ).fetchone()
        assert row is not None
        ids.append(int(row["id"]))
    return ids


def remove_pins(
    conn: psycopg.Connection[Any], thread: Thread, pins: list[int], everything: bool
) -> int:
    if not everything and not pins:
        raise ValidationError("name the pins to release, or all")
    cur = conn.execute(
        "DELETE FROM context_thread_pins WHERE thread_id = %s AND (%s OR id = ANY(%s))",
        (thread.id, everything, pins),
    )
    return cur.rowcount or 0


def load_pins(
    conn: psycopg.Connection[Any], thread: Thread, who: Principal
) -> tuple[list[Pin], list[dict[str, Any]]]:
    """The thread's pins as envelope items, in pinning order, and their listing. A pinned block
    in a scope this key cannot read is left out (and listed as withheld)."""
    rows = conn.execute(
        """
        SELECT p.id, p.seq, p.block_id::text AS block_id, p.label, p.content AS text,
               e.content AS event_text, e.name, e.role, e.occurred_at, e.sensitivity AS event_sens,
               b.title, b.content AS block_text, b.scope, b.sensitivity AS block_sens
          FROM context_thread_pins p
          LEFT JOIN context_thread_events e ON e.thread_id = p.thread_id AND e.seq = p.seq
          LEFT JOIN context_blocks b ON b.id = p.block_id
         WHERE p.thread_id = %s ORDER BY p.id
        """,
        (thread.id,),
    ).fetchall()
    pins, listing = [], []
    for r in rows:
        if r["block_id"] is not None and not who.can_read(r["scope"]):
            listing.append({"id": r["id"], "block_id": r["block_id"], "withheld": True})
            continue
        if r["seq"] is not None:
            text = f"[{when(r['occurred_at'])}] {r['name'] or r['role']}: {r['event_text']}"
            sens = r["event_sens"]
        elif r["block_id"] is not None:
            text, sens = f"{r['title']}: {r['block_text']}", r["block_sens"]
        else:
            text, sens = r["text"], "internal"
        if r["label"]:
            text = f"{r['label']}: {text}"
        pins.append(Pin(int(r["id"]), text, sens))
        listing.append({k: r[k] for k in ("id", "seq", "block_id", "label") if r[k] is not None})
    return pins, listing
