"""The settings in an admin export: the database layer only (``context_settings``: what an
operator set), never a default or an environment value. An import checks each value as ``ctx
settings set`` would; a key this server does not know (a plugin not installed), a value it
refuses, or a secret setting whose sealed secret is not here is skipped and named. Every ctxd
applies the imported values through the settings NOTIFY once the import commits."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from psycopg.types.json import Jsonb
from pydantic import Field

from ctx.core.errors import CtxError
from ctx.core.runtime.settings import secret_reference
from ctx.core.runtime.transfer import (
    TransferLine,
    TransferRecord,
    TransferSection,
    outcome_of,
    skipped,
)

if TYPE_CHECKING:
    from ctx.core.blocks import ExportContext, RestoreContext


class SettingLine(TransferLine):
    type: Literal["setting"]
    key: str = Field(min_length=1, max_length=200)
    value: Any
    updated_at: datetime


def export_settings(reader: ExportContext) -> Iterator[dict[str, Any]]:
    for row in reader.rows("SELECT key, value, updated_at FROM context_settings ORDER BY key"):
        yield {"type": "setting", "key": row["key"], "value": row["value"],
               "updated_at": row["updated_at"].isoformat()}  # fmt: skip


def restore_setting(restore: RestoreContext, line: SettingLine) -> str:
    app, conn = restore.app, restore.conn
    try:
        value = app.settings.validate_change(line.key, line.value)
    except CtxError as exc:
        return skipped(exc.message)
    secret = secret_reference(value) if app.registry.get(line.key).secret else None
    if (
        secret is not None
        and not conn.execute("SELECT 1 FROM context_secrets WHERE name = %s", (secret,)).fetchone()
    ):
        return skipped(f"its sealed secret {secret!r} is not here (set it, then the setting)")
    here = conn.execute(
        "SELECT value, updated_at FROM context_settings WHERE key = %s FOR UPDATE", (line.key,)
    ).fetchone()
    outcome = outcome_of(here, {"value": value, "updated_at": line.updated_at})
    if outcome != "unchanged":
        conn.execute(
            "INSERT INTO context_settings (key, value, updated_at) VALUES (%s, %s, %s) "
            "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, "
            "updated_at = EXCLUDED.updated_at",
            (line.key, Jsonb(value), line.updated_at),
        )
    return outcome


SETTINGS_SECTION = TransferSection(
    "settings",
    (TransferRecord("setting", SettingLine, restore_setting),),
    export_settings,
    tables=("context_settings",),
    admin=True,
)
