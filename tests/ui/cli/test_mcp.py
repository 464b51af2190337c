"""``ctx mcp add|list|remove``: OAuth clients from the command line."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from ctx.core import App
from ctx.ui.cli import run


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, database_url: str, tmp_path: Path) -> str:
    monkeypatch.setenv("CTX_DATABASE_URL", database_url)
    monkeypatch.setenv("CTX_HOME", str(tmp_path))
    monkeypatch.setenv("CTX_LOAD_PLUGINS", "")
    return database_url


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> object:
    assert run(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_add_list_remove(env: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    added = _json(
        capsys,
        "mcp",
        "add",
        "--name",
        "Cursor",
        "--redirect-uri",
        "https://cursor.example/cb",
        "--redirect-uri",
        "http://127.0.0.1:8765/cb",
        "--json",
    )
    assert isinstance(added, dict)
    assert added["client_id"].startswith("ctx_") and added["client_secret"]
    assert added["redirect_uris"] == ["https://cursor.example/cb", "http://127.0.0.1:8765/cb"]
    assert added["registered_by"] == "cli" and added["public"] is False

    assert run(["mcp", "add", "--name", "Claude Code", "--redirect-uri", "http://localhost/cb",
                "--public"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "client_id: ctx_" in out and "public client: no secret" in out

    listed = _json(capsys, "mcp", "list", "--json")
    assert isinstance(listed, list)
    assert [c["name"] for c in listed] == ["Cursor", "Claude Code"]
    assert "client_secret" not in json.dumps(listed)
    assert run(["mcp", "list"]) == 0
    assert "Cursor" in capsys.readouterr().out

    # the secret is stored only as its hash
    app = App(database_url=env, home=tmp_path / "h", load_entry_points=False)
    with app, app.connection() as conn:
        row = conn.execute(
            "SELECT secret_hash FROM context_oauth_clients WHERE client_id = %s",
            (added["client_id"],),
        ).fetchone()
    assert row == {"secret_hash": hashlib.sha256(added["client_secret"].encode()).hexdigest()}

    assert run(["mcp", "remove", added["client_id"]]) == 0
    assert f"removed {added['client_id']}" in capsys.readouterr().out
    assert [c["name"] for c in _json(capsys, "mcp", "list", "--json")] == ["Claude Code"]  # type: ignore[union-attr]
    assert run(["mcp", "remove", added["client_id"]]) == 2
    assert capsys.readouterr().err == (
        f"ctx: no OAuth client {added['client_id']!r}; see `ctx mcp list`\n"
    )


@pytest.mark.parametrize(
    ("uri", "says"),
    [
        ("javascript:alert(1)", "must use https"),
        ("http://example.com/cb", "http only on 127.0.0.1"),
        ("https://example.com/cb#x", "fragment"),
    ],
)
def test_bad_redirect_uris_exit_2_with_one_line(
    env: str, capsys: pytest.CaptureFixture[str], uri: str, says: str
) -> None:
    assert run(["mcp", "add", "--name", "X", "--redirect-uri", uri]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ctx: redirect URI ") and says in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert _json(capsys, "mcp", "list", "--json") == []


def test_usage_errors_and_help(env: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["mcp", "add", "--name", "X"]) == 2
    assert "Missing option '--redirect-uri'" in capsys.readouterr().err
    assert run(["mcp", "--help"]) == 0
    out = capsys.readouterr().out
    assert "OAuth clients for remote MCP clients" in out
    assert all(name in out for name in ("add", "list", "remove"))
