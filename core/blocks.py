"""Blocks: store (upsert by scope + category + title), get, delete, list, stats, light search.

Every function takes the caller's ``Principal``: reads are filtered to its read scopes inside the
SQL, writes go only to its home scope, and an id outside the caller's scopes is simply not found.
"""

from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg.types.json import Jsonb

from ctx.core import jobs
from ctx.core.auth import Principal, validate_scope
from ctx.core.errors import Ambiguous, Forbidden, NotFound, ValidationError
from ctx.core.hooks import call_each
from ctx.core.schemas import SearchRequest, StoreRequest

if TYPE_CHECKING:
    from ctx.core.app import App

BLOCK_COLUMNS = (
    "id, scope, category, title, content, block_type, tags, metadata, sensitivity, is_archived, "
    "guard_status, content_hash, occurred_at, created_at, updated_at"
)
ID_PREFIX_RE = re.compile(r"^[0-9a-f-]{4,36}$")


def content_hash(content: str) -> str:
    return hashlib.sha256(content.encode("utf-8")).hexdigest()


def _row_out(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "id": str(row["id"])}


def store(app: App, who: Principal, req: StoreRequest) -> dict[str, Any]:
    """Upsert a block; return ``{id, action, scope, category, title}``.

    In the same transaction it writes the audit row and queues the block's background jobs, so a
    block is never stored without the work that makes it findable.
    """
    scope = validate_scope(req.scope or who.home_scope)
    who.require_write(scope)
    spec = app.block_type(req.block_type)
    if spec is None:
        known = ", ".join(sorted(app.block_types))
        raise ValidationError(
            f"unknown block_type {req.block_type!r}; known types: {known}", field="block_type"
        )
    sensitivity = req.sensitivity or spec.default_sensitivity
    digest = content_hash(req.content)
    with app.connection() as conn:
        # The previous version decides which background work the new one needs.
        old = conn.execute(
            "SELECT content_hash, block_type, occurred_at FROM context_blocks "
            "WHERE scope = %s AND category = %s AND title = %s FOR UPDATE",
            (scope, req.category, req.title),
        ).fetchone()
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
                req.category,
                req.title,
                req.content,
                spec.name,
                req.tags,
                Jsonb(req.meta),
                sensitivity,
                digest,
                req.occurred_at,
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
        jobs.enqueue_block_jobs(
            conn,
            spec,
            block_id,
            embed=old is None or (old["content_hash"], old["block_type"]) != (digest, spec.name),
            temporal=old is None
            or (old["content_hash"], old["block_type"], old["occurred_at"])
            != (digest, spec.name, req.occurred_at),
        )
        full = _fetch(conn, block_id)
    call_each(app.pm.hook.on_block_written, swallow=True, app=app, block=full, action=action)
    return {
        "id": block_id,
        "action": action,
        "scope": scope,
        "category": req.category,
        "title": req.title,
    }


def _fetch(conn: psycopg.Connection[Any], block_id: str) -> dict[str, Any]:
    row = conn.execute(
        f"SELECT {BLOCK_COLUMNS} FROM context_blocks WHERE id = %s", (block_id,)
    ).fetchone()
    assert row is not None
    return _row_out(row)


def resolve_id(conn: psycopg.Connection[Any], who: Principal, ident: str) -> str:
    """Resolve a full id or a unique prefix (4+ hex characters) within the caller's scopes."""
    ident = (ident or "").strip().lower()
    if not ID_PREFIX_RE.match(ident):
        raise ValidationError(
            "id must be a block id or a prefix of at least 4 hex characters", field="id"
        )
    rows = conn.execute(
        "SELECT id FROM context_blocks WHERE id::text LIKE %s AND scope = ANY(%s) LIMIT 6",
        (ident.replace("%", "") + "%", list(who.read_scopes)),
    ).fetchall()
    if not rows:
        raise NotFound(f"no block {ident!r} in your scopes")
    if len(rows) > 1:
        shown = ", ".join(str(r["id"])[:12] for r in rows[:5])
        raise Ambiguous(
            f"id prefix {ident!r} matches several blocks ({shown}…); give more characters"
        )
    return str(rows[0]["id"])


def get(app: App, who: Principal, ident: str) -> dict[str, Any]:
    with app.connection() as conn:
        return _fetch(conn, resolve_id(conn, who, ident))


def delete(app: App, who: Principal, ident: str) -> dict[str, Any]:
    with app.connection() as conn:
        block_id = resolve_id(conn, who, ident)
        block = _fetch(conn, block_id)
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
    call_each(app.pm.hook.on_block_written, swallow=True, app=app, block=block, action="deleted")
    return {"id": block_id, "action": "deleted"}


