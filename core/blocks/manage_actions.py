"""``manage``: the one request that reads or changes blocks by id, lists them and counts them.

Every surface that offers it (REST ``/api/manage``, MCP, the CLI through REST) calls this, so the
actions mean the same everywhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ctx.core.access import Principal
from ctx.core.blocks.edit import set_archived, update_block
from ctx.core.blocks.read import block_categories, block_stats, get_block, list_blocks
from ctx.core.blocks.schemas import NEEDS_ID, ManageRequest
from ctx.core.blocks.write import delete_block
from ctx.core.errors import ValidationError

if TYPE_CHECKING:
    from ctx.core.app import App

WRITE_ACTIONS = frozenset({"delete", "update", "archive", "unarchive"})


def manage_charges(app: App, req: ManageRequest) -> tuple[str, ...]:
    """What one ``manage`` call adds to its charge: a write for the actions that change a block."""
    return ("write",) if req.action in WRITE_ACTIONS else ()


def manage(app: App, who: Principal, req: ManageRequest) -> dict[str, Any]:
    if req.action in NEEDS_ID and not req.id:
        raise ValidationError(f"action {req.action!r} needs an id", field="id")
    if req.changes is not None and req.action != "update":
        raise ValidationError("changes belong to the action 'update'", field="changes")
    ident = req.id or ""
    if req.action == "get":
        return {"block": get_block(app, who, ident)}
    if req.action == "delete":
        return delete_block(app, who, ident)
    if req.action == "update":
        if req.changes is None:
            raise ValidationError("action 'update' needs changes", field="changes")
        return update_block(app, who, ident, req.changes)
    if req.action in ("archive", "unarchive"):
        return set_archived(app, who, ident, req.action == "archive")
    if req.action == "list":
        items = list_blocks(
            app, who, limit=req.limit, offset=req.offset, category=req.category, scope=req.scope
        )
        return {"blocks": items, "count": len(items)}
    if req.action == "stats":
        return {"stats": block_stats(app, who, scope=req.scope)}
    return {"categories": block_categories(app, who, scope=req.scope)}
