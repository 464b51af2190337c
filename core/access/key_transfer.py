"""Sealed secrets and API keys in an admin export.

A secret travels as it is stored: nonce, ciphertext and the fingerprint of the seal key that
sealed it (``key_id``), never opened. An importing server whose seal key has another fingerprint
cannot open it either, so it skips the secret and says why; whatever named it (a backend, a
secret setting) is imported without it (see their sections).

A key travels with its metadata and the SHA-256 of its token (never the token, which no server
keeps), so the same tokens keep working after a move. Ids are kept. The key doing the import is
never changed by it: the importing server keeps its own admin key."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from ctx.core.access.schemas import SECRET_NAME, Role, ScopeName
from ctx.core.access.secrets import KEY_ENV, KEY_FILE, key_id
from ctx.core.access.tenant_transfer import tenant_id
from ctx.core.runtime import (
    UUID_PATTERN,
    TransferLine,
    TransferRecord,
    TransferSection,
    iso_times,
    outcome_of,
    skipped,
)
from ctx.core.validation import SOME_BASE64, shaped

if TYPE_CHECKING:
    from ctx.core.blocks import ExportContext, RestoreContext


class SecretLine(TransferLine):
    type: Literal["secret"]
    name: str = Field(pattern=SECRET_NAME)
    nonce: str = shaped(SOME_BASE64, description="The AES-GCM nonce, base64.")
    sealed: str = shaped(SOME_BASE64, description="The ciphertext as stored, base64; never opened.")
    key_id: str = Field(pattern=r"^[0-9a-f]{12}$")
    created_at: datetime
    updated_at: datetime
    updated_by: str = Field(max_length=300)


class KeyLine(TransferLine):
    type: Literal["api_key"]
    id: str = Field(pattern=UUID_PATTERN)
    name: str = Field(min_length=1, max_length=200)
    key_prefix: str = Field(max_length=20)
    key_hash: str = Field(pattern=r"^[0-9a-f]{64}$")
    home_scope: ScopeName
    allowed_scopes: list[ScopeName] = Field(default_factory=list)
    is_admin: bool = False
    tenant: ScopeName
    tenant_role: Role
    created_at: datetime
    last_used_at: datetime | None = None
    revoked_at: datetime | None = None


def export_secrets(reader: ExportContext) -> Iterator[dict[str, Any]]:
    sql = ("SELECT name, nonce, sealed, key_id, created_at, updated_at, updated_by "
           "FROM context_secrets ORDER BY name")  # fmt: skip
    for row in reader.rows(sql):
        sealed = {k: base64.b64encode(bytes(row[k])).decode() for k in ("nonce", "sealed")}
        yield {"type": "secret", **iso_times(dict(row)), **sealed}


_KEYS = """
SELECT k.id::text AS id, k.name, k.key_prefix, k.key_hash, k.home_scope, k.allowed_scopes,
       k.is_admin, t.name AS tenant, k.tenant_role, k.created_at, k.last_used_at, k.revoked_at
  FROM context_api_keys k JOIN context_tenants t ON t.id = k.tenant_id
 ORDER BY k.created_at, k.id
