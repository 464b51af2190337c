"""A block's history: the write log rows every write of it left (``context_write_log``), newest
first: created, updated, archived, unarchived, with the writing key and what the block was called
then. The block must be in the caller's read scopes; a key is named only to its own tenant."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ctx.core.blocks.read import resolve_id
from ctx.core.blocks.schemas import HistoryRequest

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App

ACTIONS = ("block.created", "block.updated", "block.archived", "block.unarchived")
#: A writing key's name, only for the caller's own tenant (``k``: the key's row, joined by id;
#: ``%(tenant)s``: the caller's tenant id): another tenant's key stays unnamed.
KEY_NAME = "CASE WHEN k.tenant_id IS NOT DISTINCT FROM %(tenant)s::uuid THEN k.name END"


def block_history(app: App, who: Principal, req: HistoryRequest) -> dict[str, Any]:
    """The write log of one block of the caller's read scopes, newest first."""
    with app.connection() as conn:
        block_id = resolve_id(conn, who, req.id)
        block = conn.execute(
            "SELECT id::text AS id, scope, title FROM context_blocks WHERE id = %s", (block_id,)
        ).fetchone()
        rows = conn.execute(
            f"""
            SELECT w.at, substr(w.action, 7) AS action, w.detail->>'category' AS category,
                   w.detail->>'title' AS title, w.detail->>'type' AS block_type,
                   {KEY_NAME} AS key
              FROM context_write_log w
              LEFT JOIN context_api_keys k ON k.id = w.api_key_id
             WHERE w.block_id = %(id)s AND w.action = ANY(%(actions)s)
             ORDER BY w.at DESC, w.id DESC
             LIMIT %(limit)s
            """,
            {"tenant": who.tenant_id, "id": block_id, "actions": list(ACTIONS), "limit": req.limit},
        ).fetchall()
    assert block is not None
    return {**block, "history": rows, "count": len(rows)}
