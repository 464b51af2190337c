"""The Guard and Dream endpoints over HTTP, and ``ctx guard`` / ``ctx dream`` against a live
server."""

from __future__ import annotations

import json
from typing import Any

import pytest
from backend_kit import add_backend
from live import live_server

from ctx.core import App, graph
from ctx.core.runtime import drain
from ctx.ui.cli.root import run

BACKUP = "The nightly Postgres backup runs at 02:00 on db-2 and keeps 14 days of WAL archives."


def _store(client: Any, headers: dict[str, str], title: str, content: str, cat: str) -> str:
    r = client.post("/api/store", json={"title": title, "content": content, "category": cat},
                    headers=headers)  # fmt: skip
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


@pytest.fixture
def alpha(keys: Any) -> dict[str, str]:
    return {"X-Context-Key": keys.make("alpha")}


@pytest.fixture
def admin(keys: Any) -> dict[str, str]:
    return {"X-Context-Key": keys.make("ops", ["alpha"], admin=True)}


@pytest.fixture
def flagged(app: App, client: Any, alpha: dict[str, str]) -> dict[str, str]:
    ids = {
        "first": _store(client, alpha, "Backup plan", BACKUP, "ops"),
        "copy": _store(client, alpha, "Backup plan", BACKUP, "notes"),
        "changed": _store(client, alpha, "Backup plan v2", BACKUP.replace("02:00", "04:00"), "ops"),
    }
    drain(app, "embed")
    drain(app, "guard")
    return ids


def test_guard_list_stats_and_resolve(
    client: Any, alpha: dict[str, str], flagged: dict[str, str], keys: Any
) -> None:
    r = client.get("/api/guard", headers=alpha)
    assert r.status_code == 200, r.text
    got = {f["block_id"]: f["decision"] for f in r.json()["flags"]}
    assert got == {flagged["copy"]: "near_duplicate", flagged["changed"]: "needs_review"}
    r = client.get("/api/guard/stats", headers=alpha)
    assert r.json()["open"] == {"near_duplicate": 1, "needs_review": 1}
    r = client.post("/api/guard/resolve", headers=alpha,
                    json={"id": flagged["changed"][:8], "resolution": "keep_both"})  # fmt: skip
    assert r.status_code == 200 and r.json()["resolution"] == "keep_both"
    r = client.post("/api/guard/resolve", headers=alpha,
                    json={"id": flagged["changed"], "resolution": "keep_both"})  # fmt: skip
    assert r.status_code == 409 and "already resolved" in r.json()["message"]
    other = {"X-Context-Key": keys.make("beta")}
    assert client.get("/api/guard", headers=other).json()["flags"] == []
    r = client.post("/api/guard/resolve", headers=other,
                    json={"id": flagged["copy"], "resolution": "merge"})  # fmt: skip
    assert r.status_code == 404


def test_guard_bad_input_is_a_clear_4xx(client: Any, alpha: dict[str, str]) -> None:
    for body in ({"id": "abcd", "resolution": "shred"}, {"id": "abcd"}, {"resolution": "merge"},
                 {"id": "abcd", "resolution": "merge", "which": "both"}):  # fmt: skip
        r = client.post("/api/guard/resolve", headers=alpha, json=body)
        assert r.status_code == 422 and "error" in r.json(), (body, r.text)
    assert client.get("/api/guard?decision=maybe", headers=alpha).status_code == 422
    assert client.get("/api/guard?limit=0", headers=alpha).status_code == 422
    r = client.get("/api/guard?cross_scope=true", headers=alpha)
    assert r.status_code == 403
    assert client.get("/api/guard/thresholds", headers=alpha).status_code == 403


