"""Writing blocks: store (upsert by scope + category + title) and delete.

A write is one transaction: the ``before_block_write`` hook may veto or annotate it, the row is
upserted, the audit row written and the background work the plugins asked for queued, so a block
is never stored without the work that makes it findable. ``on_block_written`` runs after commit.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from psycopg.types.json import Jsonb

from ctx.core.access import Principal, validate_scope
from ctx.core.blocks.read import fetch_block, resolve_id
from ctx.core.blocks.schemas import StoreRequest
from ctx.core.blocks.types import SENSITIVITIES, BlockTypeSpec
from ctx.core.errors import Forbidden, ValidationError
from ctx.core.runtime import enqueue

if TYPE_CHECKING:
    from ctx.core.app import App


def content_hash(content: str) -> str:
    return hashlib.sha256(content.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class PreviousVersion:
    """What the row being replaced looked like (for deciding which work a change needs)."""

    content_hash: str
    block_type: str
    occurred_at: datetime | None


@dataclass
class BlockWrite:
    """A block about to be stored, as ``before_block_write`` implementations see it.

    ``tags`` and ``meta`` may be changed; ``sensitivity`` may only be raised. ``queue_job`` asks for
    background work, queued in the same transaction with the block's id in its payload.
    """

    scope: str
    category: str
    title: str
    content: str
    content_hash: str
    spec: BlockTypeSpec
    tags: list[str]
    meta: dict[str, Any]
    sensitivity: str
    occurred_at: datetime | None
    previous: PreviousVersion | None
    jobs: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    @property
    def is_new(self) -> bool:
        return self.previous is None

    def changed(self, *what: str) -> bool:
        """True for a new block, or when any of ``content``, ``block_type``, ``occurred_at``
        differs from the version being replaced."""
        if self.previous is None:
            return True
        now = {
            "content": self.content_hash,
            "block_type": self.spec.name,
            "occurred_at": self.occurred_at,
        }
        before = {
            "content": self.previous.content_hash,
            "block_type": self.previous.block_type,
            "occurred_at": self.previous.occurred_at,
        }
        return any(now[w] != before[w] for w in what)

    def queue_job(self, kind: str, **payload: Any) -> None:
        """Queue a job of ``kind`` for this block (deduplicated per block while queued)."""
        self.jobs.append((kind, payload))


def _check_annotations(write: BlockWrite, sensitivity: str) -> None:
    """Hooks may annotate a write, not corrupt it: re-validate what they may touch."""
    if write.sensitivity not in SENSITIVITIES:
        raise ValidationError(f"a plugin set sensitivity {write.sensitivity!r}")
    if SENSITIVITIES.index(write.sensitivity) < SENSITIVITIES.index(sensitivity):
        raise ValidationError("a plugin tried to lower the sensitivity of a write")
    if not all(isinstance(t, str) and t for t in write.tags) or not isinstance(write.meta, dict):
        raise ValidationError("a plugin left invalid tags or metadata on a write")


def store_block(app: App, who: Principal, req: StoreRequest) -> dict[str, Any]:
    """Upsert a block; return ``{id, action, scope, category, title}``."""
    scope = validate_scope(req.scope or who.home_scope)
    who.require_write(scope)
    spec = app.block_type(req.block_type)
    if spec is None:
        known = ", ".join(sorted(app.block_types))
        raise ValidationError(
            f"unknown block_type {req.block_type!r}; known types: {known}", field="block_type"
        )
    sensitivity = req.sensitivity or spec.default_sensitivity
    with app.connection() as conn:
        old = conn.execute(
            "SELECT content_hash, block_type, occurred_at FROM context_blocks "
            "WHERE scope = %s AND category = %s AND title = %s FOR UPDATE",
            (scope, req.category, req.title),
        ).fetchone()
        write = BlockWrite(
            scope=scope,
            category=req.category,
            title=req.title,
            content=req.content,
            content_hash=content_hash(req.content),
            spec=spec,
            tags=list(req.tags),
            meta=dict(req.meta),
            sensitivity=sensitivity,
            occurred_at=req.occurred_at,
            previous=PreviousVersion(**old) if old else None,
        )
        app.host.call("before_block_write", app=app, conn=conn, who=who, write=write)
        _check_annotations(write, sensitivity)
        row = conn.execute(
            """
            INSERT INTO context_blocks
                (scope, category, title, content, block_type, tags, metadata, sensitivity,
                 content_hash, occurred_at)
            VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
            ON CONFLICT (scope, category, title) DO UPDATE SET
                content = EXCLUDED.content,
                block_type = EXCLUDED.block_type,
                tags = EXCLUDED.tags,
                metadata = EXCLUDED.metadata,
                sensitivity = EXCLUDED.sensitivity,
                content_hash = EXCLUDED.content_hash,
                occurred_at = EXCLUDED.occurred_at,
                is_archived = false,
                guard_status = CASE
                    WHEN context_blocks.content_hash = EXCLUDED.content_hash
                    THEN context_blocks.guard_status ELSE 'pending' END,
                updated_at = now()
            RETURNING id, (xmax = 0) AS created
            """,
            (
                scope,
                write.category,
                write.title,
                write.content,
                spec.name,
                list(dict.fromkeys(write.tags)),
                Jsonb(write.meta),
                write.sensitivity,
                write.content_hash,
                write.occurred_at,
            ),
        ).fetchone()
        assert row is not None
        action = "created" if row["created"] else "updated"
        block_id = str(row["id"])
        conn.execute(
            "INSERT INTO context_write_log (api_key_id, action, block_id, scope, detail) "
            "VALUES (%s, %s, %s, %s, %s)",
            (
                who.key_id,
                f"block.{action}",
                block_id,
                scope,
                Jsonb({"category": req.category, "title": req.title, "type": spec.name}),
            ),
        )
        for kind, payload in write.jobs:
            enqueue(conn, kind, {**payload, "block_id": block_id}, dedupe_key=block_id)
        full = fetch_block(conn, block_id)
    app.host.notify("on_block_written", app=app, block=full, action=action)
    return {
        "id": block_id,
        "action": action,
        "scope": scope,
        "category": req.category,
        "title": req.title,
    }


def delete_block(app: App, who: Principal, ident: str) -> dict[str, Any]:
    """Delete a block of the caller's home scope by id or unique prefix; audited."""
    with app.connection() as conn:
        block_id = resolve_id(conn, who, ident)
        block = fetch_block(conn, block_id)
        if block["scope"] != who.home_scope:
            raise Forbidden(
                f"this key deletes only in its home scope {who.home_scope!r}, "
                f"not {block['scope']!r}"
            )
        conn.execute("DELETE FROM context_blocks WHERE id = %s", (block_id,))
        conn.execute(
            "INSERT INTO context_write_log (api_key_id, action, block_id, scope, detail) "
            "VALUES (%s, 'block.deleted', %s, %s, %s)",
            (
                who.key_id,
                block_id,
                block["scope"],
                Jsonb({"category": block["category"], "title": block["title"]}),
            ),
        )
    app.host.notify("on_block_written", app=app, block=block, action="deleted")
    return {"id": block_id, "action": "deleted"}
