"""The loopback OpenAI-compatible test peer itself: chat (plain and streamed), rerank, GET routes
and every failure mode, spoken to with plain httpx."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import openai_server
import pytest


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    with openai_server.OpenAIServer() as srv:
        yield srv


@pytest.fixture
def fresh(server: Any) -> Iterator[Any]:
    server.reset("ok")
    yield server
    server.release.set()  # nothing of this test stays hanging


@pytest.fixture
def client(fresh: Any) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=fresh.base_url, timeout=5.0) as c:
        yield c


def _chat_body(*, stream: bool = False, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": "test-chat",
        "messages": [
            {"role": "system", "content": "You are terse."},
            {"role": "user", "content": "say hello to the world"},
        ],
        **extra,
    }
    if stream:
        body["stream"] = True
    return body


def _read_events(response: httpx.Response) -> tuple[list[str], list[str]]:
    """The `data:` payloads and the comment lines of an event stream, in order."""
    data, comments = [], []
    for line in response.iter_lines():
        if line.startswith("data: "):
            data.append(line[len("data: ") :])
        elif line.startswith(":"):
            comments.append(line)
    return data, comments


def _stream(
    client: httpx.Client, body: dict[str, Any]
) -> tuple[httpx.Response, list[str], list[str]]:
    with client.stream("POST", "/v1/chat/completions", json=body) as response:
        data, comments = _read_events(response)
    return response, data, comments


def _content(events: list[str]) -> str:
    parts = []
    for raw in events:
        if raw == "[DONE]":
            continue
        for choice in json.loads(raw)["choices"]:
            parts.append(choice["delta"].get("content") or "")
    return "".join(parts)


# --- chat, plain --------------------------------------------------------------------------------


def test_chat_reply_and_usage(fresh: Any, client: httpx.Client) -> None:
    fresh.chat_replies.append("hello there world")
    response = client.post("/v1/chat/completions", json=_chat_body())
    assert response.status_code == 200
    body = response.json()
    assert body["object"] == "chat.completion"
    assert body["model"] == "test-chat"
    assert body["id"] and isinstance(body["created"], int)
    [choice] = body["choices"]
    assert choice == {
        "index": 0,
        "message": {"role": "assistant", "content": "hello there world"},
        "finish_reason": "stop",
    }
    # 3 words of system prompt + 5 of user message; 3 in the reply
    assert body["usage"] == {"prompt_tokens": 8, "completion_tokens": 3, "total_tokens": 11}


def test_chat_queue_then_default_and_responder_first(fresh: Any, client: httpx.Client) -> None:
    fresh.chat_replies.extend(["one", "two"])
    replies = [
        client.post("/v1/chat/completions", json=_chat_body()).json()["choices"][0]["message"][
            "content"
        ]
        for _ in range(3)
    ]
    assert replies == ["one", "two", "OK"]
    fresh.chat_replies.append("queued")
    fresh.chat_responder = lambda body: body["messages"][-1]["content"].upper()
    reply = client.post("/v1/chat/completions", json=_chat_body()).json()
    assert reply["choices"][0]["message"]["content"] == "SAY HELLO TO THE WORLD"
    assert fresh.chat_replies == ["queued"]  # the responder went first, the queue is untouched


def test_chat_rejects_a_body_without_messages(fresh: Any, client: httpx.Client) -> None:
    response = client.post("/v1/chat/completions", json={"model": "m"})
    assert response.status_code == 400


# --- chat, streamed -----------------------------------------------------------------------------


def test_stream_event_sequence(fresh: Any, client: httpx.Client) -> None:
    reply = "Hello, streaming wörld!"
    fresh.chat_replies.append(reply)
    body = _chat_body(stream=True, stream_options={"include_usage": True})
    response, data, comments = _stream(client, body)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/event-stream")
    assert "content-length" not in response.headers
    assert comments == [": keep-alive"]
    assert data[-1] == "[DONE]"
    chunks = [json.loads(raw) for raw in data[:-1]]
    assert all(c["object"] == "chat.completion.chunk" for c in chunks)
    assert all(c["model"] == "test-chat" for c in chunks)
    assert len({c["id"] for c in chunks}) == 1
    assert chunks[0]["choices"] == [
        {"index": 0, "delta": {"role": "assistant"}, "finish_reason": None}
    ]
    content = chunks[1:-2]
    assert len(content) == -(-len(reply) // 3)  # pieces of 3 characters
    assert all(len(c["choices"][0]["delta"]["content"]) <= 3 for c in content)
    assert _content(data) == reply
    assert chunks[-2]["choices"] == [{"index": 0, "delta": {}, "finish_reason": "stop"}]
    assert chunks[-1]["choices"] == []
    assert chunks[-1]["usage"] == {"prompt_tokens": 8, "completion_tokens": 3, "total_tokens": 11}


def test_stream_without_usage_option_has_no_usage_chunk(fresh: Any, client: httpx.Client) -> None:
    fresh.chat_replies.append("abcdefg")
    _, data, _ = _stream(client, _chat_body(stream=True))
    chunks = [json.loads(raw) for raw in data[:-1]]
    assert data[-1] == "[DONE]"
    assert all("usage" not in c for c in chunks)
    assert chunks[-1]["choices"][0]["finish_reason"] == "stop"
    assert _content(data) == "abcdefg"


def test_stream_delay_spaces_the_chunks(fresh: Any, client: httpx.Client) -> None:
    fresh.chat_replies.append("abcdefghi")  # 3 content chunks + finish chunk
    fresh.stream_delay = 0.05
    try:
        start = time.monotonic()
        _, data, _ = _stream(client, _chat_body(stream=True))
        assert time.monotonic() - start >= 0.2
    finally:
        fresh.stream_delay = 0.0
    assert _content(data) == "abcdefghi"


# --- chat failure modes -------------------------------------------------------------------------


@pytest.mark.parametrize("stream", [False, True])
def test_chat_error500(fresh: Any, client: httpx.Client, stream: bool) -> None:
    fresh.chat_behaviour = "error500"
    response = client.post("/v1/chat/completions", json=_chat_body(stream=stream))
    assert response.status_code == 500
    assert response.json()["error"]["type"] == "server_error"
    assert response.json()["error"]["message"]


def test_chat_error429(fresh: Any, client: httpx.Client) -> None:
    fresh.chat_behaviour = "error429"
    response = client.post("/v1/chat/completions", json=_chat_body())
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "rate_limit_exceeded"


def test_chat_malformed(fresh: Any, client: httpx.Client) -> None:
    fresh.chat_behaviour = "malformed"
    response = client.post("/v1/chat/completions", json=_chat_body())
    assert response.status_code == 200
    assert response.json() == {"object": "chat.completion", "choices": []}


def test_chat_notjson(fresh: Any, client: httpx.Client) -> None:
    fresh.chat_behaviour = "notjson"
    response = client.post("/v1/chat/completions", json=_chat_body())
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    assert response.text == "<html>oops"
    with pytest.raises(json.JSONDecodeError):
        response.json()


def test_chat_garbage(fresh: Any, client: httpx.Client) -> None:
    fresh.chat_behaviour = "garbage"
    fresh.chat_replies.append("fine")
    _, data, _ = _stream(client, _chat_body(stream=True))
    assert len(data) == 3
    assert json.loads(data[0])["choices"][0]["delta"] == {"role": "assistant"}
    assert data[1] == "{not json"
    assert data[2] == "[DONE]"
    response = client.post("/v1/chat/completions", json=_chat_body())
    with pytest.raises(json.JSONDecodeError):
        response.json()


def test_chat_cut_stream_closes_without_done(fresh: Any, client: httpx.Client) -> None:
    fresh.chat_behaviour = "cut"
    fresh.chat_replies.append("a long reply that never arrives whole")
    _, data, _ = _stream(client, _chat_body(stream=True))
    assert "[DONE]" not in data
    chunks = [json.loads(raw) for raw in data]
    assert len(chunks) == 3  # role + two content chunks
    assert _content(data) == "a long"
    assert all(c["choices"][0]["finish_reason"] is None for c in chunks)


def test_chat_cut_plain_body_is_short_of_its_length(fresh: Any, client: httpx.Client) -> None:
    fresh.chat_behaviour = "cut"
    with pytest.raises(httpx.RemoteProtocolError):
        client.post("/v1/chat/completions", json=_chat_body())


def test_chat_endless_until_the_client_leaves(fresh: Any, client: httpx.Client) -> None:
    fresh.chat_behaviour = "endless"
    with client.stream("POST", "/v1/chat/completions", json=_chat_body(stream=True)) as response:
        seen = []
        for line in response.iter_lines():
            if line.startswith("data: "):
                seen.append(json.loads(line[len("data: ") :]))
            if len(seen) == 4:
                break
    assert [c["choices"][0]["delta"] for c in seen] == [{"role": "assistant"}] + [
        {"content": "x"}
    ] * 3
    deadline = time.monotonic() + 1.5
    while fresh.disconnects == 0 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert fresh.disconnects == 1  # the server noticed, and did not crash:
    assert client.get("/health").json() == {"status": "ok"}


def test_chat_endless_until_release(fresh: Any, client: httpx.Client) -> None:
    fresh.chat_behaviour = "endless"
    timer = threading.Timer(0.3, fresh.release.set)
    timer.start()
    try:
        _, data, _ = _stream(client, _chat_body(stream=True))
    finally:
        timer.cancel()
    assert data[-1] == "[DONE]"
    assert len(data) > 4  # role, several "x", finish, [DONE]
    assert set(_content(data)) == {"x"}


@pytest.mark.parametrize("stream", [False, True])
def test_chat_hang_until_release(fresh: Any, client: httpx.Client, stream: bool) -> None:
    fresh.chat_behaviour = "hang"
    fresh.chat_replies.append("late")
    timer = threading.Timer(0.2, fresh.release.set)
    start = time.monotonic()  # before the timer starts: the hang lasts at least its 0.2 s
    timer.start()
    try:
        if stream:
            _, data, _ = _stream(client, _chat_body(stream=True))
            reply = _content(data)
        else:
            response = client.post("/v1/chat/completions", json=_chat_body())
            reply = response.json()["choices"][0]["message"]["content"]
    finally:
        timer.cancel()
    assert time.monotonic() - start >= 0.2
    assert reply == "late"


def test_chat_endless_plain_hangs_like_hang(fresh: Any, client: httpx.Client) -> None:
    fresh.chat_behaviour = "endless"
    timer = threading.Timer(0.1, fresh.release.set)
    timer.start()
    try:
        response = client.post("/v1/chat/completions", json=_chat_body())
    finally:
        timer.cancel()
    assert response.json()["choices"][0]["message"]["content"] == "OK"


def test_hang_times_out_on_the_client(fresh: Any) -> None:
    fresh.chat_behaviour = "hang"
    with (
        httpx.Client(base_url=fresh.base_url, timeout=0.2) as c,
        pytest.raises(httpx.ReadTimeout),
    ):
        c.post("/v1/chat/completions", json=_chat_body())


def test_stop_is_prompt_while_a_stream_is_endless() -> None:
    srv = openai_server.OpenAIServer(chat_behaviour="endless").start()
    with httpx.Client(base_url=srv.base_url, timeout=5.0) as c:
        with c.stream("POST", "/v1/chat/completions", json=_chat_body(stream=True)) as response:
            lines = response.iter_lines()
            assert next(lines) == ": keep-alive"
            start = time.monotonic()
            srv.stop()
            assert time.monotonic() - start < 1.0
            rest = list(lines)  # the stream ends (released) rather than running on
        assert "data: [DONE]" in rest


# --- rerank -------------------------------------------------------------------------------------

DOCS = [
    "Bananas are yellow",  # 0 query words
    "The cat sat on the mat",  # cat, mat
    "A cat",  # cat
    "cat mat sat",  # cat, mat, sat
]
QUERY = "Cat sat MAT"


def _rerank(client: httpx.Client, **extra: Any) -> httpx.Response:
    return client.post(
        "/v1/rerank", json={"model": "test-rerank", "query": QUERY, "documents": DOCS, **extra}
    )


def test_rerank_sorted_by_score_with_indices(fresh: Any, client: httpx.Client) -> None:
    response = _rerank(client)
    assert response.status_code == 200
    body = response.json()
    assert body["model"] == "test-rerank"
    assert body["usage"]["total_tokens"] > 0
    results = body["results"]
    assert [r["index"] for r in results] == [1, 3, 2, 0]  # 1 and 3 tie: input order breaks it
    scores = {r["index"]: r["relevance_score"] for r in results}
    assert scores == {0: -5.0, 1: 4.0, 2: -2.0, 3: 4.0}
    assert scores == {i: openai_server.rerank_score(QUERY, d) for i, d in enumerate(DOCS)}
    assert [r["relevance_score"] for r in results] == sorted(scores.values(), reverse=True)


def test_rerank_top_n_trims(fresh: Any, client: httpx.Client) -> None:
    results = _rerank(client, top_n=2).json()["results"]
    assert [r["index"] for r in results] == [1, 3]


def test_rerank_scripted_scores_and_documents(fresh: Any, client: httpx.Client) -> None:
    fresh.rerank_scores = [0.5, -1.0, 9.0, 0.0]
    results = _rerank(client, return_documents=True).json()["results"]
    assert [(r["index"], r["relevance_score"]) for r in results] == [
        (2, 9.0),
        (0, 0.5),
        (3, 0.0),
        (1, -1.0),
    ]
    assert results[0]["document"] == {"text": DOCS[2]}


def test_rerank_error500(fresh: Any, client: httpx.Client) -> None:
    fresh.rerank_behaviour = "error500"
    response = _rerank(client)
    assert response.status_code == 500
    assert response.json()["error"]["type"] == "server_error"


def test_rerank_gap(fresh: Any, client: httpx.Client) -> None:
    fresh.rerank_behaviour = "gap"
    indices = [r["index"] for r in _rerank(client).json()["results"]]
    assert sorted(indices) == [1, 2, 3]


def test_rerank_duplicate(fresh: Any, client: httpx.Client) -> None:
    fresh.rerank_behaviour = "duplicate"
    indices = [r["index"] for r in _rerank(client).json()["results"]]
    assert len(indices) == len(DOCS)
    assert len(set(indices)) < len(indices)


def test_rerank_outofrange(fresh: Any, client: httpx.Client) -> None:
    fresh.rerank_behaviour = "outofrange"
    indices = [r["index"] for r in _rerank(client).json()["results"]]
    assert len(DOCS) in indices


def test_rerank_malformed(fresh: Any, client: httpx.Client) -> None:
    fresh.rerank_behaviour = "malformed"
    response = _rerank(client)
    assert response.status_code == 200
    assert response.json() == {"data": []}


def test_rerank_hang_until_release(fresh: Any, client: httpx.Client) -> None:
    fresh.rerank_behaviour = "hang"
    timer = threading.Timer(0.2, fresh.release.set)
    start = time.monotonic()  # before the timer starts: the release comes 0.2 s after it
    timer.start()
    try:
        response = _rerank(client)
    finally:
        timer.cancel()
    assert time.monotonic() - start >= 0.2
    assert [r["index"] for r in response.json()["results"]] == [1, 3, 2, 0]


# --- GET, recording, reset ----------------------------------------------------------------------


def test_get_routes(fresh: Any, client: httpx.Client) -> None:
    models = client.get("/v1/models")
    assert models.status_code == 200
    assert models.json() == {"object": "list", "data": [{"id": "test-model", "object": "model"}]}
    assert client.get("/health").json() == {"status": "ok"}
    missing = client.get("/nowhere")
    assert missing.status_code == 404
    assert "error" in missing.json()
    assert [r.path for r in fresh.requests] == ["/v1/models", "/health", "/nowhere"]


def test_every_route_is_recorded_and_sent_text_shows_it(fresh: Any, client: httpx.Client) -> None:
    client.post("/v1/embeddings", json={"model": "e", "input": ["ünïcode embed"]})
    client.post(
        "/v1/chat/completions",
        json=_chat_body(messages=[{"role": "user", "content": "secret ☃ prompt"}]),
        headers={"Authorization": "Bearer sk-1"},
    )
    _rerank(client)
    client.get("/health")
    assert [r.path for r in fresh.requests] == [
        "/v1/embeddings",
        "/v1/chat/completions",
        "/v1/rerank",
        "/health",
    ]
    assert fresh.requests[1].headers["Authorization"] == "Bearer sk-1"
    text = fresh.sent_text()
    assert "ünïcode embed" in text
    assert "secret ☃ prompt" in text
    assert QUERY in text
    assert len(text.splitlines()) == 3  # the GET has no body


def test_reset_clears_the_scripts(fresh: Any) -> None:
    fresh.chat_behaviour = "cut"
    fresh.rerank_behaviour = "gap"
    fresh.chat_replies.append("left over")
    fresh.chat_responder = lambda body: "x"
    fresh.rerank_scores = [1.0]
    old_release = fresh.release
    fresh.reset("ok")
    assert old_release.is_set()
    assert not fresh.release.is_set()
    assert (fresh.chat_behaviour, fresh.rerank_behaviour) == ("ok", "ok")
    assert fresh.chat_replies == []
    assert fresh.chat_responder is None
    assert fresh.rerank_scores is None
    fresh.reset("ok", chat="hang", rerank="malformed")
    assert (fresh.chat_behaviour, fresh.rerank_behaviour) == ("hang", "malformed")
    with pytest.raises(AssertionError):
        fresh.reset("ok", chat="nonsense")
    assert set(openai_server.CHAT_BEHAVIOURS) >= {"ok", "cut", "endless", "garbage"}
    assert "gap" in openai_server.RERANK_BEHAVIOURS
    assert "reversed" in openai_server.BEHAVIOURS
