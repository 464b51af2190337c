"""Reviewing the Guard's flags: list, stats, and the four resolutions.

- ``keep_both``: the flagged block stays (brought back if the Guard archived it), marked
  ``reviewed``; it is not flagged again while its content is unchanged.
- ``archive``: archive the flagged block (``which="block"``, the default) or the block it
  resembles (``which="match"``).
- ``merge``: the content of one is appended to the other (``which`` names the one that stays),
  whose metadata records where it came from (``merged_from``); the merged-away block is archived
  and marked ``merged``.
- ``unlink``: undo an update or a translation the Guard recorded: its link (``supersedes`` or
  ``translation``) is rejected (never read again, never written again for the pair), both blocks
  stay, the block is marked ``reviewed``.

The open list holds what a person may want to look at or undo: flags (``needs_review``), copies
the Guard archived (``near_duplicate``) and updates it recorded (``update``, with the change in
``details.changes``); translations are listed when asked for by name (``decision``).

A caller sees a flag only when it can read both blocks; resolving needs write access (the home
scope) to every block the resolution changes. Cross-scope matches are listed to admin keys only,
for blocks they can read, with nothing of the other block but its scope and the similarity.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ctx.core.blocks import BlockChanges, fetch_block, resolve_id, set_archived, update_block
from ctx.core.errors import Conflict, NotFound, ValidationError
from ctx.core.guard.check import DECISIONS, LINKED

if TYPE_CHECKING:
    import psycopg

    from ctx.core.access import Principal
    from ctx.core.app import App

RESOLUTIONS = ("keep_both", "archive", "merge", "unlink")
OPEN_DECISIONS = ("needs_review", "near_duplicate", "update")
MAX_LIST = 200

_LIST = """
SELECT m.block_id::text AS block_id, m.match_id::text AS match_id, m.similarity, m.decision,
       m.reason, m.checked_at, m.duplicate_at, m.review_at, m.resolution, m.details,
       b.scope, b.category, b.title, b.is_archived, b.guard_status,
       o.scope AS match_scope, o.category AS match_category, o.title AS match_title,
       o.is_archived AS match_archived
  FROM context_guard_matches m
  JOIN context_blocks b ON b.id = m.block_id
  JOIN context_blocks o ON o.id = m.match_id
 WHERE b.scope = ANY(%(scopes)s) AND o.scope = ANY(%(scopes)s)
   AND (%(all)s OR (m.resolution IS NULL
                    AND (m.decision = ANY(%(open)s) OR m.decision = %(decision)s)))
   AND (%(decision)s::text IS NULL OR m.decision = %(decision)s)
 ORDER BY m.checked_at DESC, m.block_id
 LIMIT %(limit)s
"""

# Cross-scope matches, for admins: the flagged block (in a scope the admin reads), and of the
# other block only its scope and the similarity. The admin bit never widens read scopes.
_CROSS = """
SELECT m.block_id::text AS block_id, b.title, b.scope, m.cross_similarity AS similarity,
       m.checked_at, o.scope AS match_scope
  FROM context_guard_matches m
  JOIN context_blocks b ON b.id = m.block_id
  JOIN context_blocks o ON o.id = m.cross_match_id
 WHERE b.scope = ANY(%(scopes)s)
 ORDER BY m.checked_at DESC LIMIT %(limit)s
"""


def list_flags(
    app: App,
    who: Principal,
    *,
    decision: str | None = None,
    include_resolved: bool = False,
    cross_scope: bool = False,
    limit: int = 50,
) -> list[dict[str, Any]]:
    """The Guard's open flags (or all checks with a match) the caller may see, newest first."""
    if decision is not None and decision not in DECISIONS:
        raise ValidationError(f"decision must be one of {', '.join(DECISIONS)}", field="decision")
    limit = max(1, min(int(limit), MAX_LIST))
    with app.connection() as conn:
        if cross_scope:
            who.require_admin()
            cross = conn.execute(_CROSS, {"scopes": list(who.read_scopes), "limit": limit})
            return [dict(r) for r in cross.fetchall()]
        rows = conn.execute(
            _LIST,
            {
                "scopes": list(who.read_scopes),
                "all": include_resolved,
                "open": list(OPEN_DECISIONS),
                "decision": decision,
                "limit": limit,
            },
        ).fetchall()
    return [dict(r) for r in rows]


