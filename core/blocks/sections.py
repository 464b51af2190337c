"""The sections of an export after its blocks: every capability (and plugin) that keeps rows about
a scope registers one (``register_transfer_sections``), naming its record types, how an export
reads them and how an import writes each back. The blocks themselves are ``transfer``'s own.

A section's records come in the order its ``export`` yields them, after every block, so a record
may name a block, or a record its section wrote earlier in the file. An import writes a record
with its ``restore``, inside the batch's transaction, and gets an outcome back: ``created``,
``updated``, ``unchanged`` or ``skipped: <why>`` (``skipped(why)``); raising a ``CtxError`` refuses
the whole batch.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from ctx.core.errors import PluginError
from ctx.core.runtime import registered_objects

if TYPE_CHECKING:
    import psycopg

    from ctx.core.access import Principal
    from ctx.core.app import App
    from ctx.core.runtime import PluginHost

UUID_PATTERN = r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
RESERVED = ("header", "block", "end")
OUTCOMES = ("created", "updated", "unchanged")


class TransferLine(BaseModel):
    """One line of an export. Unknown fields are refused; a ``scope`` field is checked against
    the importing key's write scopes before anything is written."""

    model_config = ConfigDict(extra="forbid")

    def ref(self) -> str:
        """What a skipped record is called in the import's answer."""
        for name in ("id", "block_id", "issue_id", "session_id", "scope"):
            value = getattr(self, name, None)
            if value is not None:
                return str(value)
        return ""


@dataclass
class ExportContext:
    """What a section's ``export`` reads with: the transaction, the exporting key, the scopes
    asked for (already checked against the key) and whether blob bytes were asked for."""

    conn: psycopg.Connection[Any]
    who: Principal
    scopes: list[str]
    blob_bytes: bool = False

    def rows(self, sql: str, params: dict[str, Any] | None = None) -> Iterator[dict[str, Any]]:
        """Rows of ``sql`` (``%(scopes)s`` is the scopes) through a server-side cursor, so any
        size streams."""
        with self.conn.cursor(name=f"export_{id(sql)}") as cur:
            cur.itersize = 500
            cur.execute(sql, {"scopes": self.scopes, **(params or {})})
            yield from cur


def may_import(who: Principal, scope: str) -> bool:
    """The import's one scope rule: the key's home scope, or any scope for an admin key."""
    return who.is_admin or scope == who.home_scope


@dataclass
class RestoreContext:
    """What a record's ``restore`` writes with: the app, the batch's transaction and the key."""

    app: App
    conn: psycopg.Connection[Any]
    who: Principal

    def may_write(self, scope: str) -> bool:
        return may_import(self.who, scope)

    def unwritable_block(self, block_id: str) -> str | None:
        """Why a record about ``block_id`` cannot be written here (no such block, or it lives in
        a scope this key does not import into), or None."""
        row = self.conn.execute(
            "SELECT scope FROM context_blocks WHERE id = %s", (block_id,)
        ).fetchone()
        if row is None:
            return f"block {block_id} is not here"
        if not self.may_write(row["scope"]):
            return f"block {block_id} is outside this key's home scope"
        return None

    def block_exists(self, block_id: str | None) -> str | None:
        """``block_id`` when that block is here, else None (a reference to drop)."""
        if block_id is None:
            return None
        row = self.conn.execute("SELECT 1 FROM context_blocks WHERE id = %s", (block_id,))
        return block_id if row.fetchone() is not None else None


def skipped(why: str) -> str:
    return f"skipped: {why}"


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
    (``export(ExportContext) -> dicts``, each with its ``type``) and the tables it carries."""

    name: str
    records: tuple[TransferRecord, ...]
    export: Callable[[ExportContext], Iterable[dict[str, Any]]]
    tables: tuple[str, ...] = ()

    def problems(self) -> str | None:
        taken = [r.kind for r in self.records if r.kind in RESERVED]
        if taken:
            return f"export section {self.name!r} uses reserved record types {taken}"
        if not self.records:
            return f"export section {self.name!r} has no record types"
        return None


def transfer_sections(host: PluginHost) -> list[TransferSection]:
    """Every registered section in load order (the order of their lines in an export); a
    record type claimed twice stops start-up."""
    found = registered_objects(
        host,
        "register_transfer_sections",
        TransferSection,
        name=lambda s: s.name,
        what="export section",
        check=lambda s: s.problems(),
    )
    owners: dict[str, str] = {}
    problems = []
    for section in found.values():
        for record in section.records:
            if record.kind in owners:
                problems.append(
                    f"record type {record.kind!r} declared by export sections "
                    f"{owners[record.kind]!r} and {section.name!r}"
                )
            owners.setdefault(record.kind, section.name)
    if problems:
        raise PluginError("; ".join(problems))
    return list(found.values())