def test_guard_thresholds_for_admins(
    client: Any, admin: dict[str, str], flagged: dict[str, str]
) -> None:
    r = client.get("/api/guard/thresholds", headers=admin)
    assert r.status_code == 200
    assert r.json()["in_use"]["knowledge"]["source"] in ("embedder", "type")
    r = client.post("/api/guard/thresholds", headers=admin,
                    json={"duplicate": 0.97, "review": 0.9, "block_type": "knowledge"})  # fmt: skip
    assert r.status_code == 200, r.text
    used = client.get("/api/guard/thresholds", headers=admin).json()["in_use"]["knowledge"]
    assert used == {"duplicate": 0.97, "review": 0.9, "source": "type+generation"}
    r = client.post("/api/guard/thresholds", headers=admin,
                    json={"duplicate": 0.8, "review": 0.9})  # fmt: skip
    assert r.status_code == 422 and "review" in r.json()["message"]
    r = client.post("/api/guard/thresholds", headers=admin,
                    json={"duplicate": 0.97, "review": 0.9, "block_type": "nope"})  # fmt: skip
    assert r.status_code == 404
    r = client.post("/api/guard/thresholds", headers=admin,
                    json={"block_type": "knowledge"})  # fmt: skip
    assert r.json()["removed"] is True
    # a number too small for the real column is its 0, not a 500 (value out of range: underflow)
    r = client.post("/api/guard/thresholds", headers=admin,
                    json={"duplicate": 0.5, "review": 1e-300, "block_type": "knowledge"})  # fmt: skip
    assert r.status_code == 200, r.text
    used = client.get("/api/guard/thresholds", headers=admin).json()["in_use"]["knowledge"]
    assert used["review"] == 0
    r = client.patch("/api/types/knowledge", headers=admin, json={"retrieval_factor": 1e-300})
    assert r.status_code == 200, r.text


def _dream_ready(app: App, srv: Any, client: Any, alpha: dict[str, str]) -> dict[str, str]:
    add_backend(app, srv, ["dream"])
    ids = {
        "plan": _store(client, alpha, "Backup plan", BACKUP, "ops"),
        "drill": _store(client, alpha, "Restore drill", "We restored the db-2 backup.", "ops"),
    }
    drain(app, "embed")

    def answer(body: dict[str, Any]) -> str:
        system = body["messages"][0]["content"]
        if "search phrases" in system:
            return '["postgres backup"]'
        user = body["messages"][-1]["content"]
        if '<candidate id="C1">\nRestore drill' in user:
            return '[{"target": "C1", "type": "causal", "confidence": 0.8}]'
        if '<candidate id="C1">\nBackup plan' in user:
            return '[{"target": "C1", "type": "topical", "confidence": 0.8}]'
        return "[]"

    srv.chat_responder = answer
    return ids


def test_dream_run_stats_review_and_throttle(
    app: App, srv: Any, client: Any, alpha: dict[str, str], admin: dict[str, str], keys: Any
) -> None:
    ids = _dream_ready(app, srv, client, alpha)
    assert client.post("/api/dream/run", headers=alpha, json={}).status_code == 403
    r = client.post("/api/dream/run", headers=admin, json={"block_id": ids["plan"]})
    assert r.status_code == 200, r.text
    assert r.json()["outcome"] == "linked" and r.json()["links"][0]["type"] == "causal"
    stats = client.get("/api/dream/stats", headers=alpha).json()
    assert stats["links"] == {"causal": {"active": 1}} and "blocks" not in stats
    blind = {"X-Context-Key": keys.make("ops2", admin=True)}  # admin, but reads only ops2
    assert client.get("/api/dream/stats", headers=blind).json()["links"] == {}
    with app.connection() as conn:
        conn.execute("UPDATE context_dream_state SET due_at = now() - interval '1 s'")
    r = client.post("/api/dream/run", headers=blind, json={})
    assert r.json()["outcome"] == "nothing due"  # alpha's blocks are not its to dream
    links = client.get("/api/dream/links", headers=alpha).json()["links"]
    assert [(x["source_title"], x["target_title"]) for x in links] == [
        ("Backup plan", "Restore drill")
    ]
    link_id = links[0]["id"]
    r = client.post(f"/api/dream/links/{link_id}", headers=alpha, json={"action": "delete"})
    assert r.json() == {"id": link_id, "status": "rejected"}
    assert client.get("/api/dream/links", headers=alpha).json()["links"] == []
    assert client.get("/api/dream/links?status=rejected", headers=alpha).json()["count"] == 1
    # Dream never makes a rejected link again
    with app.connection() as conn:
        conn.execute("UPDATE context_dream_state SET due_at = now() - interval '1 s'")
    client.post("/api/dream/run", headers=admin, json={"block_id": ids["plan"]})
    assert client.get("/api/dream/links", headers=alpha).json()["links"] == []
    r = client.post("/api/dream/throttle", headers=admin, json={"mode": "off"})
    assert r.json() == {"throttle": "off"} and app.settings["dream.throttle"] == "off"
    assert client.post("/api/dream/throttle", headers=alpha, json={"mode": "on"}).status_code == 403


