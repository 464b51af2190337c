"""Backends in an admin export: every column of each row (kind, URL, roles, model map, priority,
trust, the name of its sealed secret, enabled), written back as they were, times included.

The secret itself travels in the secrets section, sealed. When it did not arrive (the importing
server's seal key is another, so it was skipped), the backend is imported without it and
disabled, and the import's answer says so: a backend that sends no key would only fail, or
worse, talk to a server it should not without credentials. A row this server refuses (a kind
no plugin here provides, a host outside ``llm.allowed_hosts``) is skipped and named."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from psycopg.types.json import Jsonb
from pydantic import Field

from ctx.core.errors import CtxError
from ctx.core.llm.backends import COLUMNS, NAME_RE, Backend, check_backend, parse_fields
from ctx.core.runtime import TransferLine, TransferRecord, TransferSection, noted, outcome_of
from ctx.core.runtime import skipped as skipped_because

if TYPE_CHECKING:
    from ctx.core.blocks import ExportContext, RestoreContext

FIELDS = ("kind", "base_url", "roles", "model_map", "priority", "trust", "secret", "enabled",
          "description", "created_at", "updated_at", "updated_by")  # fmt: skip


class BackendLine(TransferLine):
    type: Literal["backend"]
    name: str = Field(pattern=NAME_RE.pattern)
    kind: str = Field(min_length=1, max_length=100)
    base_url: str = ""
    roles: list[str] = Field(default_factory=list)
    model_map: dict[str, Any] = Field(default_factory=dict)
    priority: int = 100
    trust: str = "public"
    secret: str | None = None
    enabled: bool = True
    description: str = ""
    created_at: datetime
    updated_at: datetime
    updated_by: str = Field(default="cli", max_length=300)


def export_backends(reader: ExportContext) -> Iterator[dict[str, Any]]:
    for row in reader.rows(f"SELECT {COLUMNS} FROM context_backends ORDER BY name"):
        line = {**row, "roles": list(row["roles"])}
        for key in ("created_at", "updated_at"):
            line[key] = row[key].isoformat()
        yield {"type": "backend", **line}


def restore_backend(restore: RestoreContext, line: BackendLine) -> str:
    app, conn = restore.app, restore.conn
    values = line.model_dump(exclude={"type", "name"})
    note = ""
    if (
        line.secret is not None
        and not conn.execute(
            "SELECT 1 FROM context_secrets WHERE name = %s", (line.secret,)
        ).fetchone()
    ):
        values.update(secret=None, enabled=False)
        note = (
            f"imported disabled and without its secret {line.secret!r}, which is not here "
            f"(sealed with another seal key?): set it (`ctx secrets set {line.secret}`), then "
            f"`ctx backends update {line.name} --secret {line.secret} --enable`"
        )
    try:
        fields = parse_fields({k: values[k] for k in FIELDS[:9]})
        backend = Backend(
            name=line.name, kind=str(fields.kind), base_url=values["base_url"],
            roles=tuple(fields.roles or ()), model_map=dict(fields.model_map or {}),
            priority=values["priority"], trust=str(fields.trust), secret=values["secret"],
            enabled=values["enabled"], description=values["description"],
        )  # fmt: skip
        allowed = [str(h) for h in app.settings["llm.allowed_hosts"]]
        check_backend(conn, backend, app.backend_kinds, allowed)
    except CtxError as exc:
        return skipped_because(exc.message)
    values.update(roles=list(backend.roles), model_map=backend.model_map, trust=backend.trust)
    here = conn.execute(
        f"SELECT {COLUMNS} FROM context_backends WHERE name = %s FOR UPDATE", (line.name,)
    ).fetchone()
    outcome = outcome_of(here, values)
    if outcome != "unchanged":
        conn.execute(
            f"""
            INSERT INTO context_backends (name, {", ".join(FIELDS)})
            VALUES (%(name)s, {", ".join(f"%({k})s" for k in FIELDS)})
            ON CONFLICT (name) DO UPDATE SET {", ".join(f"{k} = EXCLUDED.{k}" for k in FIELDS)}
            """,
            {**values, "name": line.name, "model_map": Jsonb(values["model_map"])},
        )
    return noted(outcome, note) if note else outcome


BACKENDS_SECTION = TransferSection(
    "backends",
    (TransferRecord("backend", BackendLine, restore_backend),),
    export_backends,
    tables=("context_backends",),
    admin=True,
)
