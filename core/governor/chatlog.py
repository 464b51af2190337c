"""Chat sessions: the governor threads of a key's home scope whose session ids are chat ids.

A chat session is nothing but a thread; listing and reading one back read the thread rows and
their events (the authoritative record, whether or not indexing has caught up), newest session
first, its turns oldest first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ctx.core.errors import NotFound, ValidationError
from ctx.core.governor.chat import CHAT_PREFIX, is_chat_session
from ctx.core.governor.threads import find_thread

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App

TITLE_CHARS = 80
#: what a chat turn keeps in its event's metadata, shown again when the session is read back
SHOWN_META = ("backend", "model", "citations", "tools")


def _title(text: str | None) -> str:
    flat = " ".join((text or "").split())
    return flat if len(flat) <= TITLE_CHARS else flat[: TITLE_CHARS - 1] + "…"


def chat_sessions(app: App, who: Principal, limit: int = 50) -> list[dict[str, Any]]:
    """The key's chat sessions, most recently active first: id, title (the first message), how
    many events, when it began and when its last message came."""
    with app.connection() as conn:
        rows = conn.execute(
            """
            SELECT t.session_id, t.last_seq, t.created_at, t.updated_at,
                   (SELECT e.content FROM context_thread_events e
                     WHERE e.thread_id = t.id AND e.role = 'user' ORDER BY e.seq LIMIT 1)
                       AS first_message
              FROM context_threads t
             WHERE t.scope = %s AND left(t.session_id, %s) = %s
             ORDER BY t.updated_at DESC, t.id DESC
             LIMIT %s
            """,
            (who.home_scope, len(CHAT_PREFIX), CHAT_PREFIX, limit),
        ).fetchall()
    return [
        {
            "id": r["session_id"],
            "title": _title(r["first_message"]) or r["session_id"],
            "events": int(r["last_seq"]),
            "created_at": r["created_at"],
            "last_message_at": r["updated_at"],
        }
        for r in rows
        if is_chat_session(r["session_id"])
    ]


def chat_history(app: App, who: Principal, session: str, limit: int = 200) -> dict[str, Any]:
    """A session's turns (user and assistant messages, up to the last ``limit``), oldest first,
    each assistant turn with the backend, model, cited blocks and tool calls it recorded."""
    if not is_chat_session(session):
        raise ValidationError(
            "a chat session id is 'chat-' followed by 1-64 letters, digits, '-' or '_'",
            field="session",
        )
    with app.connection() as conn:
        thread = find_thread(conn, who.home_scope, session)
        if thread is None:
            raise NotFound(f"no chat session {session!r} for this key")
        rows = conn.execute(
            """
            SELECT seq, role, content, metadata, occurred_at FROM context_thread_events
             WHERE thread_id = %s AND role IN ('user', 'assistant')
             ORDER BY seq DESC LIMIT %s
            """,
            (thread.id, limit),
        ).fetchall()
        head = conn.execute(
            "SELECT created_at, updated_at FROM context_threads WHERE id = %s", (thread.id,)
        ).fetchone()
    turns = []
    for r in reversed(rows):
        meta = r["metadata"] if isinstance(r["metadata"], dict) else {}
        turn: dict[str, Any] = {
            "seq": int(r["seq"]),
            "role": r["role"],
            "content": r["content"],
            "at": r["occurred_at"],
        }
        if r["role"] == "assistant":
            turn.update({k: meta[k] for k in SHOWN_META if k in meta})
        turns.append(turn)
    assert head is not None
    return {
        "id": session,
        "collection": thread.scope,
        "created_at": head["created_at"],
        "last_message_at": head["updated_at"],
        "turns": turns,
    }
