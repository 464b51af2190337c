"""/api/llmlog, /api/status and /api/events: what a running ctx did and is doing, for admins."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import openai_server
import pytest
from live import live_server

from ctx.core import App, llm
from ctx.core.runtime import set_setting

WORDS = "the quiet lighthouse keeper"


@pytest.fixture
def srv() -> Iterator[Any]:
    with openai_server.OpenAIServer() as server:
        yield server


@pytest.fixture
def admin(app: App, keys: Any) -> dict[str, str]:
    set_setting(app, "llm.read_timeout", 0.5)
    return {"X-Context-Key": keys.make("root", admin=True)}


def _peer(app: App, base_url: str) -> None:
    with app.connection() as conn:
        llm.create_backend(conn, app.backend_kinds, "peer", {"kind": "openai",
            "base_url": base_url, "roles": ["synthesis", "rerank"],
            "model_map": {"default": "test-model"}, "trust": "full-trust"})  # fmt: skip
    app.backends.invalidate()


def _ask(app: App) -> llm.Reply:
    return llm.chat(app, "synthesis", lambda _pieces: [{"role": "user", "content": WORDS}])


def test_the_log_shows_calls_without_content_unless_asked(
    app: App, client: Any, admin: dict[str, str], srv: Any
) -> None:
    _peer(app, srv.base_url)
    _ask(app)
    body = client.get("/api/llmlog", headers=admin).json()
    [call] = body["calls"]
    assert (call["role"], call["backend"], call["model"], call["outcome"]) == (
        "synthesis", "peer", "test-model", "ok")  # fmt: skip
    assert call["latency_ms"] >= 0 and call["prompt_tokens"] == len(WORDS.split())
    assert "request" not in call and "response" not in call
    assert WORDS not in json.dumps(body)
    [summary] = body["summary"]
    assert (summary["backend"], summary["role"], summary["calls"]) == ("peer", "synthesis", 1)

    set_setting(app, "llm.log_content", True)
    _ask(app)
    newest = client.get("/api/llmlog?limit=1", headers=admin).json()["calls"]
    assert len(newest) == 1 and WORDS in json.dumps(newest[0]["request"])
    assert "response" in newest[0]

    srv.reset(chat="error500")
    with pytest.raises(llm.ModelError):
        _ask(app)
    failed = client.get("/api/llmlog?outcome=error&backend=peer", headers=admin).json()["calls"]
    assert len(failed) == 1 and failed[0]["error"]
    older = client.get(f"/api/llmlog?before={failed[0]['id']}&role=synthesis", headers=admin)
    assert [c["outcome"] for c in older.json()["calls"]] == ["ok", "ok"]
    assert client.get("/api/llmlog?role=rerank", headers=admin).json()["calls"] == []


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("limit=0", "limit"),
        ("limit=501", "limit"),
        ("limit=ten", "limit"),
        ("role=poetry", "role"),
        ("outcome=meh", "outcome"),
        ("before=-3", "before"),
    ],
)
def test_bad_log_filters_are_422(
    client: Any, admin: dict[str, str], query: str, field: str
) -> None:
    r = client.get(f"/api/llmlog?{query}", headers=admin)
    assert r.status_code == 422
    assert r.json()["field"].endswith(field) and field in r.json()["message"]


def test_status_shows_backends_roles_jobs_and_version(
    app: App, client: Any, admin: dict[str, str], srv: Any
) -> None:
    _peer(app, srv.base_url)
    _ask(app)
    app.backends.failed("peer", "test failure")
    status = client.get("/api/status", headers=admin).json()
    [peer] = status["backends"]
    assert peer["name"] == "peer" and peer["roles"] == ["synthesis", "rerank"]
    assert peer["trust"] == "full-trust" and peer["enabled"] is True
    assert peer["cooldown"]["reason"] == "test failure"
    assert [(r["role"], r["calls"]) for r in peer["last_24h"]] == [("synthesis", 1)]
    assert status["roles"]["synthesis"]["chain"] == []  # cooling down
    assert "cooling down" in status["roles"]["synthesis"]["reason"]
    assert status["roles"]["embed"] == {
        "chain": [],
        "reason": "no backend serves the embed role (add one with `ctx backends create`)",
    }
    app.backends.succeeded("peer")
    again = client.get("/api/status", headers=admin).json()
    assert again["roles"]["synthesis"] == {"chain": ["peer"], "reason": None}
    assert again["backends"][0]["cooldown"] is None
    assert isinstance(again["jobs"], dict) and again["version"]
    assert set(again["roles"]) == set(llm.ROLES)


def test_status_says_which_token_counter_each_role_uses(
    app: App, client: Any, admin: dict[str, str], srv: Any
) -> None:
    _peer(app, srv.base_url)  # synthesis and rerank on "test-model"
    with app.connection() as conn:
        llm.create_backend(conn, app.backend_kinds, "gpt", {"kind": "openai",
            "base_url": srv.base_url, "roles": ["chat", "translate"],
            "model_map": {"default": "gpt-4.1-mini", "translate": "llama3.1:8b"},
            "trust": "full-trust"})  # fmt: skip
    app.backends.invalidate()
    counters = client.get("/api/status", headers=admin).json()["token_counters"]
    assert set(counters) == set(llm.ROLES)
    assert counters["chat"] == {
        "counter": "o200k",
        "exact": True,
        "models": ["gpt-4.1-mini"],
        "fallback": None,
    }
    assert counters["translate"]["counter"] == "llama3"
    assert counters["synthesis"] == {
        "counter": "estimate",
        "exact": False,
        "models": ["test-model"],
        "fallback": "no tokenizer is known for 'test-model'",
    }
    assert counters["digest"]["counter"] == "estimate"
    assert "no model is known" in counters["digest"]["fallback"]
    set_setting(app, "governor.token_counter", "nope")
    broken = client.get("/api/status", headers=admin).json()["token_counters"]
    assert broken["chat"]["counter"] is None and "unknown token counter" in broken["chat"]["error"]


def _listeners(app: App) -> int:
    with app.connection() as conn:
        row = conn.execute(
            "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database()"
            " AND query = 'LISTEN ctx_events'"
        ).fetchone()
    assert row is not None
    return int(row["n"])


def test_events_stream_block_writes_without_their_text(app: App, keys: Any) -> None:
    admin = {"X-Context-Key": keys.make("root", admin=True)}
    writer = {"X-Context-Key": keys.make("alpha")}
    title, content = "Harbour note", "The ferry leaves at nine."
    with live_server(app) as url, httpx.Client(base_url=url, timeout=10) as http:
        refused = http.get("/api/events", headers=writer)
        assert refused.status_code == 403 and refused.json()["error"] == "forbidden"
        with http.stream("GET", "/api/events", headers=admin) as stream:
            assert stream.status_code == 200
            assert stream.headers["content-type"].startswith("text/event-stream")
            lines = stream.iter_lines()
            assert next(lines).startswith(": listening")  # LISTEN is in place
            assert _listeners(app) == 1
            stored = http.post("/api/store", json={"title": title, "content": content,
                               "category": "notes"}, headers=writer)  # fmt: skip
            assert stored.status_code == 200, stored.text
            block_id = stored.json()["id"]
            seen: list[tuple[str, str]] = []
            event = ""
            for line in lines:
                if line.startswith("event: "):
                    event = line[len("event: ") :]
                elif line.startswith("data: "):
                    seen.append((event, line[len("data: ") :]))
                    if event == "ctx_events":
                        break
        assert seen[-1][0] == "ctx_events"
        data = json.loads(seen[-1][1])
        assert data == {"action": "created", "id": block_id, "scope": "alpha",
                        "category": "notes", "block_type": data["block_type"]}  # fmt: skip
        assert data["block_type"]
        assert all(title not in d and content not in d for _, d in seen)
        # the client went away: the stream notices and closes its database connection
        deadline = time.monotonic() + 20
        while _listeners(app) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _listeners(app) == 0
