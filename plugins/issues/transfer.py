"""The issue tracker's own rows in an export: each scope's next issue number and every issue's
history. The issues and comments themselves are blocks and travel with the other blocks; an
import also moves a scope's counter past every issue number it writes (``records.advance_past``,
on any write of an issue), so the next new issue never takes a number already used."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any, Literal

from psycopg.types.json import Jsonb
from pydantic import Field

from ctx.core import (
    UUID_PATTERN,
    ExportContext,
    RestoreContext,
    TransferLine,
    TransferRecord,
    TransferSection,
    outcome_of,
)
from ctx.plugins.issues.records import advance_past


class NumberLine(TransferLine):
    type: Literal["issue_number"]
    scope: str
    next_number: int = Field(ge=1)


class HistoryLine(TransferLine):
    type: Literal["issue_history"]
    issue_id: str = Field(pattern=UUID_PATTERN)
    scope: str
    number: int = Field(ge=1)
    at: datetime
    actor: str
    kind: str
    old_value: Any = None
    new_value: Any = None


HISTORY = ("issue_id", "scope", "number", "at", "actor", "kind", "old_value", "new_value")

_NUMBERS = "SELECT scope, next_number FROM issue_numbers WHERE scope = ANY(%(scopes)s) ORDER BY 1"
_HISTORY = """
SELECT issue_id::text AS issue_id, scope, number, at, actor, kind, old_value, new_value
  FROM issue_history WHERE scope = ANY(%(scopes)s) ORDER BY id
"""


def export_issues(reader: ExportContext) -> Iterator[dict[str, Any]]:
    for row in reader.rows(_NUMBERS):
        yield {"type": "issue_number", **row}
    for row in reader.rows(_HISTORY):
        yield {"type": "issue_history", **row, "at": row["at"].isoformat()}


def restore_number(restore: RestoreContext, line: NumberLine) -> str:
    here = restore.conn.execute(
        "SELECT next_number FROM issue_numbers WHERE scope = %s FOR UPDATE", (line.scope,)
    ).fetchone()
    outcome = outcome_of(None if here is None else dict(here), {"next_number": line.next_number})
    if outcome != "unchanged":
        advance_past(restore.conn, line.scope, line.next_number - 1)
    return outcome


def restore_history(restore: RestoreContext, line: HistoryLine) -> str:
    """History is append-only: a row already here (same issue, time, actor, kind and values)
    is kept, any other is appended."""
    values = {k: getattr(line, k) for k in HISTORY}
    values["old_value"] = None if line.old_value is None else Jsonb(line.old_value)
    values["new_value"] = None if line.new_value is None else Jsonb(line.new_value)
    here = restore.conn.execute(
        "SELECT 1 FROM issue_history WHERE issue_id = %(issue_id)s AND at = %(at)s "
        "AND actor = %(actor)s AND kind = %(kind)s "
        "AND old_value IS NOT DISTINCT FROM %(old_value)s "
        "AND new_value IS NOT DISTINCT FROM %(new_value)s",
        values,
    ).fetchone()
    if here is not None:
        return "unchanged"
    restore.conn.execute(
        f"INSERT INTO issue_history ({', '.join(HISTORY)}) "
        f"VALUES ({', '.join(f'%({k})s' for k in HISTORY)})",
        values,
    )
    return "created"


ISSUES_SECTION = TransferSection(
    "issues",
    (
        TransferRecord("issue_number", NumberLine, restore_number),
        TransferRecord("issue_history", HistoryLine, restore_history),
    ),
    export_issues,
    tables=("issue_numbers", "issue_history"),
)
