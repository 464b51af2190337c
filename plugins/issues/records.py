"""The plugin's own tables: issue numbers per scope and the append-only history."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from ctx.core import AlsoInTransaction, App

HISTORY_COLUMNS = "id, at, actor, kind, old_value, new_value"


def next_number(app: App, scope: str) -> int:
    """Take the next issue number of ``scope`` (a failed create leaves a gap, never a repeat)."""
    with app.connection() as conn:
        row = conn.execute(
            "INSERT INTO issue_numbers (scope, next_number) VALUES (%s, 2) "
            "ON CONFLICT (scope) DO UPDATE SET next_number = issue_numbers.next_number + 1 "
            "RETURNING next_number - 1 AS number",
            (scope,),
        ).fetchone()
    assert row is not None
    return int(row["number"])


def advance_past(conn: psycopg.Connection[Any], scope: str, number: int) -> None:
    """In the caller's transaction: the next number of ``scope`` is above ``number``, so an issue
    written with its own number (imported, synced) never shares it with a new one."""
    conn.execute(
        "INSERT INTO issue_numbers (scope, next_number) VALUES (%s, %s) "
        "ON CONFLICT (scope) DO UPDATE "
        "SET next_number = greatest(issue_numbers.next_number, EXCLUDED.next_number)",
        (scope, number + 1),
    )


def peek_number(app: App, scope: str) -> int:
    """The number the next issue of ``scope`` would get (not taken)."""
    with app.connection() as conn:
        row = conn.execute(
            "SELECT next_number FROM issue_numbers WHERE scope = %s", (scope,)
        ).fetchone()
    return 1 if row is None else int(row["next_number"])


def record_in(
    conn: psycopg.Connection[Any],
    issue: dict[str, Any],
    actor: str,
    kind: str,
    old: Any = None,
    new: Any = None,
) -> None:
    """Append one history row for ``issue`` (a block row with its metadata) in ``conn``'s
    transaction, so it commits or rolls back with the write it describes."""
    conn.execute(
        "INSERT INTO issue_history (issue_id, scope, number, actor, kind, old_value, "
        "new_value) VALUES (%s, %s, %s, %s, %s, %s, %s)",
        (
            issue["id"],
            issue["scope"],
            issue["metadata"]["number"],
            actor,
            kind,
            None if old is None else Jsonb(old),
            None if new is None else Jsonb(new),
        ),
    )


def recorder(actor: str, kind: str, old: Any = None, new: Any = None) -> AlsoInTransaction:
    """A history row for the block a write stores, written in that write's transaction."""

    def also(conn: psycopg.Connection[Any], block: dict[str, Any], action: str) -> None:
        record_in(conn, block, actor, kind, old, new)

    return also


def record(
    app: App,
    issue: dict[str, Any],
    actor: str,
    kind: str,
    old: Any = None,
    new: Any = None,
) -> None:
    """Append one history row on its own (for events that write no block)."""
    with app.connection() as conn:
        record_in(conn, issue, actor, kind, old, new)


def history(app: App, issue_id: str) -> list[dict[str, Any]]:
    with app.connection() as conn:
        rows = conn.execute(
            f"SELECT {HISTORY_COLUMNS} FROM issue_history WHERE issue_id = %s ORDER BY id",
            (issue_id,),
        ).fetchall()
    return [dict(r) for r in rows]


def issue_id_by_number(app: App, scope: str, number: int) -> str | None:
    with app.connection() as conn:
        row = conn.execute(
            "SELECT id::text AS id FROM context_blocks WHERE scope = %s AND block_type = 'issue' "
            "AND (metadata->>'number')::int = %s ORDER BY created_at LIMIT 1",
            (scope, number),
        ).fetchone()
    return None if row is None else str(row["id"])


def comment_rows(app: App, issue_id: str, scope: str) -> list[dict[str, Any]]:
    """The issue's comments: those of its own scope only, so a comment block written elsewhere
    that names the issue never shows on it."""
    with app.connection() as conn:
        rows = conn.execute(
            "SELECT id::text AS id, content AS body, metadata->>'author' AS author, created_at "
            "FROM context_blocks WHERE block_type = 'issue-comment' AND scope = %s "
            "AND metadata->>'issue_id' = %s ORDER BY created_at, id",
            (scope, issue_id),
        ).fetchall()
    return [dict(r) for r in rows]


def link_rows(app: App, block_id: str, scopes: list[str]) -> list[dict[str, Any]]:
    """Dream's live links touching the block whose other end the caller can read."""
    with app.connection() as conn:
        rows = conn.execute(
            """
            SELECT l.link_type, l.confidence, l.status,
                   CASE WHEN l.source_id = %(id)s::uuid THEN 'out' ELSE 'in' END AS direction,
                   o.id::text AS block_id, o.title, o.block_type, o.scope
              FROM context_links l
              JOIN context_blocks o
                ON o.id = CASE WHEN l.source_id = %(id)s::uuid THEN l.target_id ELSE l.source_id END
             WHERE (l.source_id = %(id)s::uuid OR l.target_id = %(id)s::uuid)
               AND l.status <> 'rejected'
               AND o.scope = ANY(%(scopes)s) AND NOT o.is_archived
             ORDER BY l.confidence DESC, l.id
             LIMIT 100
            """,
            {"id": block_id, "scopes": scopes},
        ).fetchall()
    return [dict(r) for r in rows]


def list_rows(app: App, scopes: list[str], filters: dict[str, Any]) -> list[dict[str, Any]]:
    """Issues of ``scopes`` matching the filters, newest first."""
    with app.connection() as conn:
        rows = conn.execute(
            """
            SELECT id::text AS id, scope, title, metadata, created_at, updated_at
              FROM context_blocks
             WHERE block_type = 'issue' AND scope = ANY(%(scopes)s) AND NOT is_archived
               AND (%(state)s::text IS NULL OR metadata->>'state' = %(state)s)
               AND (%(label)s::text IS NULL OR metadata->'labels' ? %(label)s)
               AND (%(assignee)s::text IS NULL OR metadata->'assignees' ? %(assignee)s)
               AND (%(text)s::text IS NULL OR title ILIKE %(pattern)s OR content ILIKE %(pattern)s)
             ORDER BY created_at DESC, id
             LIMIT %(limit)s
            """,
            {
                **filters,
                "scopes": scopes,
                "pattern": None if not filters.get("text") else f"%{_escaped(filters['text'])}%",
            },
        ).fetchall()
    return [dict(r) for r in rows]


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
