"""Links between blocks: what Dream writes and people review.

A link reads source -> target. ``supersedes``: the source is the newer block and replaces a fact of
the target (the convention the seed settled on after finding every inverted link in production).
``causal``: the source's event or decision led to the target; ``factual``: the source specifies
what the target implements; ``topical``: both treat the same subject (the fallback);
``recurrent``: both are occurrences of one recurring event; ``translation``: the source says what
the target says in another language (the Guard writes it, origin ``guard``, as it writes the
``supersedes`` link of an update it recognises; ctx.core.guard.check).

Deleting a link in review keeps it as ``rejected``: it is never read as a link again, and Dream does
not make it again. Every reader filters both ends by the caller's read scopes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ctx.core.errors import NotFound, ValidationError

if TYPE_CHECKING:
    import psycopg

    from ctx.core.access import Principal
    from ctx.core.app import App

LINK_TYPES = ("supersedes", "causal", "factual", "topical", "recurrent", "translation")
SYMMETRIC = frozenset({"topical", "recurrent"})
LIVE = "status <> 'rejected'"
MAX_LIST = 200


def link_rows(
    conn: psycopg.Connection[Any],
    ids: Sequence[str],
    scopes: Sequence[str],
    *,
    types: Sequence[str] = LINK_TYPES,
    min_confidence: float = 0.0,
    limit: int | None = None,
) -> list[dict[str, Any]]:
    """Live links touching any of ``ids`` whose both ends are readable and not archived (the
    ``limit`` most confident when given)."""
    if not ids:
        return []
    rows = conn.execute(
        f"""
        SELECT l.id, l.source_id::text AS source_id, l.target_id::text AS target_id,
               l.link_type, l.confidence, l.status
          FROM context_links l
          JOIN context_blocks s ON s.id = l.source_id
          JOIN context_blocks t ON t.id = l.target_id
         WHERE (l.source_id = ANY(%(ids)s::uuid[]) OR l.target_id = ANY(%(ids)s::uuid[]))
           AND l.{LIVE} AND l.link_type = ANY(%(types)s) AND l.confidence >= %(min)s
           AND s.scope = ANY(%(scopes)s) AND t.scope = ANY(%(scopes)s)
           AND NOT s.is_archived AND NOT t.is_archived
         ORDER BY l.confidence DESC, l.id
         LIMIT %(limit)s
        """,
        {
            "ids": list(ids),
            "scopes": list(scopes),
            "types": list(types),
            "min": min_confidence,
            "limit": limit,
        },
    ).fetchall()
    return [dict(r) for r in rows]


def superseders(
    conn: psycopg.Connection[Any], ids: Sequence[str], scopes: Sequence[str], min_confidence: float
) -> dict[str, list[str]]:
    """For each of ``ids`` that something supersedes: the newer blocks that do (readable ones)."""
    out: dict[str, list[str]] = {}
    for r in link_rows(conn, ids, scopes, types=("supersedes",), min_confidence=min_confidence):
        if r["target_id"] in ids:
            out.setdefault(r["target_id"], []).append(r["source_id"])
    return out


def known_pairs(conn: psycopg.Connection[Any], block_id: str) -> set[str]:
    """Blocks already linked with ``block_id`` in either direction, rejected links included."""
    rows = conn.execute(
        "SELECT target_id::text AS other FROM context_links WHERE source_id = %(id)s "
        "UNION SELECT source_id::text FROM context_links WHERE target_id = %(id)s",
        {"id": block_id},
    ).fetchall()
    return {r["other"] for r in rows}


def write_link(
    conn: psycopg.Connection[Any],
    source_id: str,
    target_id: str,
    link_type: str,
    confidence: float,
    *,
    origin: str = "dream",
    pipeline_version: int | None = None,
    note: str = "",
) -> int | None:
    """Insert (or raise the confidence of) a link; None when a person rejected it before or
    a symmetric link already runs the other way."""
    if link_type not in LINK_TYPES:
        raise ValidationError(f"link type must be one of {', '.join(LINK_TYPES)}", field="type")
    if (
        link_type in SYMMETRIC
        and conn.execute(
            "SELECT 1 FROM context_links WHERE source_id = %s AND target_id = %s AND link_type = %s",
            (target_id, source_id, link_type),
        ).fetchone()
    ):
        return None
    row = conn.execute(
        "SELECT ctx_write_link(%s::uuid, %s::uuid, %s::text, %s::real, %s::text, %s::integer, "
        "%s::text) AS id",
        (source_id, target_id, link_type, confidence, origin, pipeline_version, note),
    ).fetchone()
    return int(row["id"]) if row and row["id"] is not None else None


_LIST = f"""
SELECT l.id, l.source_id::text AS source_id, s.title AS source_title,
       l.target_id::text AS target_id, t.title AS target_title, l.link_type, l.confidence,
       l.origin, l.status, l.pipeline_version, l.note, l.created_at, l.reviewed_at
  FROM context_links l
  JOIN context_blocks s ON s.id = l.source_id
  JOIN context_blocks t ON t.id = l.target_id
 WHERE s.scope = ANY(%(scopes)s) AND t.scope = ANY(%(scopes)s)
   AND (%(status)s::text IS NULL AND l.{LIVE} OR l.status = %(status)s)
   AND (%(type)s::text IS NULL OR l.link_type = %(type)s)
   AND (%(block)s::uuid IS NULL OR l.source_id = %(block)s::uuid OR l.target_id = %(block)s::uuid)
 ORDER BY l.created_at DESC, l.id DESC
 LIMIT %(limit)s
