"""The OpenAI-compatible gateway: ``/v1/chat/completions`` (whole and streamed) and ``/v1/models``
in front of a real loopback OpenAI-compatible server, on a real database."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest
from backend_kit import add_backend

from ctx.core import App, Principal
from ctx.core.governor import CommitRequest

URL = "/v1/chat/completions"
ALPHA = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")


@pytest.fixture
def key(keys: Any) -> str:
    return str(keys.make("alpha"))


def _headers(key: str, thread: str | None = "s1", **extra: str) -> dict[str, str]:
    out = {"Authorization": f"Bearer {key}"}
    if thread is not None:
        out["X-Ctx-Thread"] = thread
    return {**out, **extra}


def _body(text: str, *, system: str | None = None, **extra: Any) -> dict[str, Any]:
    messages = [{"role": "system", "content": system}] if system else []
    return {"model": "test-model", "messages": [*messages, {"role": "user", "content": text}],
            **extra}  # fmt: skip


def _sent(srv: Any) -> list[dict[str, Any]]:
    """The chat requests the backend received, in order."""
    return [r.body for r in srv.requests if r.path == "/v1/chat/completions"]


def _data(text: str) -> list[str]:
    """The ``data`` of each server-sent event."""
    return [line[len("data: ") :] for line in text.split("\n") if line.startswith("data: ")]


def _openai_error(r: Any, status: int, type_: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert set(error) == {"message", "type", "param", "code"}
    assert error["type"] == type_ and error["message"]
    assert "Traceback" not in r.text
    return dict(error)


def _commit(app: App, thread: str, content: str, **event: Any) -> None:
    body = {"thread": {"session_id": thread}, "event": {"content": content, **event}}
    app.governor.commit(ALPHA, CommitRequest.model_validate(body))


# -- whole answers ---------------------------------------------------------------------------------


def test_round_trip_sends_the_envelope_and_commits_the_answer(
    client: Any, app: App, srv: Any, key: str
) -> None:
    add_backend(app, srv, ["chat"])
    srv.chat_replies = ["The harbour is north of the old mill.", "Second answer."]
    first = {
        "model": "test-model",
        "messages": [
            {"role": "system", "content": "You are a terse guide."},
            {"role": "user", "content": "FAKE-HISTORY-QUESTION"},
            {"role": "assistant", "content": "FAKE-HISTORY-ANSWER"},
            {"role": "user", "content": "Where is the harbour?"},
        ],
    }
    r = client.post(URL, json=first, headers=_headers(key))
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["object"] == "chat.completion" and body["id"].startswith("chatcmpl-")
    assert isinstance(body["created"], int) and body["model"] == "test-model"
    choice = body["choices"][0]
    assert choice["message"] == {"role": "assistant",
                                 "content": "The harbour is north of the old mill."}  # fmt: skip
    assert choice["finish_reason"] == "stop" and choice["index"] == 0
    usage = body["usage"]
    assert usage["prompt_tokens"] == int(r.headers["X-Ctx-Envelope-Tokens"]) > 0
    assert usage["completion_tokens"] > 0
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]
    assert r.headers["X-Ctx-Thread"] == "s1" and r.headers["X-Ctx-Seq"] == "1"
    assert r.headers["X-Ctx-Answer-Seq"] == "2"

    sent = _sent(srv)[0]["messages"]
    assert sent[0] == {"role": "system", "content": "You are a terse guide."}
    assert sent[-1] == {"role": "user", "content": "Where is the harbour?"}
    assert "FAKE-HISTORY" not in srv.sent_text()  # the client's history is replaced

    r = client.post(URL, json=_body("And the mill?", system="You are a terse guide."),
                    headers=_headers(key))  # fmt: skip
    assert r.status_code == 200, r.text
    assert r.headers["X-Ctx-Seq"] == "3"
    ring = _sent(srv)[1]["messages"]
    assert {"role": "user", "content": "Where is the harbour?"} in ring
    assert {"role": "assistant", "content": "The harbour is north of the old mill."} in ring
    assert ring[-1] == {"role": "user", "content": "And the mill?"}


def test_params_pass_through_and_the_rows_params_win(
    client: Any, app: App, srv: Any, key: str
) -> None:
    add_backend(app, srv, ["chat"], model_map={"chat": {"model": "m-1", "temperature": 0}})
    body = _body("hello", temperature=0.7, max_tokens=50, stop=["\n\n"], seed=3, top_p=0.9,
                 presence_penalty=0.1, frequency_penalty=0.2, logit_bias={"1": 2})  # fmt: skip
    body["model"] = "m-1"
    r = client.post(URL, json=body, headers=_headers(key))
    assert r.status_code == 200, r.text
    sent = _sent(srv)[0]
    assert sent["model"] == "m-1" and sent["temperature"] == 0  # the row's params win
    assert sent["max_tokens"] == 50 and sent["stop"] == ["\n\n"] and sent["seed"] == 3
    assert sent["top_p"] == 0.9 and sent["frequency_penalty"] == 0.2
    assert "logit_bias" not in sent and "user" not in sent
    assert r.json()["model"] == "m-1"
    # a model no backend serves is not refused; the answer names the model that answered
    body["model"] = "gpt-4o"
    r = client.post(URL, json=body, headers=_headers(key))
    assert r.status_code == 200, r.text
    assert r.json()["model"] == "m-1" and _sent(srv)[1]["model"] == "m-1"


def test_thread_from_user_field_and_header(client: Any, app: App, srv: Any, key: str) -> None:
    add_backend(app, srv, ["chat"])
    r = client.post(URL, json=_body("one", user="u-7"), headers=_headers(key, thread=None))
    assert r.status_code == 200, r.text
    assert r.headers["X-Ctx-Thread"] == "u-7" and r.headers["X-Ctx-Seq"] == "1"
    r = client.post(URL, json=_body("two", user="u-7"), headers=_headers(key, thread=None))
    assert r.headers["X-Ctx-Seq"] == "3"  # the same thread: turn, answer, turn
    # the header wins over the user field
    r = client.post(URL, json=_body("three", user="u-7"), headers=_headers(key, "h-1"))
    assert r.headers["X-Ctx-Thread"] == "h-1" and r.headers["X-Ctx-Seq"] == "1"
    assert r.headers["X-Ctx-Collection"] == "alpha"


def test_missing_thread_is_a_400_saying_how_to_name_one(
    client: Any, app: App, srv: Any, key: str
) -> None:
    add_backend(app, srv, ["chat"])
    r = client.post(URL, json=_body("hello"), headers=_headers(key, thread=None))
    error = _openai_error(r, 400, "invalid_request_error")
    assert "X-Ctx-Thread" in error["message"] and error["code"] == "thread_required"
    assert _sent(srv) == []


def test_content_parts_and_tool_turns(client: Any, app: App, srv: Any, key: str) -> None:
    add_backend(app, srv, ["chat"])
    parts = [{"type": "text", "text": "part one"}, {"type": "text", "text": "part two"}]
    body = {"messages": [{"role": "system", "content": [{"type": "text", "text": "Be brief."}]},
                         {"role": "user", "content": parts}]}  # fmt: skip
    r = client.post(URL, json=body, headers=_headers(key))
    assert r.status_code == 200, r.text
    sent = _sent(srv)[0]["messages"]
    assert sent[0] == {"role": "system", "content": "Be brief."}
    assert sent[-1] == {"role": "user", "content": "part one\npart two"}
    tool = {"messages": [{"role": "tool", "tool_call_id": "c1", "name": "calc", "content": "42"}]}
    r = client.post(URL, json=tool, headers=_headers(key))
    assert r.status_code == 200, r.text
    assert _sent(srv)[1]["messages"][-1] == {"role": "user", "content": "[tool calc]\n42"}


@pytest.mark.parametrize(
    ("raw", "param"),
    [
        (b"{not json", None),
        (b"[1, 2]", None),
        (b"", None),
        (json.dumps({"model": "x"}).encode(), "messages"),
        (json.dumps({"messages": []}).encode(), "messages"),
        (json.dumps({"messages": [{"role": "assistant", "content": "hi"}]}).encode(),
         "messages[0].role"),
        (json.dumps({"messages": [{"role": "wizard", "content": "hi"}]}).encode(),
         "messages[0].role"),
        (json.dumps({"messages": [{"role": "user", "content": "  "}]}).encode(),
         "messages[0].content"),
        (json.dumps({"messages": [{"role": "user", "content": [
            {"type": "image_url", "image_url": {"url": "http://x/y.png"}}]}]}).encode(),
         "messages[0].content"),
        (json.dumps({"messages": [{"role": "user", "content": "hi"}], "stream": "yes"}).encode(),
         "stream"),
        (json.dumps({"messages": [{"role": "user", "content": "hi"}], "n": 2}).encode(), "n"),
        (json.dumps({"messages": [{"role": "user", "content": "hi"}],
                     "temperature": "hot"}).encode(), "temperature"),
        (b'{"messages": [{"role": "user", "content": "a\\u0000b"}]}', "messages[0].content"),
    ],
)  # fmt: skip
def test_bad_requests_are_400_in_openai_shape(
    client: Any, app: App, srv: Any, key: str, raw: bytes, param: str | None
) -> None:
    add_backend(app, srv, ["chat"])
    headers = {**_headers(key), "content-type": "application/json"}
    r = client.post(URL, content=raw, headers=headers)
    error = _openai_error(r, 400, "invalid_request_error")
    assert error["param"] == param
    assert _sent(srv) == []


def test_bad_headers_are_400_and_a_foreign_collection_403(
    client: Any, app: App, srv: Any, key: str
) -> None:
    add_backend(app, srv, ["chat"])
    for extra, param in [({"X-Ctx-Budget": "lots"}, "X-Ctx-Budget"),
                         ({"X-Ctx-Budget": "10"}, "X-Ctx-Budget"),
                         ({"X-Ctx-Strict": "maybe"}, "X-Ctx-Strict"),
                         ({"X-Ctx-Collection": "Not A Scope"}, "X-Ctx-Collection")]:  # fmt: skip
        r = client.post(URL, json=_body("hi"), headers=_headers(key, **extra))
        assert _openai_error(r, 400, "invalid_request_error")["param"] == param, extra
    r = client.post(URL, json=_body("hi"), headers=_headers(key, **{"X-Ctx-Collection": "beta"}))
    _openai_error(r, 403, "permission_error")
    assert _sent(srv) == []


def test_unknown_paths_and_methods_answer_in_openai_shape(client: Any, key: str) -> None:
    _openai_error(client.get("/v1/nope", headers=_headers(key)), 404, "invalid_request_error")
    _openai_error(client.get(URL, headers=_headers(key)), 405, "invalid_request_error")


# -- auth ------------------------------------------------------------------------------------------


def test_no_key_and_bad_key_are_401(client: Any, app: App, srv: Any, key: str) -> None:
    add_backend(app, srv, ["chat"])
    for headers in [{"X-Ctx-Thread": "s1"},
                    {"X-Ctx-Thread": "s1", "Authorization": "Bearer ctx_not-a-key"},
                    {"X-Ctx-Thread": "s1", "X-Context-Key": "ctx_not-a-key"}]:  # fmt: skip
        r = client.post(URL, json=_body("hi"), headers=headers)
        error = _openai_error(r, 401, "authentication_error")
        assert error["code"] == "invalid_api_key" and r.headers["www-authenticate"] == "Bearer"
        _openai_error(client.get("/v1/models", headers=headers), 401, "authentication_error")
    r = client.post(URL, json=_body("hi"), headers={"X-Context-Key": key, "X-Ctx-Thread": "s"})
    assert r.status_code == 200, r.text
    assert _sent(srv) and len(_sent(srv)) == 1


# -- backends failing or missing -------------------------------------------------------------------


def test_no_chat_backend_is_503_before_the_turn_is_stored(
    client: Any, app: App, srv: Any, key: str
) -> None:
    add_backend(app, srv, ["synthesis"])
    for stream in (False, True):
        r = client.post(URL, json=_body("hi", stream=stream), headers=_headers(key))
        error = _openai_error(r, 503, "api_error")
        assert "ctx backends create" in error["message"] and "--role chat" in error["message"]
        assert "x-should-retry" not in r.headers
    add_backend(app, srv, ["chat"], name="chatty")
    r = client.post(URL, json=_body("hi"), headers=_headers(key))
    assert r.status_code == 200 and r.headers["X-Ctx-Seq"] == "1"  # nothing was stored before


def test_backend_error_is_502_and_the_server_goes_on(
    client: Any, app: App, srv: Any, key: str
) -> None:
    add_backend(app, srv, ["chat"])
    srv.reset(chat="error500")
    for stream in (False, True):
        app.backends.succeeded("peer", "chat")  # out of the cooldown the failure started
        r = client.post(URL, json=_body("hi", stream=stream), headers=_headers(key))
        error = _openai_error(r, 502, "api_error")
        assert error["code"] == "backend_error" and "the model crashed" not in error["message"]
        assert r.headers["x-should-retry"] == "false"  # the turn is stored: no blind retries
    srv.reset()
    app.backends.succeeded("peer", "chat")
    r = client.post(URL, json=_body("again"), headers=_headers(key))
    assert r.status_code == 200, r.text


def test_trust_gate_withholds_credentials_but_sends_the_turn(
    client: Any, app: App, srv: Any, key: str
) -> None:
    add_backend(app, srv, ["chat"], trust="non-personal")
    _commit(app, "sec", "The vault password is HUNTER2-VAULT.", role="user",
            sensitivity="credentials")  # fmt: skip
    _commit(app, "sec", "Noted, the vault password is stored.", role="assistant")
    r = client.post(URL, json=_body("What did we note?"), headers=_headers(key, "sec"))
    assert r.status_code == 200, r.text
    assert int(r.headers["X-Ctx-Withheld"]) >= 1
    sent = _sent(srv)[0]["messages"]
    assert "HUNTER2" not in srv.sent_text()
    assert sent[-1] == {"role": "user", "content": "What did we note?"}
    assert {"role": "assistant", "content": "Noted, the vault password is stored."} in sent
    # streamed the same way
    r = client.post(URL, json=_body("And streamed?", stream=True), headers=_headers(key, "sec"))
    assert r.status_code == 200 and _data(r.text)[-1] == "[DONE]"
    assert "HUNTER2" not in srv.sent_text()
    assert _sent(srv)[-1]["messages"][-1] == {"role": "user", "content": "And streamed?"}


@pytest.mark.parametrize("stream", [False, True])
def test_a_backend_that_may_not_see_the_turn_is_passed_over(
    client: Any, app: App, srv: Any, key: str, stream: bool
) -> None:
    add_backend(app, srv, ["chat"], trust="public")  # the turn is internal
    r = client.post(URL, json=_body("internal matter", stream=stream), headers=_headers(key))
    error = _openai_error(r, 503, "api_error")
    assert error["code"] == "no_backend" and r.headers["x-should-retry"] == "false"
    assert _sent(srv) == []


# -- streams ---------------------------------------------------------------------------------------


def test_stream_round_trip_with_usage_then_committed(
    client: Any, app: App, srv: Any, key: str
) -> None:
    add_backend(app, srv, ["chat"])
    srv.chat_replies = ["Streams arrive in small pieces.", "ok"]
    body = _body("How do streams arrive?", stream=True, stream_options={"include_usage": True})
    r = client.post(URL, json=body, headers=_headers(key, "st"))
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/event-stream")
    assert r.headers["X-Ctx-Seq"] == "1" and int(r.headers["X-Ctx-Envelope-Tokens"]) > 0
    data = _data(r.text)
    assert data[-1] == "[DONE]" and data.count("[DONE]") == 1
    chunks = [json.loads(d) for d in data[:-1]]
    assert {c["object"] for c in chunks} == {"chat.completion.chunk"}
    assert len({c["id"] for c in chunks}) == 1 and chunks[0]["id"].startswith("chatcmpl-")
    assert chunks[0]["choices"][0]["delta"] == {"role": "assistant"}
    text = "".join(c["choices"][0]["delta"].get("content", "") for c in chunks if c["choices"])
    assert text == "Streams arrive in small pieces."
    finish = [c["choices"][0]["finish_reason"] for c in chunks if c["choices"]]
    assert finish[-1] == "stop" and set(finish[:-1]) == {None}
    last = chunks[-1]
    assert last["choices"] == [] and last["usage"]["completion_tokens"] > 0
    assert last["usage"]["prompt_tokens"] == int(r.headers["X-Ctx-Envelope-Tokens"])
    assert all(c["usage"] is None for c in chunks[:-1])

    r = client.post(URL, json=_body("Thanks."), headers=_headers(key, "st"))
    assert r.headers["X-Ctx-Seq"] == "3"
    ring = _sent(srv)[1]["messages"]
    assert {"role": "assistant", "content": "Streams arrive in small pieces."} in ring


def test_stream_without_usage_has_no_usage_chunk(client: Any, app: App, srv: Any, key: str) -> None:
    add_backend(app, srv, ["chat"])
    r = client.post(URL, json=_body("hi", stream=True), headers=_headers(key))
    chunks = [json.loads(d) for d in _data(r.text)[:-1]]
    assert all("usage" not in c and c["choices"] for c in chunks)


def test_stream_cut_midway_ends_with_an_error_event_and_commits_nothing(
    client: Any, app: App, srv: Any, key: str
) -> None:
    add_backend(app, srv, ["chat"])
    srv.reset(chat="cut")
    srv.chat_default = "PARTIAL-ANSWER-WORDS"
    r = client.post(URL, json=_body("Tell me.", stream=True), headers=_headers(key, "cut"))
    assert r.status_code == 200
    data = _data(r.text)
    assert data[-1] == "[DONE]"
    error = json.loads(data[-2])["error"]
    assert error["type"] == "api_error" and error["message"] and set(error) >= {"param", "code"}
    text = "".join(json.loads(d)["choices"][0]["delta"].get("content", "") for d in data[:-2])
    assert text == "PARTIA"  # two pieces of three characters came through before the cut

    srv.reset()
    app.backends.succeeded("peer", "chat")
    r = client.post(URL, json=_body("Again?"), headers=_headers(key, "cut"))
    assert r.status_code == 200, r.text
    assert r.headers["X-Ctx-Seq"] == "2"  # the first turn is stored, no answer after it
    assert "PARTIA" not in srv.sent_text()
    assert not [m for m in _sent(srv)[0]["messages"] if m["role"] == "assistant"]


# -- budget and models -----------------------------------------------------------------------------


def test_budget_header_is_honoured(client: Any, app: App, srv: Any, key: str) -> None:
    add_backend(app, srv, ["chat"])
    for i in range(8):
        _commit(app, "b", f"Earlier note {i}: " + "the ferry timetable changes in spring. " * 4)
    r = client.post(URL, json=_body("When does the ferry change?"),
                    headers=_headers(key, "b", **{"X-Ctx-Budget": "200"}))  # fmt: skip
    assert r.status_code == 200, r.text
    assert r.headers["X-Ctx-Budget"] == "200"
    small = int(r.headers["X-Ctx-Envelope-Tokens"])
    assert 0 < small <= 200
    r = client.post(URL, json=_body("And in autumn?"),
                    headers=_headers(key, "b", **{"X-Ctx-Budget": "5000"}))  # fmt: skip
    assert int(r.headers["X-Ctx-Envelope-Tokens"]) > small


def test_strict_header(client: Any, app: App, srv: Any, key: str) -> None:
    add_backend(app, srv, ["chat"])
    r = client.post(URL, json=_body("hi"), headers=_headers(key, **{"X-Ctx-Strict": "true"}))
    assert r.status_code == 200, r.text


def test_models_lists_the_chat_backends_models(client: Any, app: App, srv: Any, key: str) -> None:
    r = client.get("/v1/models", headers=_headers(key))
    assert r.status_code == 200 and r.json() == {"object": "list", "data": []}
    add_backend(app, srv, ["chat"], model_map={"chat": "chat-model-x", "default": "other"})
    add_backend(app, srv, ["synthesis"], name="synth", model_map={"default": "synth-model"})
    add_backend(app, srv, ["chat"], name="second", model_map={"default": "chat-model-x"},
                priority=-1)  # fmt: skip
    r = client.get("/v1/models", headers=_headers(key))
    assert r.status_code == 200, r.text
    assert r.json() == {
        "object": "list",
        "data": [{"id": "chat-model-x", "object": "model", "created": 0, "owned_by": "peer"}],
    }


def test_a_client_that_leaves_mid_stream_ends_the_backend_request(
    app: App, srv: Any, key: str
) -> None:
    from live import live_server

    add_backend(app, srv, ["chat"])
    srv.reset(chat="endless")
    with live_server(app) as url, httpx.Client(timeout=10) as http:
        with http.stream("POST", url + URL, json=_body("Go on.", stream=True),
                         headers=_headers(key, "gone")) as r:  # fmt: skip
            assert r.status_code == 200
            lines = r.iter_lines()
            data = [line for line in (next(lines) for _ in range(8)) if line]
            assert json.loads(data[-1][len("data: ") :])["choices"][0]["delta"] == {"content": "x"}
        deadline = time.monotonic() + 10
        while not srv.disconnects and time.monotonic() < deadline:
            time.sleep(0.05)
        assert srv.disconnects == 1  # the backend's request was closed with the client's
        srv.reset()
        r = http.post(url + URL, json=_body("Back again."), headers=_headers(key, "gone"))
        assert r.status_code == 200, r.text
        assert r.headers["X-Ctx-Seq"] == "2"  # nothing was committed for the abandoned answer


def test_a_turn_over_the_event_limit_is_413(client: Any, app: App, srv: Any, key: str) -> None:
    from ctx.core.runtime import set_setting

    add_backend(app, srv, ["chat"])
    set_setting(app, "governor.max_event_chars", 100)
    r = client.post(URL, json=_body("x" * 101), headers=_headers(key))
    error = _openai_error(r, 413, "invalid_request_error")
    assert "governor.max_event_chars" in error["message"] and error["param"] == "messages"
    assert _sent(srv) == []
