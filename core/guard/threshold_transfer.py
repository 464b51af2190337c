"""Guard thresholds in an admin export: each row of ``context_guard_thresholds`` with its block
type (or every type) and the embedding generation it was set for, named by what the generation
is (provider, model, dimensions), since generation numbers are each server's own. An import sets
the row for this server's generation of that model (the active one first); a server without one
skips the row and says so (set the thresholds again once that model has a generation here)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from ctx.core.blocks import ExportContext, RestoreContext
from ctx.core.runtime import TransferLine, TransferRecord, TransferSection, outcome_of, skipped


class ThresholdLine(TransferLine):
    type: Literal["guard_threshold"]
    block_type: str | None = Field(default=None, max_length=50)
    provider: str
    model: str
    dimensions: int
    duplicate: float = Field(ge=0, le=1)
    review: float = Field(ge=0, le=1)
    updated_at: datetime

    def ref(self) -> str:
        return f"{self.block_type or 'every type'} / {self.provider}:{self.model}"


_EXPORT = """
SELECT t.block_type, g.provider, g.model, g.dimensions, t.duplicate, t.review, t.updated_at
  FROM context_guard_thresholds t JOIN context_embedding_generations g ON g.id = t.generation
 ORDER BY g.provider, g.model, g.dimensions, t.block_type NULLS FIRST
"""


def export_thresholds(reader: ExportContext) -> Iterator[dict[str, Any]]:
    for row in reader.rows(_EXPORT):
        yield {"type": "guard_threshold", **row, "updated_at": row["updated_at"].isoformat()}


def restore_threshold(restore: RestoreContext, line: ThresholdLine) -> str:
    conn = restore.conn
    generation = conn.execute(
        "SELECT id FROM context_embedding_generations WHERE provider = %s AND model = %s "
        "AND dimensions = %s ORDER BY status = 'active' DESC, id DESC LIMIT 1",
        (line.provider, line.model, line.dimensions),
    ).fetchone()
    if generation is None:
        return skipped(
            f"no embedding generation of {line.provider}:{line.model} ({line.dimensions} "
            "dimensions) here"
        )
    if (
        line.block_type is not None
        and not conn.execute(
            "SELECT 1 FROM context_block_types WHERE name = %s", (line.block_type,)
        ).fetchone()
    ):
        return skipped(f"no block type {line.block_type!r} here")
    if line.review > line.duplicate:
        return skipped(f"review ({line.review}) is above duplicate ({line.duplicate})")
    here = conn.execute(
        "SELECT duplicate, review, updated_at FROM context_guard_thresholds "
        "WHERE generation = %s AND coalesce(block_type, '') = coalesce(%s, '') FOR UPDATE",
        (generation["id"], line.block_type),
    ).fetchone()
    wanted = {"duplicate": line.duplicate, "review": line.review, "updated_at": line.updated_at}
    outcome = outcome_of(here, wanted)
    if outcome != "unchanged":
        conn.execute(
            "INSERT INTO context_guard_thresholds (block_type, generation, duplicate, review, "
            "updated_at) VALUES (%s, %s, %s, %s, %s) ON CONFLICT (coalesce(block_type, ''), "
            "generation) DO UPDATE SET duplicate = EXCLUDED.duplicate, "
            "review = EXCLUDED.review, updated_at = EXCLUDED.updated_at",
            (line.block_type, generation["id"], line.duplicate, line.review, line.updated_at),
        )
    return outcome


THRESHOLDS_SECTION = TransferSection(
    "guard_thresholds",
    (TransferRecord("guard_threshold", ThresholdLine, restore_threshold),),
    export_thresholds,
    tables=("context_guard_thresholds",),
    admin=True,
)