def _scopes(who: Principal, scope: str | None) -> list[str]:
    if scope is None:
        return list(who.read_scopes)
    if not who.can_read(scope):
        raise Forbidden(f"this key cannot read scope {scope!r}")
    return [scope]


def list_blocks(
    app: App,
    who: Principal,
    *,
    limit: int = 20,
    offset: int = 0,
    category: str | None = None,
    scope: str | None = None,
) -> list[dict[str, Any]]:
    """Newest first; metadata only (no content) to keep listings light."""
    with app.connection() as conn:
        rows = conn.execute(
            "SELECT id, scope, category, title, block_type, tags, sensitivity, is_archived, "
            "guard_status, length(content) AS content_length, created_at, updated_at "
            "FROM context_blocks WHERE scope = ANY(%s) AND (%s::text IS NULL OR category = %s) "
            "ORDER BY updated_at DESC, id LIMIT %s OFFSET %s",
            (_scopes(who, scope), category, category, limit, offset),
        ).fetchall()
    return [_row_out(r) for r in rows]


def stats(app: App, who: Principal) -> dict[str, Any]:
    with app.connection() as conn:
        total = conn.execute(
            "SELECT count(*) AS blocks, count(*) FILTER (WHERE is_archived) AS archived, "
            "count(DISTINCT category) AS categories, max(updated_at) AS last_write "
            "FROM context_blocks WHERE scope = ANY(%s)",
            (list(who.read_scopes),),
        ).fetchone()
        by_scope = conn.execute(
            "SELECT scope, count(*) AS n FROM context_blocks WHERE scope = ANY(%s) "
            "GROUP BY scope ORDER BY scope",
            (list(who.read_scopes),),
        ).fetchall()
        by_type = conn.execute(
            "SELECT block_type, count(*) AS n FROM context_blocks WHERE scope = ANY(%s) "
            "GROUP BY block_type ORDER BY block_type",
            (list(who.read_scopes),),
        ).fetchall()
    assert total is not None
    return {
        **total,
        "by_scope": {r["scope"]: r["n"] for r in by_scope},
        "by_type": {r["block_type"]: r["n"] for r in by_type},
    }


def categories(app: App, who: Principal, scope: str | None = None) -> list[dict[str, Any]]:
    with app.connection() as conn:
        rows = conn.execute(
            "SELECT category, count(*) AS blocks, max(updated_at) AS last_write "
            "FROM context_blocks WHERE scope = ANY(%s) GROUP BY category ORDER BY category",
            (_scopes(who, scope),),
        ).fetchall()
    return list(rows)


def search(app: App, who: Principal, req: SearchRequest) -> list[dict[str, Any]]:
    """Light full-text search (English and German configurations), scope-filtered.

    The hybrid path with embeddings and fusion is ``/api/query``; this one needs no model.
    """
    scopes = list(who.read_scopes)
    if req.scopes is not None:
        bad = [s for s in req.scopes if not who.can_read(s)]
        if bad:
            raise Forbidden(f"this key cannot read scope(s) {', '.join(bad)}")
        scopes = list(req.scopes)
    limit = req.limit or int(app.settings["search.default_limit"])
    with app.connection() as conn:
        rows = conn.execute(
            """
            WITH q AS (SELECT websearch_to_tsquery('english', %(q)s) AS en,
                              websearch_to_tsquery('german', %(q)s) AS de)
            SELECT b.id, b.title, b.category, b.scope, b.block_type, b.tags, b.updated_at,
                   greatest(ts_rank_cd(b.ts_en, q.en), ts_rank_cd(b.ts_de, q.de)) AS score,
                   ts_headline('english', b.content, q.en,
                               'MaxWords=30, MinWords=10, MaxFragments=1, StartSel=**, StopSel=**') AS snippet
              FROM context_blocks b, q
             WHERE (b.ts_en @@ q.en OR b.ts_de @@ q.de)
               AND b.scope = ANY(%(scopes)s)
               AND NOT b.is_archived
               AND (%(category)s::text IS NULL OR b.category = %(category)s)
               AND b.tags @> %(tags)s
             ORDER BY score DESC, b.updated_at DESC
             LIMIT %(limit)s
            """,
            {
                "q": req.query,
                "scopes": scopes,
                "category": req.category,
                "tags": req.tags,
                "limit": limit,
            },
        ).fetchall()
    return [{**_row_out(r), "score": float(r["score"])} for r in rows]
