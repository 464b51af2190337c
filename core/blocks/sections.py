"""The sections of an export besides its blocks: every capability (and plugin) that keeps rows
about a scope registers one (``register_transfer_sections``), naming its record types, how an
export reads them and how an import writes each back. The blocks themselves are ``transfer``'s
own. The server's own rows (settings, block types, backends, sealed secrets, keys, tenants) are
sections marked ``admin``: only the admin export carries them, only an admin key imports them.

A section's records come in the order its ``export`` yields them, after every block (a section
marked ``first``: before the blocks), so a record may name a block, or a record its section (or
an earlier section) wrote earlier in the file. An import writes a record
with its ``restore``, inside the batch's transaction, and gets an outcome back: ``created``,
``updated``, ``unchanged`` or ``skipped: <why>`` (``skipped(why)``); raising a ``CtxError`` refuses
the whole batch. The shapes (``TransferSection``, ``TransferRecord``, ``TransferLine``) are
declared low in the core (``ctx.core.runtime``), so the server's own capabilities (settings,
keys, backends) declare theirs too; they are re-exported here and from ``ctx.core.blocks``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ctx.core.errors import PluginError
from ctx.core.runtime import (
    OUTCOMES,
    RESERVED,
    UUID_PATTERN,
    TransferLine,
    TransferRecord,
    TransferSection,
    noted,
    outcome_of,
    registered_objects,
    skipped,
)

if TYPE_CHECKING:
    import psycopg

    from ctx.core.access import Principal
    from ctx.core.app import App
    from ctx.core.runtime import PluginHost

__all__ = [
    "OUTCOMES",
    "RESERVED",
    "UUID_PATTERN",
    "ExportContext",
    "RestoreContext",
    "TransferLine",
    "TransferRecord",
    "TransferSection",
    "may_import",
    "noted",
    "outcome_of",
    "skipped",
    "transfer_sections",
]


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
