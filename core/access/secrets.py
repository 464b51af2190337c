"""Sealed secrets: credentials ctx needs (a backend's API key, a forge token), stored encrypted.

Each value is sealed with AES-256-GCM under the seal key, with the secret's name as associated
data, so a row copied under another name does not open. The seal key never enters the database:
it comes from ``CTX_SEAL_KEY`` (replicas share it that way) or from ``$CTX_HOME/secret.key``,
created on first use with mode 0600. A database dump without the key reveals nothing; values are
write-only through every interface (``reveal_secret`` is for the core's own use: backends, sync).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os
import re
import secrets as random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import psycopg
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from ctx.core.access.schemas import SECRET_NAME
from ctx.core.errors import ConfigError, Conflict, NotFound, ValidationError
from ctx.core.text import text_problem

NAME_RE = re.compile(SECRET_NAME)
KEY_FILE = "secret.key"
KEY_ENV = "CTX_SEAL_KEY"
MAX_VALUE = 64 * 1024


def _decode_key(text: str, where: str) -> bytes:
    try:
        key = base64.urlsafe_b64decode(text.strip() + "=" * (-len(text.strip()) % 4))
    except (binascii.Error, ValueError):
        key = b""
    if len(key) != 32:
        raise ConfigError(
            f"{where} must hold 32 random bytes in URL-safe base64 (make one with "
            '`python -c "import secrets; print(secrets.token_urlsafe(32))"`)'
        )
    return key


def load_seal_key(home: Path, environ: Mapping[str, str] | None = None) -> bytes:
    """The seal key: ``CTX_SEAL_KEY``, else ``home/secret.key`` (created, mode 0600)."""
    env = os.environ if environ is None else environ
    if env.get(KEY_ENV, "").strip():
        return _decode_key(env[KEY_ENV], KEY_ENV)
    path = home / KEY_FILE
    if not path.exists():
        home.mkdir(parents=True, exist_ok=True)
        try:  # O_EXCL: two processes starting at once agree on one key
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w") as f:
                f.write(base64.urlsafe_b64encode(random.token_bytes(32)).decode() + "\n")
    return _decode_key(path.read_text(), str(path))


def key_id(key: bytes) -> str:
    """A short fingerprint of a seal key: says which key sealed a row, reveals nothing."""
    return hashlib.sha256(b"ctx-seal:" + key).hexdigest()[:12]


def check_secret_name(name: str) -> str:
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise ValidationError(
            f"secret name {name!r} is invalid: use 1-64 lowercase letters, digits, '.', '_' or "
            "'-', starting with a letter or digit",
            field="name",
        )
    return name


def _check_value(value: str) -> str:
    problem = text_problem(value) if isinstance(value, str) else "must be text"
    if problem:
        raise ValidationError(f"the secret's value {problem}", field="value")
    if not value:
        raise ValidationError("the secret's value must not be empty", field="value")
    if len(value.encode()) > MAX_VALUE:
        raise ValidationError(
            f"the secret's value must be at most {MAX_VALUE} bytes", field="value"
        )
    return value


def set_secret(
    conn: psycopg.Connection[Any], key: bytes, name: str, value: str, by: str = "cli"
) -> dict[str, Any]:
    """Seal ``value`` under ``name`` (replacing an earlier value); returns its listing row."""
    check_secret_name(name)
    nonce = random.token_bytes(12)
    sealed = AESGCM(key).encrypt(nonce, _check_value(value).encode(), name.encode())
    row = conn.execute(
        """
        INSERT INTO context_secrets (name, nonce, sealed, key_id, updated_by)
        VALUES (%s, %s, %s, %s, %s)
        ON CONFLICT (name) DO UPDATE SET nonce = EXCLUDED.nonce, sealed = EXCLUDED.sealed,
            key_id = EXCLUDED.key_id, updated_by = EXCLUDED.updated_by, updated_at = now()
        RETURNING name, key_id, created_at, updated_at, updated_by
        """,
        (name, nonce, sealed, key_id(key), by),
    ).fetchone()
    assert row is not None
    return dict(row)


def list_secrets(conn: psycopg.Connection[Any]) -> list[dict[str, Any]]:
    """Names, which key sealed each, when and by whom: never a value."""
    rows = conn.execute(
        "SELECT name, key_id, created_at, updated_at, updated_by FROM context_secrets ORDER BY name"
    ).fetchall()
    return [dict(r) for r in rows]


def secret_users(conn: psycopg.Connection[Any]) -> dict[str, list[str]]:
    """Secret name -> what uses it: backends by name, secret settings as ``setting <key>``."""
    rows = conn.execute(
        "SELECT secret AS name, name AS used_by FROM context_backends WHERE secret IS NOT NULL"
        " UNION ALL"
        " SELECT substr(value #>> '{}', 8), 'setting ' || key FROM context_settings"
        "  WHERE jsonb_typeof(value) = 'string' AND value #>> '{}' LIKE 'secret:%%'"
        " ORDER BY 1, 2"
    ).fetchall()
    out: dict[str, list[str]] = {}
    for r in rows:
        out.setdefault(r["name"], []).append(r["used_by"])
    return out


def listed_secrets(conn: psycopg.Connection[Any]) -> list[dict[str, Any]]:
    """Every secret's listing row with what uses it (``references``: backends by name, secret
    settings as ``setting <key>``); never a value."""
    used = secret_users(conn)
    return [{**row, "references": used.get(row["name"], [])} for row in list_secrets(conn)]


def _in_use(conn: psycopg.Connection[Any], name: str) -> Conflict:
    users = secret_users(conn).get(name, [])
    settings = [u.removeprefix("setting ") for u in users if u.startswith("setting ")]
    backends = [u for u in users if not u.startswith("setting ")]
    parts = ([f"backend(s) {', '.join(backends)}"] if backends else []) + (
        [f"setting(s) {', '.join(settings)}"] if settings else []
    )
    return Conflict(
        f"secret {name} is used by {' and '.join(parts) or 'a backend'}; change them first",
        field="name",
    )


def delete_secret(conn: psycopg.Connection[Any], name: str) -> dict[str, Any]:
    """Delete a secret; one that a backend or a secret setting still uses is refused (409),
    naming them."""
    check_secret_name(name)
    if secret_users(conn).get(name):
        raise _in_use(conn, name)
    try:
        with conn.transaction():  # a savepoint: the names can still be read after a refusal
            row = conn.execute(
                "DELETE FROM context_secrets WHERE name = %s RETURNING name", (name,)
            ).fetchone()
    except (psycopg.errors.RestrictViolation, psycopg.errors.ForeignKeyViolation):
        raise _in_use(conn, name) from None
    if row is None:
        raise NotFound(f"no secret {name!r}")
    return {"name": name, "deleted": True}


def reveal_secret(conn: psycopg.Connection[Any], key: bytes, name: str) -> str:
    """The plain value, for the core's own use (never an API answer)."""
    row = conn.execute(
        "SELECT nonce, sealed, key_id FROM context_secrets WHERE name = %s",
        (check_secret_name(name),),
    ).fetchone()
    if row is None:
        raise NotFound(f"no secret {name!r}")
    try:
        plain = AESGCM(key).decrypt(bytes(row["nonce"]), bytes(row["sealed"]), name.encode())
    except InvalidTag:
        raise ConfigError(
            f"secret {name!r} was sealed with another key (key id {row['key_id']}, this one is "
            f"{key_id(key)}): set {KEY_ENV} or $CTX_HOME/{KEY_FILE} to that key, or set the "
            "secret again"
        ) from None
    return plain.decode()
