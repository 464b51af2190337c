"""Changing a stored block by id: edit its fields, archive it, bring it back.

An edit goes through the same write path as ``store`` (the write hook, the version it replaces,
the audit row, the jobs the change needs); only the row is addressed by id, so a title or category can change too, as long
as no other block already has the new key.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import psycopg.errors
import pydantic

from ctx.core.access import Principal
from ctx.core.blocks.read import fetch_block
from ctx.core.blocks.schemas import BlockChanges, StoreRequest
from ctx.core.blocks.versions import keep_version, makes_version
from ctx.core.blocks.write import (
    AlsoInTransaction,
    audit,
    owned_block,
    prepare_write,
    record_write,
    summary,
    write_values,
)
from ctx.core.errors import Conflict, ValidationError
from ctx.core.validation import error_message

if TYPE_CHECKING:
    from ctx.core.app import App

# The stored fields an edit may change, by their wire names ("metadata").
EDITABLE = tuple(field.alias or name for name, field in BlockChanges.model_fields.items())


def _merged(block: dict[str, Any], changes: BlockChanges) -> StoreRequest:
    given = changes.model_dump(exclude_unset=True, by_alias=True)
    if not given:
        raise ValidationError(
            "nothing to change: give at least one field in changes", field="changes"
        )
    current = {name: block[name] for name in EDITABLE}
    try:
        return StoreRequest.model_validate({**current, **given, "scope": block["scope"]})
    except pydantic.ValidationError as exc:  # the merged block breaks a rule the change alone kept
        first = exc.errors()[0]
        where = ".".join(["changes", *(str(p) for p in first.get("loc", ()))])
        raise ValidationError(f"{where} {error_message(dict(first))}", field=where) from None


def update_block(
    app: App,
    who: Principal,
    ident: str,
    changes: BlockChanges,
    *,
    also: AlsoInTransaction | None = None,
) -> dict[str, Any]:
    """Change fields of a block in the caller's home scope; return ``{id, action, ...}``.
    ``also`` runs in the change's transaction (see ``store_block``)."""
    with app.connection() as conn:
        block = owned_block(conn, who, ident, "edits")
        req = _merged(block, changes)
        write = prepare_write(app, conn, who, req, block["scope"], block)
        try:
            with conn.transaction():  # a savepoint: a clash leaves a clear error, not a dead txn
                if makes_version(block, write):
                    keep_version(app, conn, block["id"])
                conn.execute(
                    """
                    UPDATE context_blocks SET
                        category = %(category)s, title = %(title)s, content = %(content)s,
                        block_type = %(block_type)s, tags = %(tags)s, metadata = %(metadata)s,
                        sensitivity = %(sensitivity)s, content_hash = %(content_hash)s,
                        occurred_at = %(occurred_at)s,
                        guard_status = CASE WHEN content_hash = %(content_hash)s
                                            THEN guard_status ELSE 'pending' END,
                        updated_at = now()
                     WHERE id = %(id)s
                    """,
                    {**write_values(write), "id": block["id"]},
                )
        except psycopg.errors.UniqueViolation:
            raise Conflict(
                f"another block in scope {block['scope']!r} already has category "
                f"{req.category!r} and title {req.title!r}",
                field="title",
            ) from None
        full = record_write(conn, who, write, block["id"], "updated")
        if also is not None:
            also(conn, full, "updated")
    app.host.notify("on_block_written", app=app, block=full, action="updated")
    return summary(full, "updated")


def set_archived(app: App, who: Principal, ident: str, archived: bool) -> dict[str, Any]:
    """Archive a block (kept, but out of every search) or bring it back; audited."""
    action = "archived" if archived else "unarchived"
    with app.connection() as conn:
        block = owned_block(conn, who, ident, "archives" if archived else "unarchives")
        if block["is_archived"] != archived:
            conn.execute(
                "UPDATE context_blocks SET is_archived = %s, updated_at = now() WHERE id = %s",
                (archived, block["id"]),
            )
            audit(
                conn,
                who,
                f"block.{action}",
                block["id"],
                block["scope"],
                {"category": block["category"], "title": block["title"]},
            )
        full = fetch_block(conn, block["id"])
    app.host.notify("on_block_written", app=app, block=full, action=action)
    return summary(full, action)
