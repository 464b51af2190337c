"""The forge sync in an export: each scope's link (forge, repository, the names of its secrets,
its listing cursors and last report), the base of every synced record, the creates still in
flight and the conflicts, open and resolved. Secret values stay in the vault (``ctx secrets``):
a link imported where its secrets are missing reports that on its next run. A link is made by an
admin key only, so only an admin key's import writes links and their rows; a running sync's lease
and the webhook deliveries already seen are the server's, not the scope's, and are not carried."""

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
    skipped,
)

Kind = Literal["issue", "comment"]


class LinkLine(TransferLine):
    type: Literal["forge_link"]
    scope: str
    forge: str
    repo: str
    base_url: str | None = None
    token_secret: str
    webhook_secret: str | None = None
    interval_s: int = Field(default=300, ge=10)
    issues_since: datetime | None = None
    issues_etag: str | None = None
    comments_since: datetime | None = None
    comments_etag: str | None = None
    next_pull_at: datetime
    paused_until: datetime | None = None
    last_sync_at: datetime | None = None
    last_report: dict[str, Any] | None = None
    last_error: str | None = None
    created_at: datetime


class BaseLine(TransferLine):
    type: Literal["sync_base"]
    scope: str
    block_id: str = Field(pattern=UUID_PATTERN)
    kind: Kind
    forge_id: int
    forge_number: int
    snapshot: dict[str, Any]
    hash: str
    synced_at: datetime
    gone: str | None = None


class PendingLine(TransferLine):
    type: Literal["sync_pending"]
    scope: str
    block_id: str = Field(pattern=UUID_PATTERN)
    kind: Kind
    forge_number: int | None = None
    snapshot: dict[str, Any]
    started_at: datetime


class ConflictLine(TransferLine):
    type: Literal["sync_conflict"]
    scope: str
    block_id: str = Field(pattern=UUID_PATTERN)
    kind: Kind
    number: int
    fields: list[str]
    base: dict[str, Any] | None = None
    local: dict[str, Any]
    remote: dict[str, Any]
    created_at: datetime
    resolved_at: datetime | None = None
    resolution: Literal["local", "remote"] | None = None
    resolved_by: str | None = None


LINK = ("forge", "repo", "base_url", "token_secret", "webhook_secret", "interval_s",
        "issues_since", "issues_etag", "comments_since", "comments_etag", "next_pull_at",
        "paused_until", "last_sync_at", "last_report", "last_error", "created_at")  # fmt: skip
BASE = ("kind", "forge_id", "forge_number", "snapshot", "hash", "synced_at", "gone")
PENDING = ("kind", "forge_number", "snapshot", "started_at")
CONFLICT = ("kind", "number", "fields", "base", "local", "remote", "created_at", "resolved_at",
            "resolution", "resolved_by")  # fmt: skip
JSON = ("last_report", "snapshot", "base", "local", "remote")


def _rows_of(table: str, columns: tuple[str, ...], order: str) -> str:
    return (
        f"SELECT l.scope, s.block_id::text AS block_id, {', '.join('s.' + c for c in columns)} "
        f"FROM {table} s JOIN issue_forge_links l ON l.id = s.link_id "
        f"WHERE l.scope = ANY(%(scopes)s) ORDER BY l.scope, {order}"
    )


_EXPORT = {
    "forge_link": f"SELECT scope, {', '.join(LINK)} FROM issue_forge_links "
    "WHERE scope = ANY(%(scopes)s) ORDER BY scope",
    "sync_base": _rows_of("issue_sync_state", BASE, "s.block_id"),
    "sync_pending": _rows_of("issue_sync_pending", PENDING, "s.block_id"),
    "sync_conflict": _rows_of("issue_sync_conflicts", CONFLICT, "s.id"),
}


def export_sync(reader: ExportContext) -> Iterator[dict[str, Any]]:
    for kind, sql in _EXPORT.items():
        for row in reader.rows(sql):
            yield {"type": kind, **{k: v.isoformat() if isinstance(v, datetime) else v
                                    for k, v in row.items()}}  # fmt: skip


def _values(line: TransferLine, columns: tuple[str, ...]) -> dict[str, Any]:
    values = {k: getattr(line, k) for k in columns}
    return {k: Jsonb(v) if k in JSON and v is not None else v for k, v in values.items()}


def _link_id(restore: RestoreContext, scope: str) -> int | None:
    row = restore.conn.execute(
        "SELECT id FROM issue_forge_links WHERE scope = %s", (scope,)
    ).fetchone()
    return None if row is None else int(row["id"])


def _here(restore: RestoreContext, sql: str, *args: Any) -> dict[str, Any] | None:
    row = restore.conn.execute(sql, args).fetchone()
    return None if row is None else dict(row)


