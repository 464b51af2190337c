"""Writing blocks: store (upsert by scope + category + title) and delete.

A write is one transaction: the ``before_block_write`` hook may veto or annotate it, the row is
upserted (a change of what the block says keeps the state it replaces as a version first:
``versions``), the audit row written and the background work the plugins asked for queued, so a
block is never stored without the work that makes it findable. ``on_block_written`` runs after
commit.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg.types.json import Jsonb

from ctx.core.access import Principal, validate_scope
from ctx.core.blocks.read import fetch_block, find_block, resolve_id
from ctx.core.blocks.schemas import StoreRequest
from ctx.core.blocks.types import SENSITIVITIES, BlockTypeSpec
from ctx.core.blocks.versions import keep_version, makes_version
from ctx.core.errors import Forbidden, NotFound, ValidationError
from ctx.core.runtime import enqueue
from ctx.core.validation import value_problem

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
    is_archived: bool = False


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
    jobs: list[tuple[str, str | None, dict[str, Any]]] = field(default_factory=list)
    #: who is writing: ``api`` (a caller's store or edit), ``import`` (a block restored from an
    #: export, as it was) or the capability that derives the block (``governor``: a thread's
    #: record); hooks may treat derived and restored blocks differently
    origin: str = "api"

    @property
    def is_new(self) -> bool:
        return self.previous is None

    @property
    def revives(self) -> bool:
        """True when the write brings an archived block back (a store of its key unarchives it)."""
        return self.previous is not None and self.previous.is_archived

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

    def queue_job(self, kind: str, *, key: str | None = None, **payload: Any) -> None:
        """Queue a job of ``kind`` for this block (its id joins the payload; one queued per
        block), or with ``key`` a job about something else (a scope, say), one queued per key."""
        self.jobs.append((kind, key, payload))


def _check_annotations(write: BlockWrite, sensitivity: str) -> None:
    """Hooks may annotate a write, not corrupt it: re-validate what they may touch."""
    if write.sensitivity not in SENSITIVITIES:
        raise ValidationError(f"a plugin set sensitivity {write.sensitivity!r}")
    if SENSITIVITIES.index(write.sensitivity) < SENSITIVITIES.index(sensitivity):
        raise ValidationError("a plugin tried to lower the sensitivity of a write")
    if not all(isinstance(t, str) and t for t in write.tags) or not isinstance(write.meta, dict):
        raise ValidationError("a plugin left invalid tags or metadata on a write")
    found = value_problem({"tags": write.tags, "metadata": write.meta})
    if found:
        raise ValidationError(f"a plugin left {found[0]} that {found[1]}", field=found[0])


def type_for(app: App, name: str) -> BlockTypeSpec:
    spec = app.block_type(name)
    if spec is None:
        known = ", ".join(sorted(app.block_types))
        raise ValidationError(
            f"unknown block_type {name!r}; known types: {known}", field="block_type"
        )
    return spec


def prepare_write(
    app: App,
    conn: psycopg.Connection[Any],
    who: Principal,
    req: StoreRequest,
    scope: str,
    previous: dict[str, Any] | None,
    origin: str = "api",
) -> BlockWrite:
    """The write as plugins see it, after every ``before_block_write`` has vetoed or annotated."""
    spec = type_for(app, req.block_type)
    if len(req.content) > spec.max_content_chars:
        raise ValidationError(
            f"content has {len(req.content)} characters; blocks of type {spec.name!r} may have "
            f"{spec.max_content_chars} (the type's max_content_chars)",
            field="content",
        )
    sensitivity = req.sensitivity or spec.default_sensitivity
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
        previous=PreviousVersion(
            previous["content_hash"],
            previous["block_type"],
            previous["occurred_at"],
            bool(previous.get("is_archived", False)),
        )
        if previous
        else None,
        origin=origin,
    )
    app.host.call("before_block_write", app=app, conn=conn, who=who, write=write)
    _check_annotations(write, sensitivity)
    return write


def write_values(write: BlockWrite) -> dict[str, Any]:
    """The row values of a prepared write, by column."""
    return {
        "scope": write.scope,
        "category": write.category,
        "title": write.title,
        "content": write.content,
        "block_type": write.spec.name,
        "tags": list(dict.fromkeys(write.tags)),
        "metadata": Jsonb(write.meta),
        "sensitivity": write.sensitivity,
        "content_hash": write.content_hash,
        "occurred_at": write.occurred_at,
    }


def audit(
    conn: psycopg.Connection[Any],
    who: Principal,
    action: str,
    block_id: str | None,
    scope: str,
    detail: dict[str, Any],
) -> None:
    """One row of the write log (``block_id`` None for writes that are not a block's)."""
    conn.execute(
        "INSERT INTO context_write_log (api_key_id, action, block_id, scope, detail) "
        "VALUES (%s, %s, %s, %s, %s)",
        (who.key_id, action, block_id, scope, Jsonb(detail)),
    )


def record_write(
    conn: psycopg.Connection[Any], who: Principal, write: BlockWrite, block_id: str, action: str
) -> dict[str, Any]:
    """In the write's transaction: the audit row and the queued jobs; returns the stored row."""
    audit(
        conn,
        who,
        f"block.{action}",
        block_id,
        write.scope,
        {"category": write.category, "title": write.title, "type": write.spec.name},
    )
    for kind, key, payload in write.jobs:
        if key is None:
            enqueue(conn, kind, {**payload, "block_id": block_id}, dedupe_key=block_id)
        else:
            enqueue(conn, kind, payload, dedupe_key=key)
    return fetch_block(conn, block_id)


def summary(block: dict[str, Any], action: str) -> dict[str, Any]:
    return {
        "id": block["id"],
        "action": action,
        "scope": block["scope"],
        "category": block["category"],
        "title": block["title"],
    }


#: Called in a write's transaction with the stored row and the action (``created``/``updated``),
#: after the row and its audit entry and before commit: rows a plugin keeps alongside a block
#: (an issue's history) commit or roll back with it.
AlsoInTransaction = Callable[[psycopg.Connection[Any], dict[str, Any], str], None]


def store_block(
    app: App,
    who: Principal,
    req: StoreRequest,
    *,
    origin: str = "api",
    also: AlsoInTransaction | None = None,
) -> dict[str, Any]:
    """Upsert a block by (scope, category, title); return ``{id, action, scope, category,
    title}``. Storing an archived block's key again brings it back. ``origin`` tells hooks who
    writes (``BlockWrite.origin``); ``also`` runs in the write's transaction."""
    scope = validate_scope(req.scope or who.home_scope)
    who.require_write(scope)
    with app.connection() as conn:
        old = conn.execute(
            "SELECT id::text AS id, content_hash, block_type, occurred_at, is_archived, title, "
            "category, tags FROM context_blocks "
            "WHERE scope = %s AND category = %s AND title = %s FOR UPDATE",
            (scope, req.category, req.title),
        ).fetchone()
        write = prepare_write(app, conn, who, req, scope, old, origin=origin)
        if makes_version(old, write):
            assert old is not None
            keep_version(app, conn, old["id"])
        row = conn.execute(
            """
            INSERT INTO context_blocks
                (scope, category, title, content, block_type, tags, metadata, sensitivity,
                 content_hash, occurred_at)
            VALUES (%(scope)s, %(category)s, %(title)s, %(content)s, %(block_type)s, %(tags)s,
                    %(metadata)s, %(sensitivity)s, %(content_hash)s, %(occurred_at)s)
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
                         AND NOT (context_blocks.is_archived
                                  AND context_blocks.guard_status = 'near_duplicate')
                    THEN context_blocks.guard_status ELSE 'pending' END,
                updated_at = now()
            RETURNING id, (xmax = 0) AS created
            """,
            write_values(write),
        ).fetchone()
        assert row is not None
        action = "created" if row["created"] else "updated"
        full = record_write(conn, who, write, str(row["id"]), action)
        if also is not None:
            also(conn, full, action)
    app.host.notify("on_block_written", app=app, block=full, action=action)
    return summary(full, action)


def insert_derived(
    app: App,
    conn: psycopg.Connection[Any],
    who: Principal,
    req: StoreRequest,
    block_id: str,
    origin: str,
) -> dict[str, Any] | None:
    """In the caller's transaction: insert a block derived from another fact under the id that
    fact reserved (a governed thread's record), through the same hooks as a store. Idempotent: a
    block already holding the id is left alone (None). ``on_block_written`` runs after the
    caller commits, through ``notify_written``."""
    scope = validate_scope(req.scope or who.home_scope)
    if conn.execute("SELECT 1 FROM context_blocks WHERE id = %s", (block_id,)).fetchone():
        return None
    write = prepare_write(app, conn, who, req, scope, None, origin=origin)
    conn.execute(
        """
        INSERT INTO context_blocks
            (id, scope, category, title, content, block_type, tags, metadata, sensitivity,
             content_hash, occurred_at)
        VALUES (%(id)s, %(scope)s, %(category)s, %(title)s, %(content)s, %(block_type)s,
                %(tags)s, %(metadata)s, %(sensitivity)s, %(content_hash)s, %(occurred_at)s)
        """,
        {**write_values(write), "id": block_id},
    )
    return record_write(conn, who, write, block_id, "created")


def notify_written(app: App, blocks: list[dict[str, Any]], action: str = "created") -> None:
    """``on_block_written`` for blocks a caller wrote in its own, now committed, transaction."""
    for block in blocks:
        app.host.notify("on_block_written", app=app, block=block, action=action)


def owned_block(
    conn: psycopg.Connection[Any], who: Principal, ident: str, verb: str
) -> dict[str, Any]:
    """A block of the caller's home scope, locked for the change (id or unique prefix)."""
    block_id = resolve_id(conn, who, ident)
    block = find_block(conn, block_id, for_update=True)
    if block is None:  # deleted by a change that held the lock before us
        raise NotFound(f"no block {ident!r} in your scopes (it was just deleted)")
    if block["scope"] != who.home_scope:
        raise Forbidden(
            f"this key {verb} only in its home scope {who.home_scope!r}, not {block['scope']!r}"
        )
    return block


def delete_block(app: App, who: Principal, ident: str) -> dict[str, Any]:
    """Delete a block of the caller's home scope by id or unique prefix; audited."""
    with app.connection() as conn:
        block = owned_block(conn, who, ident, "deletes")
        conn.execute("DELETE FROM context_blocks WHERE id = %s", (block["id"],))
        audit(
            conn,
            who,
            "block.deleted",
            block["id"],
            block["scope"],
            {"category": block["category"], "title": block["title"]},
        )
    app.host.notify("on_block_written", app=app, block=block, action="deleted")
    return {"id": block["id"], "action": "deleted"}