"""
#: What makes a key line differ from the key here (its last use only moves forward).
KEY_FIELDS = ("name", "key_prefix", "key_hash", "home_scope", "allowed_scopes", "is_admin",
              "tenant_id", "tenant_role", "created_at", "revoked_at")  # fmt: skip


def export_keys(reader: ExportContext) -> Iterator[dict[str, Any]]:
    for row in reader.rows(_KEYS):
        yield {
            "type": "api_key",
            **iso_times({**row, "allowed_scopes": list(row["allowed_scopes"])}),
        }


def restore_secret(restore: RestoreContext, line: SecretLine) -> str:
    here_key = key_id(restore.app.seal_key)
    if line.key_id != here_key:
        return skipped(
            f"sealed with the seal key {line.key_id}, this server's is {here_key}: use that key "
            f"here ({KEY_ENV} or $CTX_HOME/{KEY_FILE}) and import again, or set the secret again "
            f"(`ctx secrets set {line.name}`)"
        )
    conn = restore.conn
    nonce, sealed = base64.b64decode(line.nonce), base64.b64decode(line.sealed)
    here = conn.execute(
        "SELECT nonce, sealed, key_id, created_at, updated_at, updated_by FROM context_secrets "
        "WHERE name = %s FOR UPDATE",
        (line.name,),
    ).fetchone()
    there = {"nonce": nonce, "sealed": sealed, "key_id": line.key_id,
             "created_at": line.created_at, "updated_at": line.updated_at,
             "updated_by": line.updated_by}  # fmt: skip
    current = None if here is None else {**here, "nonce": bytes(here["nonce"]),
                                         "sealed": bytes(here["sealed"])}  # fmt: skip
    outcome = outcome_of(current, there)
    if outcome != "unchanged":
        conn.execute(
            "INSERT INTO context_secrets (name, nonce, sealed, key_id, created_at, updated_at, "
            "updated_by) VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (name) DO UPDATE SET "
            "nonce = EXCLUDED.nonce, sealed = EXCLUDED.sealed, key_id = EXCLUDED.key_id, "
            "created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at, "
            "updated_by = EXCLUDED.updated_by",
            (line.name, nonce, sealed, line.key_id, line.created_at, line.updated_at,
             line.updated_by),
        )  # fmt: skip
    return outcome


def restore_key(restore: RestoreContext, line: KeyLine) -> str:
    if line.id == restore.who.key_id:
        return skipped("it is the key doing this import: this server keeps its own")
    conn = restore.conn
    tenant = tenant_id(conn, line.tenant)
    if tenant is None:
        return skipped(f"tenant {line.tenant!r} is not here")
    clash = conn.execute(
        "SELECT id::text AS id FROM context_api_keys WHERE key_hash = %s AND id <> %s",
        (line.key_hash, line.id),
    ).fetchone()
    if clash is not None:
        return skipped(f"key {clash['id']} here has the same token")
    here = conn.execute(
        f"SELECT {', '.join(k for k in KEY_FIELDS if k != 'tenant_id')}, "
        "tenant_id::text AS tenant_id "
        "FROM context_api_keys WHERE id = %s FOR UPDATE",
        (line.id,),
    ).fetchone()
    values = {**line.model_dump(exclude={"type", "tenant"}), "tenant_id": tenant}
    outcome = outcome_of(here, {k: values[k] for k in KEY_FIELDS})
    if outcome == "unchanged":
        conn.execute(  # only a later use moves it
            "UPDATE context_api_keys SET last_used_at = %s WHERE id = %s AND "
            "last_used_at IS DISTINCT FROM greatest(last_used_at, %s)",
            (line.last_used_at, line.id, line.last_used_at),
        )
        return outcome
    conn.execute(
        f"""
        INSERT INTO context_api_keys (id, {", ".join(KEY_FIELDS)}, last_used_at)
        VALUES (%(id)s, {", ".join(f"%({k})s" for k in KEY_FIELDS)}, %(last_used_at)s)
        ON CONFLICT (id) DO UPDATE SET {", ".join(f"{k} = EXCLUDED.{k}" for k in KEY_FIELDS)},
            last_used_at = greatest(context_api_keys.last_used_at, EXCLUDED.last_used_at)
        """,
        values,
    )
    return outcome


SECRETS_SECTION = TransferSection(
    "secrets",
    (TransferRecord("secret", SecretLine, restore_secret),),
    export_secrets,
    tables=("context_secrets",),
    admin=True,
    first=True,
)

KEYS_SECTION = TransferSection(
    "api_keys",
    (TransferRecord("api_key", KeyLine, restore_key),),
    export_keys,
    tables=("context_api_keys",),
    admin=True,
)
