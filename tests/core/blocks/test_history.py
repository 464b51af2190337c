"""A block's history (``blocks.history``): its write log, newest first, through every surface the
one declaration gives it (REST, the MCP tool, ``ctx history``), within the caller's scopes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from live import live_server

from ctx.core import App
from ctx.core.access import authenticate
from ctx.core.tools import call_tool
from ctx.ui.cli import run


def h(token: str) -> dict[str, str]:
    return {"X-Context-Key": token}


def _written_four_times(client: Any, key: dict[str, str]) -> str:
    """A block created, edited (a new title), archived and brought back; its id."""
    r = client.post("/api/store", json={"title": "Backups", "content": "nightly"}, headers=key)
    assert r.status_code == 200, r.text
    block_id = str(r.json()["id"])
    for body in (
        {"action": "update", "id": block_id, "changes": {"title": "Backups at 02:00"}},
        {"action": "archive", "id": block_id},
        {"action": "unarchive", "id": block_id},
    ):
        assert client.post("/api/manage", json=body, headers=key).status_code == 200
    return block_id


def test_the_history_lists_every_write_newest_first(client: Any, keys: Any) -> None:
    key = h(keys.make("alpha"))
    block_id = _written_four_times(client, key)
    r = client.get(f"/api/blocks/{block_id[:8]}/history", headers=key)
    assert r.status_code == 200, r.text
    body = r.json()
    assert (body["id"], body["scope"], body["title"]) == (block_id, "alpha", "Backups at 02:00")
    actions = [e["action"] for e in body["history"]]
    assert actions == ["unarchived", "archived", "updated", "created"] and body["count"] == 4
    assert [e["title"] for e in body["history"]][-2:] == ["Backups at 02:00", "Backups"]
    assert {e["key"] for e in body["history"]} == {"test-alpha"}
    assert body["history"][-1]["block_type"] == "knowledge"
    times = [e["at"] for e in body["history"]]
    assert times == sorted(times, reverse=True)
    latest = client.get(f"/api/blocks/{block_id}/history?limit=1", headers=key).json()
    assert [e["action"] for e in latest["history"]] == ["unarchived"]


def test_another_scope_gets_a_404_and_bad_input_a_422(client: Any, keys: Any) -> None:
    block_id = _written_four_times(client, h(keys.make("alpha")))
    stranger = h(keys.make("beta"))
    r = client.get(f"/api/blocks/{block_id}/history", headers=stranger)
    assert r.status_code == 404 and "Backups" not in r.text
    reader = h(keys.make("beta", allowed=["alpha"]))
    assert client.get(f"/api/blocks/{block_id}/history", headers=reader).status_code == 200
    r = client.get(f"/api/blocks/{block_id}/history?limit=0", headers=reader)
    assert r.status_code == 422 and r.json()["field"] == "query.limit", r.text
    r = client.get("/api/blocks/zz/history", headers=reader)
    assert r.status_code == 422 and r.json()["field"] == "path.id", r.text
    assert client.get(f"/api/blocks/{block_id}/history").status_code == 401


def test_the_tool_and_the_command_answer_the_same(
    app: App, client: Any, keys: Any, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    token = keys.make("alpha")
    block_id = _written_four_times(client, h(token))
    with app.connection() as conn:
        who = authenticate(conn, token)
    outcome = call_tool(app, who, "history", {"id": block_id[:6], "limit": 2})
    assert outcome.error is None, outcome.error
    assert [e["action"] for e in outcome.result["history"]] == ["unarchived", "archived"]
    with live_server(app) as url:
        monkeypatch.setenv("CTX_URL", url)
        monkeypatch.setenv("CTX_API_KEY", token)
        assert run(["history", block_id[:8], "--json"]) == 0
        shown = json.loads(capsys.readouterr().out)
        assert shown["count"] == 4 and shown["history"][0]["action"] == "unarchived"
        assert run(["history", block_id[:8]]) == 0
        out = capsys.readouterr().out
        assert "Backups at 02:00" in out and "created" in out and "test-alpha" in out
        assert run(["history", "0000dead"]) == 2
        assert "no block" in capsys.readouterr().err
