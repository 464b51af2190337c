"""``ctx backends list|create|update|delete|test`` and ``ctx llmlog`` on the local store."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai_server
import pytest

from ctx.ui.cli import run


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, database_url: str, tmp_path: Path) -> str:
    monkeypatch.setenv("CTX_DATABASE_URL", database_url)
    monkeypatch.setenv("CTX_HOME", str(tmp_path))
    monkeypatch.setenv("CTX_LOAD_PLUGINS", "")
    return database_url


@pytest.fixture
def srv() -> Iterator[Any]:
    with openai_server.OpenAIServer() as server:
        yield server


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    assert run(list(argv)) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def _fails(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert run(list(argv)) == 2
    err = capsys.readouterr().err
    assert err.startswith("ctx: ") and len(err.strip().splitlines()) == 1, err
    return err


def test_create_list_update_test_delete(
    env: str, srv: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    created = _json(capsys, "backends", "create", "peer", "--kind", "openai", "--url",
                    srv.base_url, "--role", "synthesis", "--role", "rerank", "--model",
                    "default=test-model", "--model", "rerank=rank-model", "--priority", "60",
                    "--trust", "full-trust", "--description", "loopback", "--json")  # fmt: skip
    assert created["roles"] == ["synthesis", "rerank"] and created["priority"] == 60
    assert created["model_map"] == {"default": "test-model", "rerank": "rank-model"}
    assert created["trust"] == "full-trust" and created["updated_by"] == "cli"

    assert run(["backends", "list"]) == 0
    out = capsys.readouterr().out
    assert "peer" in out and "openai" in out and "name" in out.splitlines()[1]
    assert [b["name"] for b in _json(capsys, "backends", "list", "--json")] == ["peer"]

    assert run(["backends", "update", "peer", "--priority", "5", "--model", "rerank=bge",
                "--disable"]) == 0  # fmt: skip
    assert "backend peer updated" in capsys.readouterr().out
    [row] = _json(capsys, "backends", "list", "--json")
    assert row["priority"] == 5 and row["enabled"] is False and row["trust"] == "full-trust"
    assert row["model_map"] == {"default": "test-model", "rerank": "bge"}
    params = '{"default": {"model": "test-model", "temperature": 0.1}}'
    changed = _json(capsys, "backends", "update", "peer", "--model-map", params, "--enable",
                    "--json")  # fmt: skip
    assert changed["model_map"] == json.loads(params) and changed["enabled"] is True

    assert run(["backends", "test", "peer"]) == 0
    out = capsys.readouterr().out
    assert "ok" in out and "synthesis" in out and "rerank" in out and " ms" in out
    assert any(r.body.get("temperature") == 0.1 for r in srv.requests)

    srv.reset(chat="error500")
    assert run(["backends", "test", "peer", "--role", "synthesis", "--json"]) == 1
    [result] = json.loads(capsys.readouterr().out)["results"]
    assert result["ok"] is False and result["latency_ms"] >= 0 and result["error"]
    assert run(["backends", "test", "peer", "--role", "synthesis"]) == 1
    assert "failed" in capsys.readouterr().out

    calls = _json(capsys, "llmlog", "--json", "--backend", "peer")
    assert [(c["role"], c["outcome"]) for c in calls] == [
        ("synthesis", "error"), ("synthesis", "error"), ("rerank", "ok"), ("synthesis", "ok")]  # fmt: skip
    assert calls[2]["model"] == "test-model" and calls[0]["latency_ms"] >= 0
    assert {c["role"] for c in calls} == {"synthesis", "rerank"}
    assert all("request" not in c for c in calls)
    assert run(["llmlog", "--role", "rerank", "--limit", "5"]) == 0
    out = capsys.readouterr().out
    assert "rerank" in out and "peer" in out and "synthesis" not in out

    assert run(["backends", "delete", "peer"]) == 0
    assert "backend peer deleted" in capsys.readouterr().out
    assert "no backend named 'peer'" in _fails(capsys, "backends", "delete", "peer")
    assert _json(capsys, "backends", "list", "--json") == []


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (["--role", "poetry"], "unknown role"),
        (["--kind", "telepathy"], "unknown backend kind 'telepathy'"),
        (["--role", "embed"], "role 'embed' has no model"),
        (["--trust", "total"], "trust must be one of"),
        (["--url", "ftp://example.com"], "http:// or https://"),
        (["--secret", "nowhere"], "no secret named 'nowhere'"),
        (["--model", "no-equals-sign"], "--model expects ROLE=MODEL"),
        (["--model-map", "{not json"], "--model-map is not valid JSON"),
        (["--priority", "many"], "Invalid value for '--priority'"),
    ],
)
def test_bad_input_exits_2_with_one_line(
    env: str, capsys: pytest.CaptureFixture[str], extra: list[str], says: str
) -> None:
    args = ["backends", "create", "peer", "--url", "http://127.0.0.1:9/v1", "--role", "rerank",
            "--model", "rerank=m", *extra]  # fmt: skip
    assert says in _fails(capsys, *args)
    assert _json(capsys, "backends", "list", "--json") == []


def test_duplicates_updates_and_secrets(
    env: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"sk-test\n")))
    assert run(["secrets", "set", "openai"]) == 0
    base = ["backends", "create", "peer", "--url", "https://api.example/v1", "--role", "chat",
            "--model", "default=m", "--secret", "openai"]  # fmt: skip
    assert run(base) == 0
    assert "a backend named 'peer' exists" in _fails(capsys, *base)
    assert "nothing to change" in _fails(capsys, "backends", "update", "peer")
    assert "no backend named 'ghost'" in _fails(capsys, "backends", "update", "ghost",
                                                "--priority", "1")  # fmt: skip
    assert "does not serve ['rerank']" in _fails(capsys, "backends", "test", "peer", "--role",
                                                 "rerank")  # fmt: skip
    assert "unknown role" in _fails(capsys, "llmlog", "--role", "poetry")
    assert run(["llmlog", "--limit", "0"]) == 2
    capsys.readouterr()

    refused = _fails(capsys, "secrets", "delete", "openai")
    assert "secret openai is used by backend(s) peer; change them first" in refused
    assert _json(capsys, "backends", "update", "peer", "--secret", "", "--json")["secret"] is None
    assert run(["secrets", "delete", "openai"]) == 0