def guard_stats(app: App, who: Principal) -> dict[str, Any]:
    """Blocks by Guard status, open flags and the last day's decisions, over readable scopes."""
    scopes = list(who.read_scopes)
    with app.connection() as conn:
        status = conn.execute(
            "SELECT guard_status, count(*) AS n FROM context_blocks WHERE scope = ANY(%s) "
            "GROUP BY guard_status ORDER BY guard_status",
            (scopes,),
        ).fetchall()
        open_flags = conn.execute(
            "SELECT m.decision, count(*) AS n FROM context_guard_matches m "
            "JOIN context_blocks b ON b.id = m.block_id "
            "JOIN context_blocks o ON o.id = m.match_id "
            "WHERE b.scope = ANY(%s) AND o.scope = ANY(%s) AND m.resolution IS NULL "
            "AND m.decision = ANY(%s) GROUP BY m.decision",
            (scopes, scopes, list(OPEN_DECISIONS)),
        ).fetchall()
        recent = conn.execute(
            "SELECT w.detail->>'decision' AS decision, count(*) AS n FROM context_write_log w "
            "WHERE w.action = 'guard.decision' AND w.scope = ANY(%s) "
            "AND w.at > now() - interval '1 day' GROUP BY 1",
            (scopes,),
        ).fetchall()
        queued = conn.execute(
            "SELECT status, count(*) AS n FROM context_jobs WHERE kind = 'guard' GROUP BY status"
        ).fetchall()
    return {
        "blocks": {r["guard_status"]: r["n"] for r in status},
        "open": {r["decision"]: r["n"] for r in open_flags},
        "last_day": {r["decision"]: r["n"] for r in recent},
        "jobs": {r["status"]: r["n"] for r in queued} if who.is_admin else None,
    }


def _flag(app: App, who: Principal, ident: str) -> dict[str, Any]:
    with app.connection() as conn:
        block_id = resolve_id(conn, who, ident)
        row = conn.execute(
            "SELECT m.block_id::text AS block_id, m.match_id::text AS match_id, m.decision, "
            "m.resolution, o.scope AS match_scope FROM context_guard_matches m "
            "LEFT JOIN context_blocks o ON o.id = m.match_id WHERE m.block_id = %s",
            (block_id,),
        ).fetchone()
    if row is None or row["decision"] == "clean" or row["match_id"] is None:
        raise NotFound(f"block {ident!r} has no Guard flag")
    if not who.can_read(row["match_scope"]):
        raise NotFound(f"block {ident!r} has no Guard flag")
    if row["resolution"] is not None:
        raise Conflict(f"the flag of block {ident!r} is already resolved ({row['resolution']})")
    return dict(row)


def _settle(app: App, who: Principal, block_id: str, resolution: str, status: str) -> None:
    with app.connection() as conn:
        _settle_in(conn, who, block_id, resolution, status)


def _settle_in(
    conn: psycopg.Connection[Any], who: Principal, block_id: str, resolution: str, status: str
) -> None:
    conn.execute(
        "UPDATE context_guard_matches SET resolution = %s, resolved_at = now(), "
        "resolved_by = %s WHERE block_id = %s",
        (resolution, who.key_id, block_id),
    )
    conn.execute("UPDATE context_blocks SET guard_status = %s WHERE id = %s", (status, block_id))
    conn.execute(
        "INSERT INTO context_write_log (api_key_id, action, block_id, scope, detail) "
        "SELECT %s, 'guard.resolved', id, scope, jsonb_build_object('resolution', %s::text) "
        "FROM context_blocks WHERE id = %s",
        (who.key_id, resolution, block_id),
    )


def _merge(app: App, who: Principal, keep_id: str, gone_id: str) -> dict[str, Any]:
    with app.connection() as conn:
        keep, gone = fetch_block(conn, keep_id), fetch_block(conn, gone_id)
    for b in (keep, gone):
        who.require_write(b["scope"])
    content = keep["content"]
    if gone["content"].strip() and gone["content"].strip() not in content:
        content = content.rstrip() + "\n\n" + gone["content"].strip()
    merged_from = list((keep.get("metadata") or {}).get("merged_from") or [])
    merged_from.append(
        {
            "id": gone["id"],
            "title": gone["title"],
            "category": gone["category"],
            "at": datetime.now(UTC).isoformat(timespec="seconds"),
        }
    )
    meta = {**(keep.get("metadata") or {}), "merged_from": merged_from}
    tags = list(dict.fromkeys([*keep["tags"], *gone["tags"]]))
    changes = BlockChanges.model_validate({"content": content, "metadata": meta, "tags": tags})
    update_block(app, who, keep_id, changes)
    if not gone["is_archived"]:
        set_archived(app, who, gone_id, True)
    return {"kept": keep_id, "merged": gone_id}


