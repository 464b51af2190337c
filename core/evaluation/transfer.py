"""The marks in an export: each question, its block, the verdict, the day it was asked and who
marked it when, so an imported store keeps its gold set. A mark goes with its block: it is
written back only when the block is here, in a scope the importing key writes."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, datetime
from typing import Any, Literal

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


class MarkLine(TransferLine):
    type: Literal["eval_mark"]
    scope: str = Field(max_length=50)
    question: str = Field(min_length=1, max_length=2000)
    block_id: str = Field(pattern=UUID_PATTERN)
    verdict: Literal["answered", "not_answered"]
    asked_on: date
    marked_by: str | None = Field(default=None, pattern=UUID_PATTERN)
    marked_at: datetime


_EXPORT = """
SELECT scope, question, block_id::text AS block_id, verdict, asked_on,
       marked_by::text AS marked_by, marked_at
  FROM context_eval_marks
 WHERE scope = ANY(%(scopes)s)
 ORDER BY scope, marked_at, id
"""

_HERE = """
SELECT verdict, asked_on, marked_by::text AS marked_by, marked_at FROM context_eval_marks
 WHERE scope = %s AND md5(question) = md5(%s) AND block_id = %s
"""

_UPSERT = """
INSERT INTO context_eval_marks (scope, question, block_id, verdict, asked_on, marked_by, marked_at)
VALUES (%(scope)s, %(question)s, %(block_id)s, %(verdict)s, %(asked_on)s, %(marked_by)s,
        %(marked_at)s)
ON CONFLICT (scope, md5(question), block_id) DO UPDATE SET verdict = EXCLUDED.verdict,
    asked_on = EXCLUDED.asked_on, marked_by = EXCLUDED.marked_by, marked_at = EXCLUDED.marked_at
"""


def export_marks(reader: ExportContext) -> Iterator[dict[str, Any]]:
    for row in reader.rows(_EXPORT):
        line = {k: v for k, v in row.items() if v is not None}
        line["asked_on"] = row["asked_on"].isoformat()
        line["marked_at"] = row["marked_at"].isoformat()
        yield {"type": "eval_mark", **line}


def restore_mark(restore: RestoreContext, line: MarkLine) -> str:
    if (why := restore.unwritable_block(line.block_id)) is not None:
        return skipped(why)
    block = restore.conn.execute(
        "SELECT scope FROM context_blocks WHERE id = %s", (line.block_id,)
    ).fetchone()
    if block is None or block["scope"] != line.scope:
        return skipped(f"block {line.block_id} is not in scope {line.scope}")
    wanted = line.model_dump(exclude={"type", "scope", "question", "block_id"})
    here = restore.conn.execute(_HERE, (line.scope, line.question, line.block_id)).fetchone()
    outcome = outcome_of(None if here is None else dict(here), wanted)
    if outcome != "unchanged":
        restore.conn.execute(_UPSERT, line.model_dump(exclude={"type"}))
    return outcome


MARKS_SECTION = TransferSection(
    "eval",
    (TransferRecord("eval_mark", MarkLine, restore_mark),),
    export_marks,
    tables=("context_eval_marks",),
)
