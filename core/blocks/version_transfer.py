"""Blocks' past versions in an export: one ``block_version`` line per version kept, after every
block, so an imported store answers "what did it say then" as the exported one did. The key that
wrote a version is not carried (keys belong to their server); an imported version names none."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any, Literal

from psycopg.types.json import Jsonb
from pydantic import Field, model_validator

from ctx.core.blocks.schemas import Sensitivity
from ctx.core.blocks.sections import (
    UUID_PATTERN,
    ExportContext,
    RestoreContext,
    TransferLine,
    TransferRecord,
    TransferSection,
    outcome_of,
    skipped,
)
from ctx.core.blocks.versions import COLUMNS
from ctx.core.blocks.write import content_hash
from ctx.core.runtime import iso_times


class VersionLine(TransferLine):
    type: Literal["block_version"]
    block_id: str = Field(pattern=UUID_PATTERN)
    version: int = Field(ge=1, le=2_147_483_647)
    category: str = Field(min_length=1, max_length=100)
    title: str = Field(min_length=1, max_length=500)
    content: str
    block_type: str = Field(min_length=1, max_length=50)
    tags: list[str] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)
    sensitivity: Sensitivity
    occurred_at: datetime | None = None
    valid_from: datetime
    valid_to: datetime

    @model_validator(mode="after")
    def _in_order(self) -> VersionLine:
        if self.valid_to < self.valid_from:
            raise ValueError("valid_to must not be before valid_from")
        return self

    def ref(self) -> str:
        return f"{self.block_id} version {self.version}"


STATE = (*(c for c in COLUMNS if c != "content_hash"), "valid_from", "valid_to")
_EXPORT = f"""
SELECT v.block_id::text AS block_id, v.version, {", ".join("v." + c for c in STATE)}
  FROM context_block_versions v
  JOIN context_blocks b ON b.id = v.block_id AND b.scope = ANY(%(scopes)s)
 ORDER BY b.scope, b.created_at, b.id, v.version
"""


def export_versions(reader: ExportContext) -> Iterator[dict[str, Any]]:
    for row in reader.rows(_EXPORT):
        yield {"type": "block_version", **iso_times(row), "tags": list(row["tags"])}


def restore_version(restore: RestoreContext, line: VersionLine) -> str:
    """A version joins its block here (one of a scope this key imports into); one already kept
    under the same number takes the file's state."""
    if (why := restore.unwritable_block(line.block_id)) is not None:
        return skipped(why)
    here = restore.conn.execute(
        f"SELECT {', '.join(STATE)} FROM context_block_versions "
        "WHERE block_id = %s AND version = %s FOR UPDATE",
        (line.block_id, line.version),
    ).fetchone()
    there = {k: getattr(line, k) for k in STATE}
    outcome = outcome_of(None if here is None else dict(here), there)
    if outcome != "unchanged":
        values = {**line.model_dump(), "metadata": Jsonb(line.metadata),
                  "content_hash": content_hash(line.content)}  # fmt: skip
        restore.conn.execute(
            f"""
            INSERT INTO context_block_versions (block_id, version, {", ".join(COLUMNS)},
                                                valid_from, valid_to)
            VALUES (%(block_id)s, %(version)s, {", ".join(f"%({c})s" for c in COLUMNS)},
                    %(valid_from)s, %(valid_to)s)
            ON CONFLICT (block_id, version) DO UPDATE SET
                {", ".join(f"{c} = EXCLUDED.{c}" for c in (*COLUMNS, "valid_from", "valid_to"))}
            """,
            values,
        )
    return outcome


VERSIONS_SECTION = TransferSection(
    "block-versions",
    (TransferRecord("block_version", VersionLine, restore_version),),
    export_versions,
    tables=("context_block_versions",),
)