def test_dream_bad_input_is_a_clear_4xx(
    client: Any, alpha: dict[str, str], admin: dict[str, str]
) -> None:
    assert (
        client.post("/api/dream/links/1", headers=alpha, json={"action": "confirm"}).status_code
        == 404
    )
    assert (
        client.post("/api/dream/links/1", headers=alpha, json={"action": "nuke"}).status_code == 422
    )
    assert (
        client.post("/api/dream/links/x", headers=alpha, json={"action": "confirm"}).status_code
        == 404  # a link id is digits: no such path
    )
    assert client.get("/api/dream/links?type=friend", headers=alpha).status_code == 422
    assert client.get("/api/dream/links?block=" + "z" * 36, headers=alpha).status_code == 422
    r = client.post("/api/dream/throttle", headers=admin, json={"mode": "fast"})
    assert r.status_code == 422
    r = client.post("/api/dream/run", headers=admin, json={"block_id": "short"})
    assert r.status_code == 422
    r = client.post("/api/dream/run", headers=admin, json={"block_id": "z" * 36})
    assert r.status_code == 422 and r.json()["field"] == "block_id"


def test_links_review_needs_both_ends_readable(
    app: App, client: Any, alpha: dict[str, str], keys: Any
) -> None:
    a = _store(client, alpha, "Backup plan", BACKUP, "ops")
    b = _store(client, alpha, "Restore drill", "We restored the db-2 backup.", "ops")
    with app.connection() as conn:
        link_id = graph.write_link(conn, a, b, "topical", 0.9)
    reader = {"X-Context-Key": keys.make("gamma", ["alpha"])}
    assert client.get("/api/dream/links", headers=reader).json()["count"] == 1
    r = client.post(f"/api/dream/links/{link_id}", headers=reader, json={"action": "confirm"})
    assert r.status_code == 403  # reads alpha, writes only gamma
    stranger = {"X-Context-Key": keys.make("beta")}
    assert client.get("/api/dream/links", headers=stranger).json()["count"] == 0
    r = client.post(f"/api/dream/links/{link_id}", headers=stranger, json={"action": "delete"})
    assert r.status_code == 404


def test_ctx_guard_and_dream_commands(
    app: App,
    srv: Any,
    client: Any,
    keys: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    token = keys.make("alpha")
    alpha = {"X-Context-Key": token}
    first = _store(client, alpha, "Backup plan", BACKUP, "ops")
    copy = _store(client, alpha, "Backup plan", BACKUP, "notes")
    drain(app, "embed")
    drain(app, "guard")
    admin_token = keys.make("ops", admin=True)
    with live_server(app) as url:
        monkeypatch.setenv("CTX_URL", url)
        monkeypatch.setenv("CTX_API_KEY", token)
        assert run(["guard", "list", "--json"], app=app) == 0
        flags = json.loads(capsys.readouterr().out)["flags"]
        assert [(f["block_id"], f["match_id"]) for f in flags] == [(copy, first)]
        assert run(["guard", "list"], app=app) == 0
        assert "near_duplicate" in capsys.readouterr().out
        assert run(["guard", "stats"], app=app) == 0
        assert "near_duplicate 1" in capsys.readouterr().out
        assert run(["guard", "resolve", copy[:8], "keep_both"], app=app) == 0
        assert "keep_both" in capsys.readouterr().out
        assert run(["guard", "resolve", copy[:8], "shred"], app=app) == 2
        assert run(["dream", "stats"], app=app) == 0
        assert "no links yet" in capsys.readouterr().out
        assert run(["dream", "throttle", "fast"], app=app) == 2
        assert run(["dream", "throttle", "off"], app=app) == 2  # not an admin: a clear error
        monkeypatch.setenv("CTX_API_KEY", admin_token)
        assert run(["dream", "throttle", "throttled"], app=app) == 0
        assert app.settings["dream.throttle"] == "throttled"
        assert "dream throttle: throttled" in capsys.readouterr().out
        assert run(["dream", "run-once", "--json"], app=app) == 0
        assert json.loads(capsys.readouterr().out)["outcome"] == "skipped"  # no dream backend
        assert run(["guard", "thresholds"], app=app) == 0
        assert "knowledge: duplicate" in capsys.readouterr().out