"""


def list_links(
    app: App,
    who: Principal,
    *,
    status: str | None = None,
    link_type: str | None = None,
    block_id: str | None = None,
    limit: int = 50,
) -> list[dict[str, Any]]:
    """Links the caller can see (both ends readable), newest first."""
    if status is not None and status not in ("active", "confirmed", "rejected"):
        raise ValidationError("status must be active, confirmed or rejected", field="status")
    if link_type is not None and link_type not in LINK_TYPES:
        raise ValidationError(f"type must be one of {', '.join(LINK_TYPES)}", field="type")
    params = {
        "scopes": list(who.read_scopes),
        "status": status,
        "type": link_type,
        "block": block_id,
        "limit": max(1, min(int(limit), MAX_LIST)),
    }
    with app.connection() as conn:
        return [dict(r) for r in conn.execute(_LIST, params).fetchall()]


def review_link(app: App, who: Principal, link_id: int, action: str) -> dict[str, Any]:
    """``confirm`` or ``delete`` (kept as rejected) a link; the caller must be able to write the
    link's source block (its home scope) and read both ends."""
    if action not in ("confirm", "delete"):
        raise ValidationError("action must be confirm or delete", field="action")
    with app.connection() as conn:
        row = conn.execute(
            "SELECT l.id, l.status, s.scope AS source_scope, t.scope AS target_scope, "
            "l.source_id::text AS source_id "
            "FROM context_links l JOIN context_blocks s ON s.id = l.source_id "
            "JOIN context_blocks t ON t.id = l.target_id WHERE l.id = %s FOR UPDATE OF l",
            (link_id,),
        ).fetchone()
        if row is None or not (
            who.can_read(row["source_scope"]) and who.can_read(row["target_scope"])
        ):
            raise NotFound(f"no link {link_id} in your scopes")
        who.require_write(row["source_scope"])
        status = "confirmed" if action == "confirm" else "rejected"
        conn.execute(
            "UPDATE context_links SET status = %s, reviewed_at = now(), reviewed_by = %s "
            "WHERE id = %s",
            (status, who.key_id, link_id),
        )
        conn.execute(
            "INSERT INTO context_write_log (api_key_id, action, block_id, scope, detail) "
            "VALUES (%s, %s, %s, %s, jsonb_build_object('link_id', %s::bigint))",
            (who.key_id, f"link.{status}", row["source_id"], row["source_scope"], link_id),
        )
    return {"id": link_id, "status": status}
