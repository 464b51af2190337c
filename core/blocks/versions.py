"""A block's versions (issue 36): a write that changes what a block says keeps the state it
replaces in ``context_block_versions``, in the write's transaction; the block row stays the current
version.

What makes a new version: a change of the content, title, category, tags, type or own date
(``VERSIONED``). Metadata and sensitivity alone change the current version in place: plugins
annotate metadata on writes, and a version is about what the block says. The current version's
number is one more than the last one kept, and it began when that one ended (else when the block
was created). ``blocks.versions_kept`` keeps the newest N past versions of each block (0: all).

Reading follows the block history's rules (``history``): the block must be in the caller's read
scopes, and a key is named only to its own tenant.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from ctx.core.blocks.history import KEY_NAME
from ctx.core.blocks.read import resolve_id
from ctx.core.blocks.schemas import VersionsRequest
from ctx.core.errors import NotFound, ValidationError

if TYPE_CHECKING:
    import psycopg

    from ctx.core.access import Principal
    from ctx.core.app import App
    from ctx.core.blocks.write import BlockWrite

#: The fields whose change makes a new version (by the write's row values).
VERSIONED = ("content_hash", "title", "category", "tags", "block_type", "occurred_at")
#: The key whose write made a block's current state (the write log's last store or edit of it).
LAST_WRITER = (
    "SELECT w.api_key_id FROM context_write_log w WHERE w.block_id = b.id "
    "AND w.action IN ('block.created', 'block.updated') ORDER BY w.at DESC, w.id DESC LIMIT 1"
)
#: What a version holds of the block, as stored.
COLUMNS = ("category", "title", "content", "block_type", "tags", "metadata", "sensitivity",
           "occurred_at", "content_hash")  # fmt: skip
_SNAPSHOT = ", ".join(COLUMNS)


def makes_version(previous: dict[str, Any] | None, write: BlockWrite) -> bool:
    """True when ``write`` replaces a stored state (``previous``, the block's row) with one that
    says something else."""
    if previous is None:
        return False
    now = {
        "content_hash": write.content_hash,
        "title": write.title,
        "category": write.category,
        "tags": list(dict.fromkeys(write.tags)),
        "block_type": write.spec.name,
        "occurred_at": write.occurred_at,
    }
    return any(_differs(previous[k], now[k]) for k in VERSIONED)


def _differs(before: Any, after: Any) -> bool:
    if isinstance(before, (list, tuple)):
        return list(before) != list(after)
    return bool(before != after)


def keep_version(app: App, conn: psycopg.Connection[Any], block_id: str) -> None:
    """In the write's transaction, before the row changes: copy the block's current state into
    its versions (numbered after the last kept, from the end of that one or the block's creation
    until now, by the key whose write made it), then drop what ``blocks.versions_kept`` no longer
    keeps."""
    conn.execute(
        f"""
        INSERT INTO context_block_versions
            (block_id, version, {_SNAPSHOT}, valid_from, valid_to, api_key_id)
        SELECT b.id, coalesce(v.last, 0) + 1, {", ".join("b." + c for c in COLUMNS)},
               least(coalesce(v.until, b.created_at), now()), now(),
               ({LAST_WRITER})
          FROM context_blocks b,
               LATERAL (SELECT max(version) AS last, max(valid_to) AS until
                          FROM context_block_versions WHERE block_id = b.id) v
         WHERE b.id = %s
        """,
        (block_id,),
    )
    kept = int(app.settings["blocks.versions_kept"])
    if kept > 0:
        conn.execute(
            "DELETE FROM context_block_versions WHERE block_id = %(id)s AND version <= "
            "(SELECT max(version) FROM context_block_versions WHERE block_id = %(id)s) - %(kept)s",
            {"id": block_id, "kept": kept},
        )


# -- reading ----------------------------------------------------------------------------------------

_CURRENT = f"""
SELECT b.scope, coalesce(v.last, 0) + 1 AS version, {", ".join("b." + c for c in COLUMNS)},
       coalesce(v.until, b.created_at) AS valid_from, NULL::timestamptz AS valid_to,
       {KEY_NAME} AS key, true AS current
  FROM context_blocks b
  CROSS JOIN LATERAL (SELECT max(version) AS last, max(valid_to) AS until
                        FROM context_block_versions WHERE block_id = b.id) v
  LEFT JOIN context_api_keys k ON k.id = ({LAST_WRITER})
 WHERE b.id = %(id)s
"""
_PAST = f"""
SELECT v.version, {", ".join("v." + c for c in COLUMNS)},
       v.valid_from, v.valid_to, {KEY_NAME} AS key, false AS current
  FROM context_block_versions v
  LEFT JOIN context_api_keys k ON k.id = v.api_key_id
 WHERE v.block_id = %(id)s
"""


def _rows(conn: psycopg.Connection[Any], who: Principal, sql: str, **params: Any) -> list[Any]:
    return conn.execute(sql, {"tenant": who.tenant_id, **params}).fetchall()


def block_versions(app: App, who: Principal, req: VersionsRequest) -> dict[str, Any]:
    """Every version of one block of the caller's read scopes, newest (the current) first."""
    with app.connection() as conn:
        block_id = resolve_id(conn, who, req.id)
        current = _rows(conn, who, _CURRENT, id=block_id)[0]
        past = _rows(
            conn, who, _PAST + " ORDER BY v.version DESC LIMIT %(limit)s", id=block_id,
            limit=req.limit - 1,
        ) if req.limit > 1 else []  # fmt: skip
    versions = [_out(r) for r in (current, *past)]
    return {
        "id": block_id,
        "scope": current["scope"],
        "title": current["title"],
        "current": current["version"],
        "versions": versions,
        "count": len(versions),
    }


def _out(row: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in row.items() if k != "scope"}
    out["tags"] = list(row["tags"])
    return out


def version_of(
    app: App, who: Principal, ident: str, *, version: int | None, at: datetime | None
) -> dict[str, Any]:
    """One version of a block of the caller's read scopes: by number, or the one current at
    ``at`` (the current version when it already was). ``NotFound`` names what is not kept."""
    with app.connection() as conn:
        block_id = resolve_id(conn, who, ident)
        current = _rows(conn, who, _CURRENT, id=block_id)[0]
        if version is not None:
            if version == current["version"]:
                return _out(current) | {"id": block_id}
            if version > current["version"]:
                raise ValidationError(
                    f"version {version} is newer than the block's current version "
                    f"{current['version']}",
                    field="version",
                )
            found = _rows(conn, who, _PAST + " AND v.version = %(n)s", id=block_id, n=version)
            what = f"version {version}"
        else:
            assert at is not None
            if at >= current["valid_from"]:
                return _out(current) | {"id": block_id}
            found = _rows(
                conn, who, _PAST + " AND v.valid_from <= %(at)s AND %(at)s < v.valid_to",
                id=block_id, at=at,
            )  # fmt: skip
            what = f"a version current at {at.isoformat()}"
    if not found:
        raise NotFound(
            f"block {block_id} keeps no {what} (it did not exist yet, or blocks.versions_kept "
            "let it go)"
        )
    return _out(found[0]) | {"id": block_id}


def versions_at(
    conn: psycopg.Connection[Any], block_ids: list[str], at: datetime
) -> dict[str, dict[str, Any]]:
    """For the blocks whose current version began after ``at``: the version current at ``at``
    (when it is kept), by block id. One statement for every block."""
    rows = conn.execute(
        f"""
        SELECT v.block_id::text AS id, v.version, {", ".join("v." + c for c in COLUMNS)},
               v.valid_from, v.valid_to
          FROM context_block_versions v
         WHERE v.block_id = ANY(%s::uuid[]) AND v.valid_from <= %s AND %s < v.valid_to
        """,
        (block_ids, at, at),
    ).fetchall()
    return {r["id"]: dict(r) for r in rows}
