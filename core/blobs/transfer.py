"""Blobs in an export: each blob's row and checksum, and its bytes (base64, in the same line)
when the export asks for them (``ctx export --blobs``). An import writes a blob whole, in the
batch's transaction, and checks its checksum; a line without bytes only confirms a blob already
here."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from datetime import datetime
from typing import Any, Literal

from psycopg.types.json import Jsonb
from pydantic import Field

from ctx.core.blobs.store import CHUNK_BYTES, checked_bytes, write_chunks
from ctx.core.blocks import (
    UUID_PATTERN,
    ExportContext,
    RestoreContext,
    TransferLine,
    TransferRecord,
    TransferSection,
    audit,
    outcome_of,
    skipped,
)


class BlobLine(TransferLine):
    type: Literal["blob"]
    id: str = Field(pattern=UUID_PATTERN)
    scope: str
    category: str
    title: str
    filename: str | None = None
    mime_type: str
    tags: list[str] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)
    size: int = Field(ge=0)
    sha256: str
    created_at: datetime
    updated_at: datetime
    data: str | None = Field(default=None, description="The bytes, base64 (--blobs exports).")


FIELDS = ("scope", "category", "title", "filename", "mime_type", "tags", "metadata", "size",
          "sha256", "created_at", "updated_at")  # fmt: skip

_EXPORT = """
SELECT id::text AS id, scope, category, title, filename, mime_type, tags, metadata, size, sha256,
       created_at, updated_at
  FROM context_blobs WHERE scope = ANY(%(scopes)s) ORDER BY scope, created_at, id
"""


def export_blobs(reader: ExportContext) -> Iterator[dict[str, Any]]:
    for row in reader.rows(_EXPORT):
        line = {"type": "blob", **row, "created_at": row["created_at"].isoformat(),
                "updated_at": row["updated_at"].isoformat()}  # fmt: skip
        if reader.blob_bytes:
            chunks = reader.conn.execute(
                "SELECT data FROM context_blob_chunks WHERE blob_id = %s ORDER BY n", (row["id"],)
            ).fetchall()
            line["data"] = base64.b64encode(b"".join(bytes(c["data"]) for c in chunks)).decode()
        yield line


def restore_blob(restore: RestoreContext, blob: BlobLine) -> str:
    conn = restore.conn
    here = conn.execute(
        f"SELECT {', '.join(FIELDS)} FROM context_blobs WHERE id = %s FOR UPDATE", (blob.id,)
    ).fetchone()
    if here is not None and here["scope"] != blob.scope:
        return skipped("a blob with this id lives in another scope here")
    clash = conn.execute(
        "SELECT id::text AS id FROM context_blobs WHERE scope = %s AND category = %s "
        "AND title = %s AND id <> %s",
        (blob.scope, blob.category, blob.title, blob.id),
    ).fetchone()
    if clash is not None:
        return skipped(f"blob {clash['id']} here has the same scope, category and title")
    same_bytes = here is not None and here["sha256"] == blob.sha256
    if blob.data is None and not same_bytes:
        return skipped(
            "its bytes are not in this export: export with --blobs, or put the file with "
            "`ctx blob put`"
        )
    there = {k: getattr(blob, k) for k in FIELDS}
    outcome = outcome_of(None if here is None else dict(here), there)
    if outcome == "unchanged":
        return outcome
    values = {**there, "id": blob.id, "tags": list(blob.tags), "metadata": Jsonb(blob.metadata)}
    if not same_bytes:
        data, _ = checked_bytes(restore.app, blob.data or "", blob.sha256)
        values["size"] = len(data)
    conn.execute(
        f"""
        INSERT INTO context_blobs (id, {", ".join(FIELDS)}, chunk_bytes)
        VALUES (%(id)s, {", ".join(f"%({k})s" for k in FIELDS)}, {CHUNK_BYTES})
        ON CONFLICT (id) DO UPDATE SET {", ".join(f"{k} = EXCLUDED.{k}" for k in FIELDS)}
        """,
        values,
    )
    if not same_bytes:
        write_chunks(conn, blob.id, data)
    detail = {"blob_id": blob.id, "title": blob.title, "size": values["size"], "action": outcome}
    audit(conn, restore.who, "blob.imported", None, blob.scope, detail)
    return outcome


BLOBS_SECTION = TransferSection(
    "blobs",
    (TransferRecord("blob", BlobLine, restore_blob),),
    export_blobs,
    tables=("context_blobs", "context_blob_chunks"),
)
