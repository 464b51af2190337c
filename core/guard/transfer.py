"""The Guard's state in an export: for each checked block its status, the neighbour its last check
found (decision, similarity, the thresholds it used) and how a person resolved the flag, so an
import keeps every decision and review instead of checking the blocks again.

The embedding generation of a check is not carried (the importing store builds its own
vectors); a neighbour (or cross-scope neighbour) is named only when the export holds it too."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any, Literal

from psycopg.types.json import Jsonb
from pydantic import Field

from ctx.core.blocks import (
    UUID_PATTERN,
    ExportContext,
    RestoreContext,
    TransferLine,
    TransferRecord,
    TransferSection,
    outcome_of,
    skipped,
)

Status = Literal["clean", "needs_review", "near_duplicate", "update", "translation", "reviewed",
                 "merged", "unchecked"]  # fmt: skip
Decision = Literal["near_duplicate", "update", "translation", "needs_review", "clean"]


class GuardLine(TransferLine):
    type: Literal["guard"]
    block_id: str = Field(pattern=UUID_PATTERN)
    status: Status
    checked_at: datetime | None = None
    decision: Decision | None = None
    match_id: str | None = Field(default=None, pattern=UUID_PATTERN)
    similarity: float | None = None
    reason: str = ""
    duplicate_at: float | None = None
    review_at: float | None = None
    cross_match_id: str | None = Field(default=None, pattern=UUID_PATTERN)
    cross_similarity: float | None = None
    matched_at: datetime | None = None
    resolution: Literal["keep_both", "archived", "merged", "unlinked"] | None = None
    resolved_at: datetime | None = None
    resolved_by: str | None = Field(default=None, pattern=UUID_PATTERN)
    details: dict[str, Any] = Field(default_factory=dict)


MATCH = ("match_id", "similarity", "decision", "reason", "duplicate_at", "review_at",
         "cross_match_id", "cross_similarity", "resolution", "resolved_at", "resolved_by",
         "details")  # fmt: skip
UUIDS = ("match_id", "cross_match_id", "resolved_by")

# A neighbour is named only when it is exported too: the id of a block in another scope never
# leaves (the review lists show such a match to admins as a scope and a similarity only).
_EXPORT = """
SELECT b.id::text AS block_id, b.guard_status AS status, b.guard_checked_at AS checked_at,
       o.id::text AS match_id, m.similarity, m.decision, m.reason, m.duplicate_at, m.review_at,
       c.id::text AS cross_match_id, CASE WHEN c.id IS NOT NULL THEN m.cross_similarity END
           AS cross_similarity,
       m.checked_at AS matched_at, m.resolution, m.resolved_at, m.resolved_by::text AS resolved_by,
       m.details
  FROM context_blocks b
  LEFT JOIN context_guard_matches m ON m.block_id = b.id
  LEFT JOIN context_blocks o ON o.id = m.match_id AND o.scope = ANY(%(scopes)s)
  LEFT JOIN context_blocks c ON c.id = m.cross_match_id AND c.scope = ANY(%(scopes)s)
 WHERE b.scope = ANY(%(scopes)s) AND (b.guard_status <> 'pending' OR m.block_id IS NOT NULL)
 ORDER BY b.scope, b.created_at, b.id
"""

_HERE = f"""
SELECT b.guard_status AS status, b.guard_checked_at AS checked_at,
       {", ".join(f"m.{k}::text AS {k}" if k in UUIDS else f"m.{k}" for k in MATCH)},
       m.checked_at AS matched_at
  FROM context_blocks b LEFT JOIN context_guard_matches m ON m.block_id = b.id
 WHERE b.id = %s FOR UPDATE OF b
"""


def export_guard(reader: ExportContext) -> Iterator[dict[str, Any]]:
    for row in reader.rows(_EXPORT):
        line = {k: v for k, v in row.items() if v is not None and v != {}}
        for key in ("checked_at", "matched_at", "resolved_at"):
            if key in line:
                line[key] = line[key].isoformat()
        yield {"type": "guard", **line}


def restore_guard(restore: RestoreContext, line: GuardLine) -> str:
    if (why := restore.unwritable_block(line.block_id)) is not None:
        return skipped(why)
    conn = restore.conn
    wanted = {
        **line.model_dump(exclude={"type", "block_id"}),
        "match_id": restore.block_exists(line.match_id),
        "cross_match_id": restore.block_exists(line.cross_match_id),
    }
    here = conn.execute(_HERE, (line.block_id,)).fetchone()
    outcome = outcome_of(None if here is None else dict(here), wanted)
    if outcome == "unchanged":
        return outcome
    conn.execute(
        "UPDATE context_blocks SET guard_status = %s, guard_checked_at = %s WHERE id = %s",
        (line.status, line.checked_at, line.block_id),
    )
    if line.decision is None:
        conn.execute("DELETE FROM context_guard_matches WHERE block_id = %s", (line.block_id,))
        return outcome
    conn.execute(
        f"""
        INSERT INTO context_guard_matches (block_id, checked_at, {", ".join(MATCH)})
        VALUES (%(block_id)s, %(matched_at)s, {", ".join(f"%({k})s" for k in MATCH)})
        ON CONFLICT (block_id) DO UPDATE SET checked_at = EXCLUDED.checked_at,
            generation = NULL, {", ".join(f"{k} = EXCLUDED.{k}" for k in MATCH)}
        """,
        {
            **wanted,
            "block_id": line.block_id,
            "matched_at": line.matched_at or line.checked_at,
            "details": Jsonb(line.details),
        },
    )
    return outcome


GUARD_SECTION = TransferSection(
    "guard",
    (TransferRecord("guard", GuardLine, restore_guard),),
    export_guard,
    tables=("context_guard_matches",),
)
