"""Sealed secrets: AES-GCM under a key outside the database, write-only everywhere."""

from __future__ import annotations

import base64
import io
import json
import secrets as random
import stat
from pathlib import Path
from typing import Any

import pytest

from ctx.core import App, ConfigError, NotFound, ValidationError, access
from ctx.ui.cli import run

VALUE = "sk-live-51HqZexampleSECRETvalue"


def _key() -> str:
    return base64.urlsafe_b64encode(random.token_bytes(32)).decode()


def test_a_secret_round_trips_and_the_database_holds_no_plaintext(app: App) -> None:
    with app.connection() as conn:
        row = access.set_secret(conn, app.seal_key, "openai", VALUE)
        assert row["name"] == "openai" and "value" not in row
        assert access.reveal_secret(conn, app.seal_key, "openai") == VALUE
        dump = conn.execute("SELECT * FROM context_secrets").fetchall()
        assert VALUE.encode() not in b"".join(bytes(r["sealed"]) + bytes(r["nonce"]) for r in dump)
        assert VALUE not in json.dumps(access.list_secrets(conn), default=str)
        access.set_secret(conn, app.seal_key, "openai", "rotated")  # a new value replaces
        assert access.reveal_secret(conn, app.seal_key, "openai") == "rotated"
        assert [r["name"] for r in access.list_secrets(conn)] == ["openai"]


def test_the_key_file_is_created_private_and_reused(tmp_path: Path) -> None:
    home = tmp_path / "home"
    first = access.load_seal_key(home, {})
    mode = stat.S_IMODE((home / "secret.key").stat().st_mode)
    assert mode == 0o600 and len(first) == 32
    assert access.load_seal_key(home, {}) == first
    own = _key()
    assert access.load_seal_key(home, {"CTX_SEAL_KEY": own}) == base64.urlsafe_b64decode(own)
    with pytest.raises(ConfigError, match="32 random bytes"):
        access.load_seal_key(home, {"CTX_SEAL_KEY": "too-short"})


def test_without_the_key_a_dump_reveals_nothing(app: App, tmp_path: Path) -> None:
    other = access.load_seal_key(tmp_path / "elsewhere", {})
    with app.connection() as conn:
        access.set_secret(conn, app.seal_key, "github.token", VALUE)
        with pytest.raises(ConfigError, match="sealed with another key"):
            access.reveal_secret(conn, other, "github.token")
        # a sealed value moved under another name does not open either (the name is bound in)
        conn.execute(
            "INSERT INTO context_secrets (name, nonce, sealed, key_id) "
            "SELECT 'copy', nonce, sealed, key_id FROM context_secrets WHERE name = 'github.token'"
        )
        with pytest.raises(ConfigError):
            access.reveal_secret(conn, app.seal_key, "copy")


def test_names_and_values_are_checked(app: App) -> None:
    with app.connection() as conn:
        for bad in ("", "Upper", "a b", "-lead", "x" * 65, "nul\x00"):
            with pytest.raises(ValidationError, match="secret name"):
                access.set_secret(conn, app.seal_key, bad, VALUE)
        for value in ("", "a\x00b", "x" * (64 * 1024 + 1)):
            with pytest.raises(ValidationError, match="value"):
                access.set_secret(conn, app.seal_key, "ok", value)
        with pytest.raises(NotFound):
            access.delete_secret(conn, "missing")
        with pytest.raises(NotFound):
            access.reveal_secret(conn, app.seal_key, "missing")


def test_the_api_is_admin_only_and_write_only(client: Any, keys: Any, app: App) -> None:
    admin = {"X-Context-Key": keys.make("ops", admin=True)}
    user = {"X-Context-Key": keys.make("ops")}
    assert client.put("/api/secrets/openai", headers=user, json={"value": VALUE}).status_code == 403
    put = client.put("/api/secrets/openai", headers=admin, json={"value": VALUE})
    assert put.status_code == 200 and VALUE not in put.text
    assert put.json()["updated_by"] == "api:test-ops"
    listed = client.get("/api/secrets", headers=admin)
    assert [s["name"] for s in listed.json()["secrets"]] == ["openai"] and VALUE not in listed.text
    assert client.get("/api/secrets", headers=user).status_code == 403
    bad = client.put("/api/secrets/Bad%20Name", headers=admin, json={"value": "x"})
    assert bad.status_code == 422 and bad.json()["field"] == "path.name"  # the path's rule
    empty = client.put("/api/secrets/openai", headers=admin, json={"value": ""})
    assert empty.status_code == 422
    with app.connection() as conn:
        assert access.reveal_secret(conn, app.seal_key, "openai") == VALUE  # unchanged
    assert client.delete("/api/secrets/openai", headers=admin).json() == {
        "name": "openai",
        "deleted": True,
    }
    assert client.delete("/api/secrets/openai", headers=admin).status_code == 404


def test_the_cli_reads_the_value_from_stdin_and_never_prints_it(
    monkeypatch: pytest.MonkeyPatch,
    database_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("CTX_DATABASE_URL", database_url)
    monkeypatch.setenv("CTX_HOME", str(tmp_path))
    monkeypatch.setenv("CTX_LOAD_PLUGINS", "")
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(VALUE.encode() + b"\n")))
    assert run(["secrets", "set", "openai"]) == 0
    assert run(["secrets", "list", "--json"]) == 0
    out = capsys.readouterr().out
    assert VALUE not in out and '"name": "openai"' in out
    app = App(database_url=database_url, home=tmp_path, load_entry_points=False)
    with app, app.connection() as conn:
        assert access.reveal_secret(conn, app.seal_key, "openai") == VALUE  # newline stripped
    assert run(["secrets", "set", "Bad Name"]) == 2
    assert "secret name 'Bad Name' is invalid" in capsys.readouterr().err
    assert run(["secrets", "delete", "openai"]) == 0
    assert run(["secrets", "delete", "openai"]) == 2
    assert "no secret 'openai'" in capsys.readouterr().err
