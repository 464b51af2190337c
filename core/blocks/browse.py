"""Browsing blocks as people do: newest first a page at a time, narrowed by facets, with the
facet values and their counts, and what a block's detail view shows beside its row.

Pages are keyset pages (``(updated_at, id)`` cursors), never OFFSET: a page deep in a large store
costs what the first one costs, and a write between two pages neither repeats nor skips a row of
the pages already seen. Everything is filtered to the caller's read scopes inside the SQL, and
blocks of a ``private`` type (a governed thread's events) stay out unless their category is named,
as in ``manage``'s ``list``.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pydantic import Field

from ctx.core.access import Principal
from ctx.core.blocks.read import LISTED, resolve_id, row_out
from ctx.core.errors import ValidationError
from ctx.core.validation import Strict

if TYPE_CHECKING:
    import psycopg

    from ctx.core.app import App

MAX_TAG_FACETS = 50
MAX_CATEGORY_FACETS = 200
LIST_COLUMNS = (
    "id, scope, category, title, block_type, tags, sensitivity, is_archived, guard_status, "
    "length(content) AS content_length, created_at, updated_at"
)


class BrowseRequest(Strict):
    """One page of blocks. ``before`` pages to older blocks, ``after`` to newer ones (cursors
    from an earlier answer); ``archived`` lists the archived blocks instead of the live ones."""

    limit: int = Field(default=20, ge=1, le=100)
    before: str | None = Field(default=None, max_length=100)
    after: str | None = Field(default=None, max_length=100)
    category: str | None = Field(default=None, max_length=100)
    tag: str | None = Field(default=None, max_length=100)
    scope: str | None = Field(default=None, max_length=50)
    block_type: str | None = Field(default=None, max_length=50)
    archived: bool = False


def cursor_of(row: dict[str, Any]) -> str:
    """The keyset position of a listed row: ``<updated_at ISO 8601>|<id>``."""
    return f"{row['updated_at'].isoformat()}|{row['id']}"


def parse_cursor(cursor: str, field: str) -> tuple[datetime, str]:
    when, _, ident = cursor.partition("|")
    try:
        at = datetime.fromisoformat(when)
        block_id = str(uuid.UUID(ident))
    except ValueError:
        raise ValidationError(
            f"{field} is not a page cursor (it comes from a page's Newer/Older link)", field=field
        ) from None
    if at.tzinfo is None:
        raise ValidationError(f"{field} is not a page cursor (no time zone)", field=field)
    return at, block_id


def _filters(who: Principal, req: BrowseRequest) -> tuple[str, dict[str, Any]]:
    scopes = who.scopes_for([req.scope] if req.scope else None)
    sql = (
        "scope = ANY(%(scopes)s) AND is_archived = %(archived)s "
        "AND (%(category)s::text IS NULL OR category = %(category)s) "
        f"AND {LISTED} "
        "AND (%(type)s::text IS NULL OR block_type = %(type)s) "
        "AND (%(tag)s::text IS NULL OR tags @> ARRAY[%(tag)s::text])"
    )
    params = {
        "scopes": scopes,
        "archived": req.archived,
        "category": req.category,
        "type": req.block_type,
        "tag": req.tag,
    }
    return sql, params


def browse_blocks(app: App, who: Principal, req: BrowseRequest) -> dict[str, Any]:
    """A page of blocks, newest first: ``{blocks, older, newer}`` where ``older``/``newer`` are
    the cursors of the neighbouring pages (None at either end). Listings carry no content."""
    if req.before and req.after:
        raise ValidationError("give before or after, not both", field="after")
    where, params = _filters(who, req)
    params["limit"] = req.limit + 1  # one more tells whether a further page exists
    forward = not req.after  # toward older blocks, the natural direction
    cursor = req.before if forward else req.after
    if cursor:
        at, block_id = parse_cursor(cursor, "before" if forward else "after")
        params.update(at=at, id=block_id)
        # a row-value comparison in the ORDER BY's direction: (updated_at, id) is read on from
        # the cursor, as an index on those columns would be
        where += f" AND (updated_at, id) {'<' if forward else '>'} (%(at)s, %(id)s)"
    order = "updated_at DESC, id DESC" if forward else "updated_at ASC, id ASC"
    rows = app.reads(who).run(
        lambda conn: conn.execute(
            f"SELECT {LIST_COLUMNS} FROM context_blocks WHERE {where} "
            f"ORDER BY {order} LIMIT %(limit)s",
            params,
        ).fetchall()
    )
    more = len(rows) > req.limit
    if not forward and not more:  # back at the newest blocks: that is the first page
        return browse_blocks(app, who, req.model_copy(update={"after": None}))
    items = [row_out(r) for r in rows[: req.limit]]
    if not forward:
        items.reverse()
    first, last = (cursor_of(items[0]), cursor_of(items[-1])) if items else (None, None)
    if forward:
        return {
            "blocks": items,
            "newer": first if req.before else None,
            "older": last if more else None,
        }
    return {"blocks": items, "newer": first, "older": last}


def block_facets(app: App, who: Principal, *, archived: bool = False) -> dict[str, Any]:
    """The values a listing can be narrowed by, with their counts over the caller's read scopes:
    ``{scopes, categories, types, tags}``, each a list of ``{value, n}`` (every readable scope,
    even an empty one; the most used tags). Private types' blocks are not counted."""
    scopes = list(who.read_scopes)
    where = f"scope = ANY(%(scopes)s) AND is_archived = %(archived)s AND {LISTED}"
    # no category named: a type listed only in its category is not counted
    params = {"scopes": scopes, "archived": archived, "category": None, "tags": MAX_TAG_FACETS}

    def read(conn: psycopg.Connection[Any]) -> tuple[list[Any], list[Any]]:
        grouped = conn.execute(
            "SELECT scope, category, block_type, count(*) AS n FROM context_blocks "
            f"WHERE {where} GROUP BY GROUPING SETS ((scope), (category), (block_type))",
            params,
        ).fetchall()
        tags = conn.execute(
            "SELECT tag AS value, count(*) AS n FROM context_blocks, unnest(tags) AS tag "
            f"WHERE {where} GROUP BY tag ORDER BY n DESC, tag LIMIT %(tags)s",
            params,
        ).fetchall()
        return grouped, tags

    grouped, tags = app.reads(who).run(read)
    by: dict[str, dict[str, int]] = {"scope": {}, "category": {}, "block_type": {}}
    for row in grouped:
        for column, counts in by.items():
            if row[column] is not None:
                counts[row[column]] = row["n"]
    categories = sorted(by["category"].items())[:MAX_CATEGORY_FACETS]
    return {
        "scopes": [{"value": s, "n": by["scope"].get(s, 0)} for s in sorted(scopes)],
        "categories": [{"value": c, "n": n} for c, n in categories],
        "types": [{"value": t, "n": n} for t, n in sorted(by["block_type"].items())],
        "tags": [dict(r) for r in tags],
    }