def resolve_flag(
    app: App, who: Principal, ident: str, resolution: str, which: str = "block"
) -> dict[str, Any]:
    """Resolve the Guard flag of block ``ident``; ``which`` is ``block`` (the flagged one) or
    ``match`` (the one it resembles): for ``archive`` the one archived, for ``merge`` the one
    that stays."""
    if resolution not in RESOLUTIONS:
        raise ValidationError(
            f"resolution must be one of {', '.join(RESOLUTIONS)}", field="resolution"
        )
    if which not in ("block", "match"):
        raise ValidationError("which must be block or match", field="which")
    flag = _flag(app, who, ident)
    block_id, match_id = flag["block_id"], flag["match_id"]
    out: dict[str, Any] = {"block_id": block_id, "match_id": match_id, "resolution": resolution}
    if resolution == "unlink":
        out["unlinked"] = _unlink(app, who, flag)
    elif resolution == "keep_both":
        who.require_write(_scope(app, block_id))
        with app.connection() as conn:
            archived = fetch_block(conn, block_id)["is_archived"]
        if archived:
            set_archived(app, who, block_id, False)
        _settle(app, who, block_id, "keep_both", "reviewed")
    elif resolution == "archive":
        target, other = (block_id, match_id) if which == "block" else (match_id, block_id)
        who.require_write(_scope(app, other))
        set_archived(app, who, target, True)
        _bring_back(app, who, other)  # the one that stays is visible
        out["archived"] = target
        _settle(app, who, block_id, "archived", "reviewed")
    else:
        keep, gone = (block_id, match_id) if which == "block" else (match_id, block_id)
        who.require_write(_scope(app, keep))
        _bring_back(app, who, keep)
        out.update(_merge(app, who, keep, gone))
        _settle(app, who, block_id, "merged", "merged" if gone == block_id else "reviewed")
        if gone != block_id:
            with app.connection() as conn:
                conn.execute(
                    "UPDATE context_blocks SET guard_status = 'merged' WHERE id = %s", (gone,)
                )
    return out


def _unlink(app: App, who: Principal, flag: dict[str, Any]) -> int:
    """Reject the link the Guard wrote for an update or a translation; settle the flag."""
    link_type = LINKED.get(flag["decision"])
    if link_type is None:
        raise Conflict(f"unlink undoes an update or a translation; this flag is {flag['decision']}")
    who.require_write(_scope(app, flag["block_id"]))
    ends = [flag["block_id"], flag["match_id"]]
    with app.connection() as conn:
        row = conn.execute(
            "UPDATE context_links SET status = 'rejected', reviewed_at = now(), reviewed_by = %s "
            "WHERE link_type = %s AND origin = 'guard' AND status <> 'rejected' "
            "AND source_id = ANY(%s::uuid[]) AND target_id = ANY(%s::uuid[]) RETURNING id",
            (who.key_id, link_type, ends, ends),
        ).fetchone()
        if row is not None:
            conn.execute(
                "INSERT INTO context_write_log (api_key_id, action, block_id, scope, detail) "
                "SELECT %s, 'link.rejected', id, scope, jsonb_build_object('link_id', %s::bigint) "
                "FROM context_blocks WHERE id = %s",
                (who.key_id, row["id"], flag["block_id"]),
            )
        _settle_in(conn, who, flag["block_id"], "unlinked", "reviewed")
    return int(row["id"]) if row is not None else 0


def _bring_back(app: App, who: Principal, block_id: str) -> None:
    with app.connection() as conn:
        archived = fetch_block(conn, block_id)["is_archived"]
    if archived:
        set_archived(app, who, block_id, False)


def _scope(app: App, block_id: str) -> str:
    with app.connection() as conn:
        return str(fetch_block(conn, block_id)["scope"])
