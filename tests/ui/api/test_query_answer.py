"""Answers over HTTP: ``/api/query`` with ``synthesize``, the SSE stream ``/api/query/stream``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from backend_kit import add_backend

from ctx.core import App


def _backend(app: App, srv: Any) -> None:
    add_backend(
        app, srv, ["synthesis"], model_map={"synthesis": {"model": "chat-model", "temperature": 0}}
    )


def _sse(text: str) -> list[tuple[str, Any]]:
    out = []
    for chunk in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in chunk.splitlines())
        out.append((lines["event"], json.loads(lines["data"])))
    return out


@pytest.fixture
def user(client: Any, keys: Any) -> dict[str, str]:
    headers = {"X-Context-Key": keys.make("alpha")}
    for title, content in [
        ("Ingress timeout", "The ingress drops idle websocket connections after sixty seconds."),
        ("Ingress retries", "The ingress retries a failed upstream twice."),
    ]:
        r = client.post("/api/store", json={"title": title, "content": content}, headers=headers)
        assert r.status_code == 200, r.text
    return headers


def test_query_answers_with_citations(client: Any, app: App, srv: Any, user: Any) -> None:
    _backend(app, srv)
    srv.chat_default = "After sixty seconds [1]."
    r = client.post("/api/query", json={"query": "ingress timeout", "synthesize": True},
                    headers=user)  # fmt: skip
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["answer"] == "After sixty seconds [1]."
    assert body["citations"][0]["id"] == body["sources"][0]["id"]
    assert body["synthesis"]["model"] == "chat-model"
    sent = next(q.body for q in srv.requests if q.path == "/v1/chat/completions")
    assert sent["model"] == "chat-model" and sent["temperature"] == 0  # the row's params win
    plain = client.post("/api/query", json={"query": "ingress timeout"}, headers=user).json()
    assert "answer" not in plain


def test_stream_over_http(client: Any, app: App, srv: Any, user: Any) -> None:
    _backend(app, srv)
    srv.chat_default = "Sixty seconds [1]."
    with client.stream("POST", "/api/query/stream", json={"query": "ingress timeout"},
                       headers=user) as r:  # fmt: skip
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        events = _sse(r.read().decode())
    names = [n for n, _ in events]
    assert names[0] == "sources" and names[-1] == "answer" and "token" in names
    assert events[-1][1]["answer"] == "Sixty seconds [1]."


def test_stream_without_backend_sends_sources_only(client: Any, user: Any) -> None:
    r = client.post("/api/query/stream", json={"query": "ingress timeout"}, headers=user)
    assert r.status_code == 200
    assert [n for n, _ in _sse(r.text)] == ["sources"]


def test_stream_bad_input_is_a_json_error_before_the_stream(client: Any, user: Any) -> None:
    r = client.post("/api/query/stream", json={"query": "x", "synthesize": "sometimes"},
                    headers=user)  # fmt: skip
    assert r.status_code == 422 and r.json()["field"].startswith("synthesize")
    denied = client.post("/api/query/stream", json={"query": "x", "scopes": ["beta"]},
                         headers=user)  # fmt: skip
    assert denied.status_code == 403
    anonymous = client.post("/api/query/stream", json={"query": "x"})
    assert anonymous.status_code == 401
