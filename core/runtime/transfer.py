"""The shapes an export section is declared with: its lines' model base, its record kinds and the
section itself. They sit here, low in the core, so every capability (the server's own settings,
keys and backends included) can declare its section; how an export reads and an import writes
them is ``ctx.core.blocks.sections`` and ``ctx.core.blocks.transfer``.

A ``restore`` returns an outcome: ``created``, ``updated``, ``unchanged``, one of these with a
note the import's answer repeats (``noted``: "created, but disabled: ..."), or ``skipped: <why>``
(``skipped``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    from ctx.core.blocks.sections import ExportContext, RestoreContext

UUID_PATTERN = r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
RESERVED = ("header", "block", "end")
OUTCOMES = ("created", "updated", "unchanged")


class TransferLine(BaseModel):
    """One line of an export. Unknown fields are refused; a ``scope`` field is checked against
    the importing key's write scopes before anything is written."""

    model_config = ConfigDict(extra="forbid")

    def ref(self) -> str:
        """What a skipped record is called in the import's answer."""
        for name in ("id", "block_id", "issue_id", "session_id", "scope", "name", "key"):
            value = getattr(self, name, None)
            if value is not None:
                return str(value)
        return ""


def iso_times(row: dict[str, Any]) -> dict[str, Any]:
    """``row`` with its times as ISO 8601 text, as an export line carries them."""
    return {k: v.isoformat() if isinstance(v, datetime) else v for k, v in row.items()}


def skipped(why: str) -> str:
    return f"skipped: {why}"


def noted(outcome: str, note: str) -> str:
    """``outcome`` (created, updated, unchanged) with a note the import's answer repeats."""
    return f"{outcome}: {note}"


def outcome_of(here: dict[str, Any] | None, there: dict[str, Any]) -> str:
    """``created`` when nothing is here, ``unchanged`` when every field of ``there`` is equal
    here, else ``updated``."""
    if here is None:
        return "created"
    same = all(_same(here.get(k), v) for k, v in there.items())
    return "unchanged" if same else "updated"


def _same(here: Any, there: Any) -> bool:
    if isinstance(here, datetime) and isinstance(there, datetime):
        return here == there
    if isinstance(here, (list, tuple)) and isinstance(there, (list, tuple)):
        return list(here) == list(there)
    return bool(here == there)


@dataclass(frozen=True)
class TransferRecord:
    """One kind of export line: its ``kind`` (the line's ``type``), the model that checks it and
    the function that writes one back (``restore(RestoreContext, line) -> outcome``)."""

    kind: str
    model: type[TransferLine]
    restore: Callable[[RestoreContext, Any], str]


@dataclass(frozen=True)
class TransferSection:
    """A capability's part of an export: its record kinds, the function that yields its lines
    (``export(ExportContext) -> dicts``, each with its ``type``) and the tables it carries.

    ``admin``: the server's own rows (settings, types, backends, keys, tenants), not a scope's:
    exported only when an admin key asks for the admin export, imported only by an admin key.
    ``first``: its lines come before the blocks (what blocks or later sections rely on: types,
    tenants, sealed secrets); the others come after every block."""

    name: str
    records: tuple[TransferRecord, ...]
    export: Callable[[ExportContext], Iterable[dict[str, Any]]]
    tables: tuple[str, ...] = ()
    admin: bool = False
    first: bool = False

    def problems(self) -> str | None:
        taken = [r.kind for r in self.records if r.kind in RESERVED]
        if taken:
            return f"export section {self.name!r} uses reserved record types {taken}"
        if not self.records:
            return f"export section {self.name!r} has no record types"
        return None