def block_summaries(app: App, who: Principal, ids: list[str]) -> dict[str, dict[str, Any]]:
    """The listing rows of ``ids`` that the caller can read, by id (to show search hits with
    the same columns as a listing)."""
    if not ids:
        return {}
    rows = app.reads(who).run(
        lambda conn: conn.execute(
            f"SELECT {LIST_COLUMNS} FROM context_blocks "
            "WHERE id = ANY(%s::uuid[]) AND scope = ANY(%s)",
            (ids, list(who.read_scopes)),
        ).fetchall()
    )
    return {str(r["id"]): row_out(r) for r in rows}


def block_context(app: App, who: Principal, ident: str) -> dict[str, Any]:
    """What a block's detail view shows beside its row: ``dates`` (its temporal anchors: the
    days it is about, each with its source ``own``, ``content`` or ``relative``) and ``guard``
    (the Guard's latest match when the matched block is readable, else None).

    The rows belong to the temporal and Guard capabilities, which sit beside and above blocks in
    the layers; reading their tables here keeps the detail to one call for every surface."""

    def read(conn: psycopg.Connection[Any]) -> tuple[list[Any], Any]:
        block_id = resolve_id(conn, who, ident)
        dates = conn.execute(
            "SELECT source_date AS day, source FROM context_temporal WHERE block_id = %s "
            "GROUP BY source_date, source ORDER BY source_date, source",
            (block_id,),
        ).fetchall()
        guard = conn.execute(
            "SELECT m.decision, m.similarity, m.reason, m.checked_at, m.resolution, "
            "m.resolved_at, m.match_id::text AS match_id, o.title AS match_title, "
            "o.scope AS match_scope FROM context_guard_matches m "
            "LEFT JOIN context_blocks o ON o.id = m.match_id WHERE m.block_id = %s",
            (block_id,),
        ).fetchone()
        return dates, guard

    dates, guard = app.reads(who).run(read)
    if guard is not None and guard["match_id"] and not who.can_read(guard["match_scope"]):
        guard = None  # like the Guard's own flag list: the other block is not the caller's
    return {
        "dates": [dict(r) for r in dates],
        "guard": dict(guard) if guard is not None else None,
    }


def block_at_key(app: App, who: Principal, category: str, title: str) -> str | None:
    """The id of the block stored in the caller's home scope under ``category`` and ``title``
    (a store of that key replaces it), or None: a create form asks before replacing one."""
    row = app.reads(who).run(
        lambda conn: conn.execute(
            "SELECT id FROM context_blocks WHERE scope = %s AND category = %s AND title = %s",
            (who.home_scope, category.strip(), title.strip()),
        ).fetchone()
    )
    return None if row is None else str(row["id"])
