"""Reading blocks: get by id or unique prefix, list, stats, categories.

Every function takes the caller's ``Principal``: reads are filtered to its read scopes inside the
SQL, and an id outside the caller's scopes is simply not found.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import psycopg

from ctx.core.access import Principal
from ctx.core.blocks.schemas import ID_PREFIX
from ctx.core.errors import Ambiguous, Forbidden, NotFound, ValidationError
from ctx.core.runtime import pending_for_scopes

if TYPE_CHECKING:
    from ctx.core.app import App

BLOCK_COLUMNS = (
    "id, scope, category, title, content, block_type, tags, metadata, sensitivity, is_archived, "
    "guard_status, content_hash, occurred_at, created_at, updated_at"
)
ID_PREFIX_RE = re.compile(ID_PREFIX)
#: Which blocks listings, facets and the light search show, by their type's reach
#: (context_type_reach.listing): none of a type never listed, and of a type listed only in its
#: category (a governed thread's events) only when the request names that category as
#: ``%(category)s`` (NULL: it names none).
LISTED = (
    "block_type NOT IN (SELECT name FROM context_type_reach WHERE listing = 'none') "
    "AND (category = %(category)s "
    "OR block_type NOT IN (SELECT name FROM context_type_reach WHERE listing = 'category'))"
)


def row_out(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "id": str(row["id"])}


def find_block(
    conn: psycopg.Connection[Any], block_id: str, *, for_update: bool = False
) -> dict[str, Any] | None:
    """The full row of a block by id, or None (no scope check: callers resolved the id);
    ``for_update`` locks it for the caller's transaction."""
    lock = " FOR UPDATE" if for_update else ""
    row = conn.execute(
        f"SELECT {BLOCK_COLUMNS} FROM context_blocks WHERE id = %s{lock}", (block_id,)
    ).fetchone()
    return None if row is None else row_out(row)


def fetch_block(conn: psycopg.Connection[Any], block_id: str) -> dict[str, Any]:
    """The full row of a block known to exist."""
    block = find_block(conn, block_id)
    assert block is not None
    return block


def resolve_id(
    conn: psycopg.Connection[Any], who: Principal, ident: str, *, granted: bool = False
) -> str:
    """Resolve a full id or a unique prefix (4+ hex characters) within the caller's scopes (and,
    with ``granted``, the blocks granted to the caller's tenant: for reading only)."""
    ident = (ident or "").strip().lower()
    if not ID_PREFIX_RE.match(ident):
        raise ValidationError(
            "id must be a block id or a prefix of at least 4 hex characters", field="id"
        )
    rows = conn.execute(
        "SELECT id FROM context_blocks WHERE id::text LIKE %s AND (scope = ANY(%s) "
        "OR (%s AND id IN (SELECT unnest(ctx_granted_blocks(%s::uuid))))) "
        "LIMIT 6",
        (
            ident.replace("%", "") + "%",
            list(who.read_scopes),
            granted and who.tenant_id is not None,
            who.tenant_id,
        ),
    ).fetchall()
    if not rows:
        raise NotFound(f"no block {ident!r} in your scopes")
    if len(rows) > 1:
        shown = ", ".join(str(r["id"])[:12] for r in rows[:5])
        raise Ambiguous(
            f"id prefix {ident!r} matches several blocks ({shown}…); give more characters"
        )
    return str(rows[0]["id"])


def get_block(app: App, who: Principal, ident: str) -> dict[str, Any]:
    """The block ``ident`` names (an id or a prefix), read where ``who``'s call reads."""
    return app.reads(who).run(
        lambda conn: fetch_block(conn, resolve_id(conn, who, ident, granted=True))
    )


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
    rows = app.reads(who).run(
        lambda conn: conn.execute(
            "SELECT id, scope, category, title, block_type, tags, sensitivity, is_archived, "
            "guard_status, length(content) AS content_length, created_at, updated_at "
            "FROM context_blocks WHERE scope = ANY(%(scopes)s) "
            f"AND (%(category)s::text IS NULL OR category = %(category)s) AND {LISTED} "
            "ORDER BY updated_at DESC, id LIMIT %(limit)s OFFSET %(offset)s",
            {
                "scopes": _scopes(who, scope),
                "category": category,
                "limit": limit,
                "offset": offset,
            },
        ).fetchall()
    )
    return [row_out(r) for r in rows]


def block_stats(app: App, who: Principal, scope: str | None = None) -> dict[str, Any]:
    """Counts over the caller's read scopes, or one of them. The blocks, categories, scopes and
    types are the ones listings show (``LISTED``); a governed thread's records (the governor's
    ``thread/...`` categories) are counted apart, as ``governed_threads`` and
    ``governed_records``: they are no categories to file knowledge under."""
    scopes = _scopes(who, scope)
    params = {"scopes": scopes, "category": None}

    def read(conn: psycopg.Connection[Any]) -> tuple[Any, ...]:
        total = conn.execute(
            f"""
            SELECT count(*) FILTER (WHERE listed) AS blocks,
                   count(*) FILTER (WHERE listed AND is_archived) AS archived,
                   count(DISTINCT category) FILTER (WHERE listed) AS categories,
                   max(updated_at) AS last_write,
                   count(DISTINCT category) FILTER (WHERE NOT listed) AS governed_threads,
                   count(*) FILTER (WHERE NOT listed) AS governed_records
              FROM (SELECT category, is_archived, updated_at,
                           coalesce(({LISTED}), false) AS listed  -- NULL category: NULL
                      FROM context_blocks WHERE scope = ANY(%(scopes)s)) b
            """,
            params,
        ).fetchone()
        by_scope = conn.execute(
            "SELECT scope, count(*) AS n FROM context_blocks WHERE scope = ANY(%(scopes)s) "
            f"AND {LISTED} GROUP BY scope ORDER BY scope",
            params,
        ).fetchall()
        by_type = conn.execute(
            "SELECT block_type, count(*) AS n FROM context_blocks WHERE scope = ANY(%(scopes)s) "
            f"AND {LISTED} GROUP BY block_type ORDER BY block_type",
            params,
        ).fetchall()
        return total, by_scope, by_type, pending_for_scopes(conn, scopes)

    total, by_scope, by_type, pending = app.reads(who).run(read)
    assert total is not None
    return {
        **total,
        "pending_jobs": pending,
        "by_scope": {r["scope"]: r["n"] for r in by_scope},
        "by_type": {r["block_type"]: r["n"] for r in by_type},
    }


def block_categories(app: App, who: Principal, scope: str | None = None) -> list[dict[str, Any]]:
    """The categories blocks are filed under (a governed thread's category is none of them)."""
    params = {"scopes": _scopes(who, scope), "category": None}
    return app.reads(who).run(
        lambda conn: conn.execute(
            "SELECT category, count(*) AS blocks, max(updated_at) AS last_write "
            f"FROM context_blocks WHERE scope = ANY(%(scopes)s) AND {LISTED} "
            "GROUP BY category ORDER BY category",
            params,
        ).fetchall()
    )
