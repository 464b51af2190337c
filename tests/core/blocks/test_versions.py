"""Every block keeps its versions (``blocks.versions``): a store or an edit that changes what a
block says keeps the state it replaces; the versions are listed through every surface the one
declaration gives (REST, the MCP tool, ``ctx versions``) within the caller's scopes, ``get`` reads
one, a query that names a past time shows the version current then, and a delete takes them
along."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from backend_kit import add_backend
from live import live_server

from ctx.core import App
from ctx.core.access import authenticate
from ctx.core.runtime import set_setting
from ctx.core.tools import call_tool
from ctx.ui.cli import run


def h(token: str) -> dict[str, str]:
    return {"X-Context-Key": token}


def _ok(r: Any) -> Any:
    assert r.status_code < 300, r.text
    return r.json()


def _store(client: Any, key: dict[str, str], content: str, **extra: Any) -> str:
    body = {"title": "Backups", "content": content, "category": "ops", **extra}
    return str(_ok(client.post("/api/store", json=body, headers=key))["id"])


def _changed_twice(client: Any, key: dict[str, str]) -> str:
    """Stored, stored again with other content, again with other metadata only, then retitled by
    an edit: three versions (the metadata alone makes none)."""
    block_id = _store(client, key, "Backups run nightly at 02:00.")
    _store(client, key, "Backups run every hour.")
    _store(client, key, "Backups run every hour.", metadata={"checked": True})
    edit = {"action": "update", "id": block_id, "changes": {"title": "Backup schedule"}}
    _ok(client.post("/api/manage", json=edit, headers=key))
    return block_id


def test_an_upsert_keeps_the_version_it_replaces(client: Any, keys: Any) -> None:
    key = h(keys.make("alpha"))
    block_id = _changed_twice(client, key)
    body = _ok(client.get(f"/api/blocks/{block_id[:8]}/versions", headers=key))
    assert (body["id"], body["scope"], body["title"]) == (block_id, "alpha", "Backup schedule")
    assert body["current"] == 3 and body["count"] == 3
    shown = [(v["version"], v["current"], v["title"], v["content"]) for v in body["versions"]]
    assert shown == [
        (3, True, "Backup schedule", "Backups run every hour."),
        (2, False, "Backups", "Backups run every hour."),
        (1, False, "Backups", "Backups run nightly at 02:00."),
    ]
    current, second, first = body["versions"]
    # each version ends where the next begins; the current one has no end
    assert current["valid_to"] is None and current["valid_from"] == second["valid_to"]
    assert second["valid_from"] == first["valid_to"] and first["valid_from"] <= first["valid_to"]
    assert second["metadata"] == {"checked": True} and first["metadata"] == {}
    assert {v["key"] for v in body["versions"]} == {"test-alpha"}
    latest = _ok(client.get(f"/api/blocks/{block_id}/versions?limit=1", headers=key))
    assert [v["version"] for v in latest["versions"]] == [3]
    # the block itself is the current version, unchanged
    block = _ok(client.post("/api/manage", json={"action": "get", "id": block_id}, headers=key))
    assert block["block"]["content"] == "Backups run every hour."


def test_versions_kept_keeps_the_newest(app: App, client: Any, keys: Any) -> None:
    key = h(keys.make("alpha"))
    set_setting(app, "blocks.versions_kept", 1)
    block_id = _changed_twice(client, key)
    body = _ok(client.get(f"/api/blocks/{block_id}/versions", headers=key))
    assert [v["version"] for v in body["versions"]] == [3, 2]


def test_another_scope_gets_a_404_and_bad_input_a_422(client: Any, keys: Any) -> None:
    block_id = _changed_twice(client, h(keys.make("alpha")))
    stranger = h(keys.make("beta"))
    r = client.get(f"/api/blocks/{block_id}/versions", headers=stranger)
    assert r.status_code == 404 and "Backups" not in r.text
    reader = h(keys.make("beta", allowed=["alpha"]))
    assert _ok(client.get(f"/api/blocks/{block_id}/versions", headers=reader))["count"] == 3
    r = client.get(f"/api/blocks/{block_id}/versions?limit=0", headers=reader)
    assert r.status_code == 422 and r.json()["field"] == "query.limit", r.text
    r = client.get("/api/blocks/zz/versions", headers=reader)
    assert r.status_code == 422 and r.json()["field"] == "path.id", r.text
    assert client.get(f"/api/blocks/{block_id}/versions").status_code == 401


def test_the_tools_and_the_command_answer_the_same(
    app: App, client: Any, keys: Any, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    token = keys.make("alpha")
    block_id = _changed_twice(client, h(token))
    with app.connection() as conn:
        who = authenticate(conn, token)
        stranger = authenticate(conn, keys.make("beta"))
    listed = call_tool(app, who, "versions", {"id": block_id[:6], "limit": 2})
    assert listed.error is None, listed.error
    assert [v["version"] for v in listed.result["versions"]] == [3, 2]
    # get: a version by number, or the one current at a time
    first = call_tool(app, who, "get", {"id": block_id[:6], "version": 1})
    assert first.error is None, first.error
    assert first.result["content"] == "Backups run nightly at 02:00."
    assert first.result["version"] == 1 and first.result["current"] is False
    versions = {v["version"]: v for v in listed.result["versions"]}
    at = call_tool(app, who, "get", {"id": block_id, "at": versions[2]["valid_from"]})
    assert at.error is None and at.result["version"] == 2, at.error
    now = call_tool(app, who, "get", {"id": block_id, "at": datetime.now(UTC).isoformat()})
    assert now.result["current"] is True and now.result["title"] == "Backup schedule"
    early = call_tool(app, who, "get", {"id": block_id, "at": "2001-01-01T00:00:00Z"})
    assert early.error is not None and "keeps no" in str(early.error)
    both = call_tool(app, who, "get", {"id": block_id, "version": 1, "at": "2001-01-01"})
    assert both.error is not None and "not both" in str(both.error)
    future = call_tool(app, who, "get", {"id": block_id, "version": 9})
    assert future.error is not None and "newer than" in str(future.error)
    hidden = call_tool(app, stranger, "versions", {"id": block_id})
    assert hidden.error is not None and "Backups" not in str(hidden.error)
    assert call_tool(app, stranger, "get", {"id": block_id, "version": 1}).error is not None
    with live_server(app) as url:
        monkeypatch.setenv("CTX_URL", url)
        monkeypatch.setenv("CTX_API_KEY", token)
        assert run(["versions", block_id[:8], "--json"]) == 0
        shown = json.loads(capsys.readouterr().out)
        assert shown["count"] == 3 and shown["versions"][0]["current"] is True
        assert run(["versions", block_id[:8], "--content"]) == 0
        out = capsys.readouterr().out
        assert "now" in out and "test-alpha" in out and "nightly at 02:00" in out
        assert run(["versions", "0000dead"]) == 2
        assert "no block" in capsys.readouterr().err


def test_deleting_a_block_deletes_its_versions(app: App, client: Any, keys: Any) -> None:
    key = h(keys.make("alpha"))
    block_id = _changed_twice(client, key)
    count = "SELECT count(*) AS n FROM context_block_versions WHERE block_id = %s"
    with app.connection() as conn:
        assert conn.execute(count, (block_id,)).fetchone()["n"] == 2
    _ok(client.post("/api/manage", json={"action": "delete", "id": block_id}, headers=key))
    with app.connection() as conn:
        assert conn.execute(count, (block_id,)).fetchone()["n"] == 0
    assert client.get(f"/api/blocks/{block_id}/versions", headers=key).status_code == 404


# -- a query that names a past time -------------------------------------------------------------

BLOCK = "0f6a1c7e-3b2d-4e5f-8a9b-0c1d2e3f4a5b"
THEN = "The backup schedule: nightly at 02:00 on db-2."
NOW = "The backup schedule: every hour on db-3."


def _history(client: Any, token: str) -> None:
    """A block written on 1 March and changed on 20 March 2026, restored from an export (which
    keeps its times): version 1 was current from 1 to 20 March."""
    records = [
        {"type": "header", "format": "ctx-export", "version": 2},
        {"type": "block", "id": BLOCK, "scope": "alpha", "category": "ops",
         "title": "Backup schedule", "content": NOW, "block_type": "knowledge",
         "sensitivity": "internal", "created_at": "2026-03-01T09:00:00+00:00",
         "updated_at": "2026-03-20T09:00:00+00:00"},
        {"type": "block_version", "block_id": BLOCK, "version": 1, "category": "ops",
         "title": "Backup schedule", "content": THEN, "block_type": "knowledge",
         "sensitivity": "internal", "valid_from": "2026-03-01T09:00:00+00:00",
         "valid_to": "2026-03-20T09:00:00+00:00"},
        {"type": "end", "counts": {"block": 1, "block_version": 1}},
    ]  # fmt: skip
    report = _ok(client.post("/api/import", json={"records": records}, headers=h(token)))
    assert report["created"] == {"block": 1, "block_version": 1}, report


def _source(client: Any, token: str, query: str, **extra: Any) -> dict[str, Any]:
    body = {"query": query, "now": "2026-03-18", **extra}
    answer = _ok(client.post("/api/query", json=body, headers=h(token)))
    [source] = [s for s in answer["sources"] if s["id"] == BLOCK]
    return {**source, "_answer": answer}


def test_a_query_naming_a_past_time_sees_the_version_current_then(
    app: App, client: Any, keys: Any, srv: Any
) -> None:
    token = keys.make("alpha")
    _history(client, token)
    # "last week" of Wednesday 18 March is 9-15 March: the block said THEN
    then = _source(client, token, "What was the backup schedule last week?")
    assert then["version"] == 1 and then["valid_to"].startswith("2026-03-20")
    assert "nightly" in then["snippet"] and "every hour" not in then["snippet"]
    # without a time: the block as it is now, no version fields
    now = _source(client, token, "What is the backup schedule?")
    assert now.get("version") is None and "every hour" in now["snippet"]
    # a named time after the change: the current version
    later = _source(client, token, "backup schedule on 2026-03-21")
    assert later.get("version") is None
    # the answer is written from what the block said then
    add_backend(app, srv, ["synthesis"])
    srv.chat_default = "Nightly at 02:00 [1]."
    answered = _source(client, token, "What was the backup schedule last week?", synthesize=True)
    assert answered["_answer"]["answer"] == "Nightly at 02:00 [1]."
    assert THEN in srv.sent_text() and NOW not in srv.sent_text()
