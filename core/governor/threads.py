"""Threads: ``(collection, session_id)``, where the collection is a ctx scope.

Recording into a thread is a write, so its collection must be the key's home scope; reading a
thread's status needs read access to its scope. A thread's records live in one category of that
scope (``thread/<session>``): a sequence the context vectors and the neighbours stage read as one
conversation, and a name the private retrieval policy keys on.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ctx.core.access import validate_scope
from ctx.core.errors import NotFound

if TYPE_CHECKING:
    import psycopg

    from ctx.core.access import Principal
    from ctx.core.governor.schemas import ThreadRef

CATEGORY_PREFIX = "thread/"
_SHOWN = 80  # session ids up to this long are shown whole in the category


@dataclass(frozen=True)
class Thread:
    id: int
    scope: str
    session_id: str
    category: str

    def ref(self) -> dict[str, str]:
        return {"collection": self.scope, "session_id": self.session_id}


def category_for(session_id: str) -> str:
    """The category of a thread's records: readable when the id is short, hashed beyond."""
    if len(session_id) <= _SHOWN:
        return CATEGORY_PREFIX + session_id
    digest = hashlib.sha256(session_id.encode()).hexdigest()[:16]
    return f"{CATEGORY_PREFIX}{session_id[:40]}~{digest}"


def is_thread_category(category: str) -> bool:
    return category.startswith(CATEGORY_PREFIX)


def writable_scope(who: Principal, ref: ThreadRef) -> str:
    scope = validate_scope(ref.collection or who.home_scope, "collection")
    who.require_write(scope)
    return scope


def readable_scope(who: Principal, ref: ThreadRef) -> str:
    scope = validate_scope(ref.collection or who.home_scope, "collection")
    if not who.can_read(scope):
        raise NotFound(f"no thread {ref.session_id!r} in collection {scope!r} for this key")
    return scope


class ThreadCache:
    """Thread rows by (scope, session id): they never change once made, so a bounded dict in
    front of the table is safe."""

    def __init__(self, size: int = 10_000) -> None:
        self.size = size
        self._items: OrderedDict[tuple[str, str], Thread] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, scope: str, session_id: str) -> Thread | None:
        with self._lock:
            found = self._items.get((scope, session_id))
            if found is not None:
                self._items.move_to_end((scope, session_id))
            return found

    def put(self, thread: Thread) -> Thread:
        with self._lock:
            self._items[(thread.scope, thread.session_id)] = thread
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return thread


def _row(row: dict[str, Any]) -> Thread:
    return Thread(int(row["id"]), row["scope"], row["session_id"], row["category"])


def find_thread(conn: psycopg.Connection[Any], scope: str, session_id: str) -> Thread | None:
    row = conn.execute(
        "SELECT id, scope, session_id, category FROM context_threads "
        "WHERE scope = %s AND session_id = %s",
        (scope, session_id),
    ).fetchone()
    return _row(row) if row else None


def ensure_thread(conn: psycopg.Connection[Any], scope: str, session_id: str) -> Thread:
    """The thread's row, made on first use (two first uses at once make one row)."""
    conn.execute(
        "INSERT INTO context_threads (scope, session_id, category) VALUES (%s, %s, %s) "
        "ON CONFLICT (scope, session_id) DO NOTHING",
        (scope, session_id, category_for(session_id)),
    )
    found = find_thread(conn, scope, session_id)
    assert found is not None
    return found


def list_threads(
    conn: psycopg.Connection[Any], scopes: list[str], limit: int
) -> list[dict[str, Any]]:
    return conn.execute(
        """
        SELECT t.scope AS collection, t.session_id, t.category, t.last_seq AS recorded,
               coalesce((SELECT min(e.seq) - 1 FROM context_thread_events e
                          WHERE e.thread_id = t.id AND e.indexed_at IS NULL), t.last_seq)
                   AS indexed,
               t.created_at, t.updated_at
          FROM context_threads t WHERE t.scope = ANY(%s)
         ORDER BY t.updated_at DESC, t.id DESC LIMIT %s
        """,
        (scopes, limit),
    ).fetchall()
