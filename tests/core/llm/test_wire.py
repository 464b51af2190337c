"""The OpenAI wire client against a real loopback peer: every answer checked, every failure a
clear error in bounded time."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import openai_server
import pytest
from openai_server import ToolCallReply

from ctx.core import llm
from ctx.core.llm.completions import ToolChatResult


@pytest.fixture
def client(srv: Any) -> Iterator[llm.OpenAIClient]:
    with httpx.Client() as http:
        yield llm.OpenAIClient(
            srv.base_url + "/v1", http=http, name="peer",
            limits=llm.Limits(connect=1, read=0.5, total=1.5, max_chars=5000),
            api_key="sk-test",
        )  # fmt: skip


MSG = [{"role": "user", "content": "two words"}]
TOOLS = [{"type": "function", "function": {"name": "search", "parameters": {"type": "object"}}}]
#: The two stream readers' entry points: plain text, and with tools offered.
STREAMS: dict[str, Callable[[llm.OpenAIClient], Any]] = {
    "plain": lambda c: c.stream_chat("m", MSG, {}),
    "tools": lambda c: c.stream_tool_chat("m", MSG, {}, TOOLS),
}


def test_chat_reply_usage_and_bearer(client: llm.OpenAIClient, srv: Any) -> None:
    srv.chat_replies.append("hello there")
    out = client.chat("m", MSG, {"temperature": 0, "model": "ignored"})
    assert (out.text, out.prompt_tokens, out.completion_tokens) == ("hello there", 2, 2)
    sent = srv.requests[-1]
    assert sent.path == "/v1/chat/completions" and sent.body["model"] == "m"
    assert sent.body["temperature"] == 0 and sent.headers["Authorization"] == "Bearer sk-test"


def test_stream_yields_pieces_then_the_whole(client: llm.OpenAIClient, srv: Any) -> None:
    srv.chat_replies.append("a streamed answer")
    items = list(client.stream_chat("m", MSG, {}))
    *pieces, last = items
    assert all(isinstance(p, str) for p in pieces) and len(pieces) > 2
    assert isinstance(last, llm.ChatResult) and last.text == "a streamed answer" == "".join(pieces)
    assert last.finish_reason == "stop" and last.completion_tokens == 3
    assert srv.requests[-1].body["stream"] is True


@pytest.mark.parametrize(
    ("behaviour", "error", "words"),
    [
        ("error500", llm.ModelError, "answered HTTP 500"),
        ("error429", llm.ModelError, "answered HTTP 429"),
        ("malformed", llm.InvalidResponse, "without choices[0].message.content"),
        ("notjson", llm.InvalidResponse, "not JSON"),
        ("hang", llm.ModelTimeout, "did not answer"),
        ("cut", llm.ModelError, "broke off"),
    ],
)
def test_chat_failures(
    client: llm.OpenAIClient, srv: Any, behaviour: str, error: type, words: str
) -> None:
    srv.chat_behaviour = behaviour
    with pytest.raises(error) as caught:
        client.chat("m", MSG, {})
    assert words in caught.value.message and "peer" in caught.value.message


@pytest.mark.parametrize("stream", sorted(STREAMS))
@pytest.mark.parametrize(
    ("behaviour", "error", "words"),
    [
        ("cut", llm.InvalidResponse, "ended before the answer was complete"),
        ("garbage", llm.InvalidResponse, "not JSON"),
        ("endless", llm.ModelTimeout, "did not end within 1.5 s"),
        ("hang", llm.ModelTimeout, "did not answer"),
        ("error500", llm.ModelError, "answered HTTP 500"),
    ],
)
def test_stream_failures(
    client: llm.OpenAIClient, srv: Any, behaviour: str, error: type, words: str, stream: str
) -> None:
    srv.chat_behaviour = behaviour
    with pytest.raises(error) as caught:
        list(STREAMS[stream](client))
    assert type(caught.value) is error and words in caught.value.message


SEARCH_ARGS = {"query": "where does the harbour lie, and who keeps the lighthouse lit?"}


def test_a_streamed_tool_call_is_put_together_from_its_deltas(
    client: llm.OpenAIClient, srv: Any
) -> None:
    srv.chat_replies.append(ToolCallReply([("search", SEARCH_ARGS), ("open", {"id": 7})],
                                          content="Let me look."))  # fmt: skip
    *pieces, last = list(client.stream_tool_chat("m", MSG, {"temperature": 0}, TOOLS))
    assert "".join(pieces) == "Let me look." and all(isinstance(p, str) for p in pieces)
    assert isinstance(last, ToolChatResult) and last.text == "Let me look."
    assert [(c.name, json.loads(c.arguments)) for c in last.tool_calls] == [
        ("search", SEARCH_ARGS),
        ("open", {"id": 7}),
    ]
    assert all(c.id.startswith("call_") for c in last.tool_calls)
    assert last.finish_reason == "tool_calls" and last.completion_tokens is not None
    sent = srv.requests[-1].body
    assert sent["tools"] == TOOLS and sent["stream"] is True and sent["temperature"] == 0
    assert sent["stream_options"] == {"include_usage": True}


def test_the_whole_tool_answer_reads_like_the_streamed_one(
    client: llm.OpenAIClient, srv: Any
) -> None:
    srv.chat_replies.append(ToolCallReply([("search", SEARCH_ARGS)]))
    whole = client.tool_chat("m", MSG, {}, TOOLS)
    srv.chat_replies.append(ToolCallReply([("search", SEARCH_ARGS)]))
    *_, streamed = list(client.stream_tool_chat("m", MSG, {}, TOOLS))
    assert isinstance(whole, ToolChatResult) and isinstance(streamed, ToolChatResult)
    read = [[(c.name, c.arguments) for c in r.tool_calls] for r in (whole, streamed)]
    assert read[0] == read[1] == [("search", json.dumps(SEARCH_ARGS))]
    assert whole.text == streamed.text == "" and whole.finish_reason == "tool_calls"
    assert "stream" not in srv.requests[-2].body and srv.requests[-2].body["tools"] == TOOLS


def test_the_plain_stream_reads_text_and_leaves_tool_calls_alone(
    client: llm.OpenAIClient, srv: Any
) -> None:
    srv.chat_replies.append(ToolCallReply([("search", SEARCH_ARGS)], content="Looking."))
    *pieces, last = list(client.stream_chat("m", MSG, {}))
    assert type(last) is llm.ChatResult and last.text == "Looking." == "".join(pieces)
    assert last.finish_reason == "tool_calls" and "tools" not in srv.requests[-1].body


def test_tool_call_arguments_count_towards_the_answer_limit(srv: Any) -> None:
    long_args = {"query": "x" * 150}
    with httpx.Client() as http:
        small = llm.OpenAIClient(srv.base_url, http=http, name="peer",
                                 limits=llm.Limits(read=2, total=30, max_chars=100))  # fmt: skip
        srv.chat_replies.append(ToolCallReply([("search", long_args)]))
        with pytest.raises(llm.InvalidResponse) as streamed:
            list(small.stream_tool_chat("m", MSG, {}, TOOLS))
        srv.chat_replies.append(ToolCallReply([("search", long_args)]))
        with pytest.raises(llm.InvalidResponse) as whole:
            small.tool_chat("m", MSG, {}, TOOLS)
        srv.chat_replies.append(ToolCallReply([("search", long_args)], content="short"))
        *_, plain = list(small.stream_chat("m", MSG, {}))  # text alone is read, and counted
    assert "ran past 100 characters" in streamed.value.message
    assert "an answer over 100 chars" in whole.value.message
    assert plain.text == "short"


def test_a_stream_that_stalls_midway_times_out(client: llm.OpenAIClient, srv: Any) -> None:
    srv.chat_replies.append("slow but sure, very slow")
    srv.stream_delay = 0.8  # longer than the 0.5 s read timeout between events
    try:
        with pytest.raises(llm.ModelTimeout) as caught:
            list(client.stream_chat("m", MSG, {}))
    finally:
        srv.stream_delay = 0.0
    assert "stalled" in caught.value.message


def test_a_stream_past_the_answer_limit_is_stopped(srv: Any) -> None:
    srv.chat_behaviour = "endless"
    with httpx.Client() as http:
        small = llm.OpenAIClient(srv.base_url, http=http, name="peer",
                                 limits=llm.Limits(read=2, total=30, max_chars=100))  # fmt: skip
        with pytest.raises(llm.InvalidResponse) as caught:
            list(small.stream_chat("m", MSG, {}))
    assert "ran past 100 characters" in caught.value.message


def test_rerank_is_realigned_by_index(client: llm.OpenAIClient, srv: Any) -> None:
    srv.rerank_scores = [0.5, 3.0, -2.0]
    assert client.rerank("r", "q", ["a", "b", "c"], {}) == [0.5, 3.0, -2.0]
    assert srv.requests[-1].body["top_n"] == 3


@pytest.mark.parametrize(
    ("behaviour", "words"),
    [
        ("gap", "leaves out document(s) [0]"),
        ("duplicate", "appears twice"),
        ("outofrange", "outside 0..2"),
        ("malformed", 'without a "results" list'),
        ("error500", "answered HTTP 500"),
    ],
)
def test_rerank_answers_that_do_not_cover_every_document(
    client: llm.OpenAIClient, srv: Any, behaviour: str, words: str
) -> None:
    srv.rerank_behaviour = behaviour
    with pytest.raises(llm.ModelError) as caught:
        client.rerank("r", "alpha", ["alpha one", "beta", "alpha two"], {})
    assert words in caught.value.message


def test_embeddings(client: llm.OpenAIClient, srv: Any) -> None:
    vectors = client.embed("e", ["one", "two"], {})
    assert len(vectors) == 2 and len(vectors[0]) == srv.native_dimensions
    srv.behaviour = "malformed"
    with pytest.raises(llm.InvalidResponse):
        client.embed("e", ["one"], {})


def test_unreachable_server_is_a_model_error() -> None:
    with httpx.Client() as http:
        dead = llm.OpenAIClient("http://127.0.0.1:9", http=http, name="dead",
                                limits=llm.Limits(connect=0.5))  # fmt: skip
        with pytest.raises(llm.ModelError) as caught:
            dead.chat("m", MSG, {})
    assert "dead broke off" in caught.value.message


def test_the_pool_serves_concurrent_calls(srv: Any) -> None:
    srv.chat_default = "fine"
    results: list[str] = []
    # generous limits: this is about sharing the pool, not timeouts (a loaded CI machine took
    # longer than the fixture's 0.5 s to answer eight connections at once)
    http = httpx.Client()
    client = llm.OpenAIClient(srv.base_url + "/v1", http=http, name="peer",
                              limits=llm.Limits(connect=10, read=10, total=20, max_chars=5000))  # fmt: skip

    def call() -> None:
        results.append(client.chat("m", MSG, {}).text)

    threads = [threading.Thread(target=call) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    http.close()
    assert results == ["fine"] * 8


def _raw_stream(chunks: Any) -> Any:
    def write(handler: Any) -> None:
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.end_headers()
        for chunk in chunks():
            handler.wfile.write(chunk)
            handler.wfile.flush()

    return lambda server, body: (200, openai_server.RawReply(write))


def test_keep_alive_comments_forever_are_cut_at_the_total_timeout(
    client: llm.OpenAIClient, srv: Any
) -> None:
    def comments() -> Iterator[bytes]:
        for _ in range(200):  # 20 s of comments, each well inside the 0.5 s read timeout
            if srv.release.wait(0.1):
                return
            yield b": keep-alive\n\n"

    srv.routes["/v1/chat/completions"] = _raw_stream(comments)
    try:
        with pytest.raises(llm.ModelTimeout) as caught:
            list(client.stream_chat("m", MSG, {}))
    finally:
        srv.routes["/v1/chat/completions"] = openai_server.chat_handler
    assert "did not end within 1.5 s" in caught.value.message


def test_a_line_that_never_ends_is_stopped(client: llm.OpenAIClient, srv: Any) -> None:
    srv.routes["/v1/chat/completions"] = _raw_stream(lambda: iter([b"data: " + b"x" * (2 << 20)]))
    try:
        with pytest.raises(llm.InvalidResponse) as caught:
            list(client.stream_chat("m", MSG, {}))
    finally:
        srv.routes["/v1/chat/completions"] = openai_server.chat_handler
    assert "stream line over" in caught.value.message


def _events(*chunks: dict[str, Any]) -> Callable[[], Iterator[bytes]]:
    return lambda: iter([*(f"data: {json.dumps(c)}\n\n".encode() for c in chunks),
                         b"data: [DONE]\n\n"])  # fmt: skip


def _delta(delta: Any, finish: str | None = None) -> dict[str, Any]:
    return {"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def _call(index: int, **fields: Any) -> dict[str, Any]:
    return _delta({"tool_calls": [{"index": index, **fields}]})


def test_interleaved_tool_call_deltas_are_joined_by_index(
    client: llm.OpenAIClient, srv: Any
) -> None:
    srv.routes["/v1/chat/completions"] = _raw_stream(_events(
        _call(1, id="b", function={"name": "open", "arguments": ""}),
        _call(0, id="a", function={"name": "search", "arguments": '{"qu'}),
        _call(1, function={"arguments": '{"id"'}),
        _call(0, function={"arguments": 'ery": '}),
        _call(1, function={"arguments": ": 7}"}),
        _call(0, function={"arguments": '"harbour"}'}),
        _delta({}, "tool_calls"),
        {"choices": [], "usage": {"prompt_tokens": 5, "completion_tokens": 9}},
    ))  # fmt: skip
    try:
        *pieces, last = list(client.stream_tool_chat("m", MSG, {}, TOOLS))
    finally:
        srv.routes["/v1/chat/completions"] = openai_server.chat_handler
    assert pieces == [] and isinstance(last, ToolChatResult)
    assert last.tool_calls == [
        llm.ToolCall("a", "search", '{"query": "harbour"}'),
        llm.ToolCall("b", "open", '{"id": 7}'),
    ]
    assert (last.prompt_tokens, last.completion_tokens) == (5, 9)


@pytest.mark.parametrize(
    ("chunk", "words"),
    [
        (_call(0, function={"arguments": "{}"}), "streamed tool call 0 without a name"),
        (_delta({"tool_calls": {"index": 0}}), "delta.tool_calls that is not a list"),
        (_call(-1, function={"name": "x"}), "tool-call delta without an index"),
        (_delta("not an object"), "malformed stream chunk"),
    ],
)
def test_malformed_tool_call_deltas_are_refused(
    client: llm.OpenAIClient, srv: Any, chunk: dict[str, Any], words: str
) -> None:
    srv.routes["/v1/chat/completions"] = _raw_stream(_events(chunk, _delta({}, "tool_calls")))
    try:
        with pytest.raises(llm.InvalidResponse) as caught:
            list(client.stream_tool_chat("m", MSG, {}, TOOLS))
        *_, plain = list(client.stream_chat("m", MSG, {}))  # the plain reader reads text only
    finally:
        srv.routes["/v1/chat/completions"] = openai_server.chat_handler
    assert words in caught.value.message and plain.text == ""
