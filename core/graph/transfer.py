"""Links in an export: every link whose two blocks are exported, with its review state (who
confirmed or rejected it, and when), so a rejected link stays rejected and Dream does not make it
again after an import."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any, Literal

from pydantic import Field, field_validator

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
from ctx.core.graph.links import LINK_TYPES


class LinkLine(TransferLine):
    type: Literal["link"]
    source_id: str = Field(pattern=UUID_PATTERN)
    target_id: str = Field(pattern=UUID_PATTERN)
    link_type: str
    confidence: float = Field(ge=0, le=1)
    origin: Literal["dream", "user", "guard"] = "dream"
    status: Literal["active", "confirmed", "rejected"] = "active"
    note: str = Field(default="", max_length=10_000)
    pipeline_version: int | None = None
    created_at: datetime
    reviewed_at: datetime | None = None
    reviewed_by: str | None = Field(default=None, pattern=UUID_PATTERN)

    @field_validator("link_type")
    @classmethod
    def _known(cls, value: str) -> str:
        if value not in LINK_TYPES:
            raise ValueError(f"link_type must be one of {', '.join(LINK_TYPES)}")
        return value

    def ref(self) -> str:
        return f"{self.source_id}->{self.target_id}"


STATE = ("confidence", "origin", "status", "note", "pipeline_version", "created_at",
         "reviewed_at", "reviewed_by")  # fmt: skip

_COLUMNS = ", ".join(k if k != "reviewed_by" else "reviewed_by::text AS reviewed_by" for k in STATE)
_EXPORT = """
SELECT l.source_id::text AS source_id, l.target_id::text AS target_id, l.link_type,
       l.confidence, l.origin, l.status, l.note, l.pipeline_version, l.created_at,
       l.reviewed_at, l.reviewed_by::text AS reviewed_by
  FROM context_links l
  JOIN context_blocks s ON s.id = l.source_id AND s.scope = ANY(%(scopes)s)
  JOIN context_blocks t ON t.id = l.target_id AND t.scope = ANY(%(scopes)s)
 ORDER BY l.created_at, l.id
"""


def export_links(reader: ExportContext) -> Iterator[dict[str, Any]]:
    for row in reader.rows(_EXPORT):
        yield {"type": "link", **row, "created_at": row["created_at"].isoformat(),
               "reviewed_at": row["reviewed_at"] and row["reviewed_at"].isoformat()}  # fmt: skip


def restore_link(restore: RestoreContext, link: LinkLine) -> str:
    """A link joins two blocks here (both in scopes this key imports into); one already here
    takes the file's state."""
    if link.source_id == link.target_id:
        return skipped("a link joins two different blocks")
    for end in (link.source_id, link.target_id):
        if (why := restore.unwritable_block(end)) is not None:
            return skipped(why)
    here = restore.conn.execute(
        f"SELECT {_COLUMNS} FROM context_links "
        "WHERE source_id = %s AND target_id = %s AND link_type = %s FOR UPDATE",
        (link.source_id, link.target_id, link.link_type),
    ).fetchone()
    there = {k: getattr(link, k) for k in STATE}
    outcome = outcome_of(None if here is None else dict(here), there)
    if outcome != "unchanged":
        restore.conn.execute(
            f"""
            INSERT INTO context_links (source_id, target_id, link_type, {", ".join(STATE)})
            VALUES (%(source_id)s, %(target_id)s, %(link_type)s, %(confidence)s, %(origin)s,
                    %(status)s, %(note)s, %(pipeline_version)s, %(created_at)s,
                    %(reviewed_at)s, %(reviewed_by)s)
            ON CONFLICT (source_id, target_id, link_type) DO UPDATE SET
                {", ".join(f"{k} = EXCLUDED.{k}" for k in STATE)}
            """,
            link.model_dump(),
        )
    return outcome


LINKS_SECTION = TransferSection(
    "links",
    (TransferRecord("link", LinkLine, restore_link),),
    export_links,
    tables=("context_links",),
)
