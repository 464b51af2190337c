"""Block types in an admin export: each type row as data (its retrieval, Guard, Dream, embedding
and date policy, the workflow that owns it, where it came from), before the blocks that use it.
An import writes the row as it was (a type the plugins here never proposed included, so its
blocks can come along) and this process uses it at once, for the blocks of the same batch."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from ctx.core.blocks.types import TYPE_COLUMNS, BlockTypeSpec
from ctx.core.errors import ValidationError
from ctx.core.runtime import TransferLine, TransferRecord, TransferSection, outcome_of, skipped

if TYPE_CHECKING:
    from ctx.core.blocks.sections import ExportContext, RestoreContext

COLUMNS = (*TYPE_COLUMNS, "source", "created_at", "updated_at")


class BlockTypeLine(TransferLine):
    type: Literal["block_type"]
    name: str = Field(max_length=50)
    description: str = ""
    retrieval_policy: str
    retrieval_factor: float
    guard_dedup: bool
    guard_duplicate: float
    guard_review: float
    dream_linkable: bool
    embed: bool
    temporal_extract: bool
    default_sensitivity: str
    workflow: str | None = None
    max_content_chars: int
    source: str = Field(default="builtin", max_length=200)
    created_at: datetime
    updated_at: datetime


def export_types(reader: ExportContext) -> Iterator[dict[str, Any]]:
    for row in reader.rows(f"SELECT {', '.join(COLUMNS)} FROM context_block_types ORDER BY name"):
        times = {k: row[k].isoformat() for k in ("created_at", "updated_at")}
        yield {"type": "block_type", **row, **times}


def restore_type(restore: RestoreContext, line: BlockTypeLine) -> str:
    values = line.model_dump(exclude={"type"})
    try:
        spec = BlockTypeSpec.from_mapping(values)
    except ValidationError as exc:
        return skipped(exc.message)
    values.update(asdict(spec))
    conn = restore.conn
    here = conn.execute(
        f"SELECT {', '.join(COLUMNS)} FROM context_block_types WHERE name = %s FOR UPDATE",
        (line.name,),
    ).fetchone()
    outcome = outcome_of(here, values)
    if outcome != "unchanged":
        conn.execute(
            f"""
            INSERT INTO context_block_types ({", ".join(COLUMNS)})
            VALUES ({", ".join(f"%({c})s" for c in COLUMNS)})
            ON CONFLICT (name) DO UPDATE SET
                {", ".join(f"{c} = EXCLUDED.{c}" for c in COLUMNS[1:])}
            """,
            values,
        )
        restore.app.use_block_type(spec)
    return outcome


TYPES_SECTION = TransferSection(
    "block_types",
    (TransferRecord("block_type", BlockTypeLine, restore_type),),
    export_types,
    tables=("context_block_types",),
    admin=True,
    first=True,
)