def restore_link(restore: RestoreContext, line: LinkLine) -> str:
    if not restore.who.is_admin:
        return skipped("a forge link is made by an admin key")
    clash = restore.conn.execute(
        "SELECT scope FROM issue_forge_links WHERE forge = %s AND lower(repo) = lower(%s) "
        "AND scope <> %s",
        (line.forge, line.repo, line.scope),
    ).fetchone()
    if clash is not None:
        return skipped(f"{line.forge} repository {line.repo!r} is linked to {clash['scope']!r}")
    here = _here(
        restore, f"SELECT {', '.join(LINK)} FROM issue_forge_links WHERE scope = %s", line.scope
    )
    outcome = outcome_of(here, {k: getattr(line, k) for k in LINK})
    if outcome != "unchanged":
        restore.conn.execute(
            f"INSERT INTO issue_forge_links (scope, {', '.join(LINK)}) "
            f"VALUES (%(scope)s, {', '.join(f'%({k})s' for k in LINK)}) "
            f"ON CONFLICT (scope) DO UPDATE SET {', '.join(f'{k} = EXCLUDED.{k}' for k in LINK)}",
            {**_values(line, LINK), "scope": line.scope},
        )
    return outcome


def _upsert(
    restore: RestoreContext, table: str, line: BaseLine | PendingLine, columns: tuple[str, ...]
) -> str:
    """A base or a pending create, one per block, under its scope's link."""
    link_id = _link_id(restore, line.scope)
    if link_id is None or not restore.who.is_admin:
        return skipped(f"scope {line.scope!r} has no forge link here")
    here = _here(
        restore, f"SELECT link_id, {', '.join(columns)} FROM {table} WHERE block_id = %s",
        line.block_id,
    )  # fmt: skip
    outcome = outcome_of(here, {"link_id": link_id, **{k: getattr(line, k) for k in columns}})
    if outcome != "unchanged":
        restore.conn.execute(
            f"INSERT INTO {table} (block_id, link_id, {', '.join(columns)}) "
            f"VALUES (%(block_id)s, %(link_id)s, {', '.join(f'%({k})s' for k in columns)}) "
            f"ON CONFLICT (block_id) DO UPDATE SET link_id = EXCLUDED.link_id, "
            f"{', '.join(f'{k} = EXCLUDED.{k}' for k in columns)}",
            {**_values(line, columns), "block_id": line.block_id, "link_id": link_id},
        )
    return outcome


def restore_base(restore: RestoreContext, line: BaseLine) -> str:
    return _upsert(restore, "issue_sync_state", line, BASE)


def restore_pending(restore: RestoreContext, line: PendingLine) -> str:
    return _upsert(restore, "issue_sync_pending", line, PENDING)


def restore_conflict(restore: RestoreContext, line: ConflictLine) -> str:
    """A conflict is one per block and time it was found; its resolution follows the file."""
    link_id = _link_id(restore, line.scope)
    if link_id is None or not restore.who.is_admin:
        return skipped(f"scope {line.scope!r} has no forge link here")
    here = _here(
        restore,
        f"SELECT id, {', '.join(CONFLICT)} FROM issue_sync_conflicts "
        "WHERE block_id = %s AND created_at = %s",
        line.block_id,
        line.created_at,
    )
    outcome = outcome_of(here, {k: getattr(line, k) for k in CONFLICT})
    values = {**_values(line, CONFLICT), "block_id": line.block_id, "link_id": link_id,
              "scope": line.scope}  # fmt: skip
    if here is not None and outcome == "updated":
        restore.conn.execute(
            "UPDATE issue_sync_conflicts SET resolved_at = %(resolved_at)s, "
            "resolution = %(resolution)s, resolved_by = %(resolved_by)s WHERE id = %(id)s",
            {**values, "id": here["id"]},
        )
    elif here is None:
        if line.resolved_at is None and _here(
            restore,
            "SELECT 1 FROM issue_sync_conflicts WHERE block_id = %s AND resolved_at IS NULL",
            line.block_id,
        ):
            return skipped(f"block {line.block_id} has another open conflict here")
        restore.conn.execute(
            f"INSERT INTO issue_sync_conflicts (link_id, block_id, scope, {', '.join(CONFLICT)}) "
            f"VALUES (%(link_id)s, %(block_id)s, %(scope)s, "
            f"{', '.join(f'%({k})s' for k in CONFLICT)})",
            values,
        )
    return outcome


SYNC_SECTION = TransferSection(
    "issue-sync",
    (
        TransferRecord("forge_link", LinkLine, restore_link),
        TransferRecord("sync_base", BaseLine, restore_base),
        TransferRecord("sync_pending", PendingLine, restore_pending),
        TransferRecord("sync_conflict", ConflictLine, restore_conflict),
    ),
    export_sync,
    tables=("issue_forge_links", "issue_sync_state", "issue_sync_pending", "issue_sync_conflicts"),
)
