"""A real OpenAI-compatible HTTP server on loopback, for tests of clients that speak that format.

Runs ``http.server.ThreadingHTTPServer`` on 127.0.0.1 in a background thread and records every
request (``requests``; ``sent_text()`` gives every body as one greppable string). It answers:

* ``POST /v1/embeddings`` with deterministic vectors (derived from a hash of each input text, so
  the same text always gets the same vector); ``behaviour`` switches it into failure modes.
* ``POST /v1/chat/completions``, plain or streamed (``"stream": true``, server-sent events), with
  replies the test scripts (``chat_replies``, ``chat_responder``, ``chat_default``);
  ``chat_behaviour`` switches it into failure modes. A scripted reply may be a ``ToolCallReply``
  instead of text: the answer then asks for tool calls (``message.tool_calls``, or streamed
  ``delta.tool_calls`` chunks with the arguments in pieces, ``finish_reason: "tool_calls"``).
* ``POST /v1/rerank`` in the Cohere/Jina format, results sorted by score (not input order);
  ``rerank_scores`` scripts the scores, ``rerank_behaviour`` switches it into failure modes.
* ``GET /v1/models`` and ``GET /health``.

More POST endpoints can be added by putting a handler into ``routes`` (GET ones into
``get_routes``): ``handler(server, body) -> (status, json_body)``. A handler that needs the socket
itself (streams, broken bodies) returns a ``RawReply`` as the body.

This file is loaded by path (tests run with ``--import-mode=importlib`` and ``tests/`` is not a
package)::

    spec = importlib.util.spec_from_file_location("openai_server", path)
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

import numpy as np

Handler = Callable[["OpenAIServer", dict[str, Any]], tuple[int, Any]]

# What /v1/embeddings returns:
#   ok          hash-derived vectors of `native_dimensions` values, not normalised
#   constant    the same value everywhere (variance 0)
#   zero        all zeros (norm 0)
#   nan         a NaN in every vector
#   short       each vector one value shorter than promised, the first one half as long
#   reversed    correct vectors, but listed in reverse order (the client must sort by index)
#   error500    HTTP 500 with an OpenAI-style error body
#   malformed   HTTP 200 with a body that is not an embeddings response
#   hang        no answer until ``release`` is set (then as ok): a model that stalls
BEHAVIOURS = ("ok", "constant", "zero", "nan", "short", "reversed", "error500", "malformed", "hang")

# What /v1/chat/completions does (S: with "stream": true, N: without):
#   ok          the reply: one chat.completion (N), or a keep-alive comment, a role chunk, the
#               reply in ~3-character content chunks, a finish chunk, a usage chunk when
#               stream_options.include_usage, then `data: [DONE]` (S)
#   error500    HTTP 500 with an OpenAI-style error body (S and N alike: JSON, not events)
#   error429    HTTP 429 with an OpenAI-style rate-limit body (S and N alike)
#   malformed   HTTP 200 JSON that is not a chat completion: no choices (S and N alike)
#   notjson     HTTP 200, Content-Type application/json, body `<html>oops` (S and N alike)
#   hang        no answer until ``release`` is set (up to 120 s), then as ok
#   cut         S: role chunk and two content chunks, then the connection closes without
#               [DONE]; N: a Content-Length larger than the body sent, then the connection closes
#   endless     S: a content chunk "x" every 0.05 s until the client disconnects (counted in
#               ``disconnects``), ``release`` is set (then the stream ends properly) or 120 s
#               pass; N: as hang
#   garbage     S: one valid chunk, then `data: {not json`, then `data: [DONE]`;
#               N: HTTP 200 application/json body `{not json`
CHAT_BEHAVIOURS = (
    "ok",
    "error500",
    "error429",
    "malformed",
    "notjson",
    "hang",
    "cut",
    "endless",
    "garbage",
)

# What /v1/rerank returns:
#   ok          results sorted by relevance_score descending, trimmed to top_n when given
#   error500    HTTP 500 with an error body
#   gap         one document (index 0) missing from the results, though top_n was not given
#   duplicate   an index appears twice (the last result carries the first result's index; with
#               a single document, the result is listed twice)
#   outofrange  the last result's index is len(documents)
#   malformed   HTTP 200 `{"data": []}`
#   hang        no answer until ``release`` is set (up to 120 s), then as ok
RERANK_BEHAVIOURS = ("ok", "error500", "gap", "duplicate", "outofrange", "malformed", "hang")

HANG_SECONDS = 120.0
ENDLESS_INTERVAL = 0.05
CHUNK_CHARS = 3


def hash_vector(text: str, dimensions: int) -> np.ndarray:
    """A deterministic pseudo-random vector for ``text``, scaled away from unit length."""
    seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")
    return np.random.default_rng(seed).standard_normal(dimensions) * 3.0


def rerank_score(query: str, document: str) -> float:
    """The default rerank score, a raw logit (may be negative): 3.0 for each distinct lowercase
    query word found (as a substring) in the lowercased document, minus 5.0."""
    doc = document.lower()
    words = set(query.lower().split())
    return sum(1 for word in words if word in doc) * 3.0 - 5.0


def count_words(text: Any) -> int:
    """Whitespace-separated words in a message content (a string or a list of text parts)."""
    if isinstance(text, str):
        return len(text.split())
    if isinstance(text, list):
        return sum(count_words(part.get("text")) for part in text if isinstance(part, dict))
    return 0


@dataclass
class RecordedRequest:
    path: str
    headers: dict[str, str]
    body: Any  # the parsed JSON body; None for a GET


@dataclass
class RawReply:
    """Returned by a route instead of a JSON body when it must write to the socket itself.

    ``write`` gets the request handler (``send_response``, ``send_header``, ``end_headers``,
    ``wfile``); the connection is closed when it returns. A client that disconnects meanwhile
    (BrokenPipeError, ConnectionResetError) is counted in ``server.disconnects``.
    """

    write: Callable[[BaseHTTPRequestHandler], None]


@dataclass
class ToolCallReply:
    """A scripted chat answer that asks for tool calls: ``calls`` are ``(name, arguments)``
    pairs, the arguments an object (sent as JSON text, as OpenAI does) or raw text (to script
    invalid JSON); ``content`` is text said alongside (OpenAI sends null when there is none)."""

    calls: list[tuple[str, Any]]
    content: str | None = None

    def tool_calls(self) -> list[dict[str, Any]]:
        out = []
        for name, arguments in self.calls:
            text = arguments if isinstance(arguments, str) else json.dumps(arguments)
            out.append(
                {
                    "id": f"call_{uuid.uuid4().hex[:12]}",
                    "type": "function",
                    "function": {"name": name, "arguments": text},
                }
            )
        return out


Reply = str | ToolCallReply


@dataclass
class OpenAIServer:
    native_dimensions: int = 64
    behaviour: str = "ok"
    requests: list[RecordedRequest] = field(default_factory=list)
    routes: dict[str, Handler] = field(default_factory=dict)
    get_routes: dict[str, Handler] = field(default_factory=dict)
    release: threading.Event = field(default_factory=threading.Event)
    # /v1/chat/completions
    chat_behaviour: str = "ok"
    chat_replies: list[Reply] = field(default_factory=list)  # a queue: each request pops one
    chat_responder: Callable[[dict[str, Any]], Reply] | None = None  # before the queue, if set
    chat_default: str = "OK"  # when the queue is empty
    stream_delay: float = 0.0  # seconds between streamed events
    # /v1/rerank
    rerank_behaviour: str = "ok"
    rerank_scores: list[float] | None = None  # score of document i; else rerank_score()
    # clients that went away in the middle of a streamed or raw reply
    disconnects: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _httpd: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None

    def __post_init__(self) -> None:
        self.routes.setdefault("/v1/embeddings", embeddings_handler)
        self.routes.setdefault("/v1/chat/completions", chat_handler)
        self.routes.setdefault("/v1/rerank", rerank_handler)
        self.get_routes.setdefault("/v1/models", models_handler)
        self.get_routes.setdefault("/health", health_handler)

    @property
    def base_url(self) -> str:
        assert self._httpd is not None, "server not started"
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> OpenAIServer:
        httpd = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        httpd.daemon_threads = True  # stop() does not wait for hanging or streaming requests
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self.release.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def reset(self, behaviour: str = "ok", *, chat: str = "ok", rerank: str = "ok") -> None:
        assert behaviour in BEHAVIOURS, behaviour
        assert chat in CHAT_BEHAVIOURS, chat
        assert rerank in RERANK_BEHAVIOURS, rerank
        self.release.set()  # let any hanging request finish
        self.release = threading.Event()
        self.behaviour = behaviour
        self.chat_behaviour = chat
        self.rerank_behaviour = rerank
        with self._lock:
            self.chat_replies.clear()
        self.chat_responder = None
        self.rerank_scores = None
        self.disconnects = 0
        self.requests.clear()

    def sent_text(self) -> str:
        """Every recorded request body as JSON (non-ASCII kept as is), one per line."""
        return "\n".join(
            json.dumps(r.body, ensure_ascii=False)
            for r in list(self.requests)
            if r.body is not None
        )

    def next_chat_reply(self, body: dict[str, Any]) -> Reply:
        if self.chat_responder is not None:
            return self.chat_responder(body)
        with self._lock:
            if self.chat_replies:
                return self.chat_replies.pop(0)
        return self.chat_default

    def __enter__(self) -> OpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def embeddings_handler(server: OpenAIServer, body: dict[str, Any]) -> tuple[int, Any]:
    inputs = body.get("input")
    if isinstance(inputs, str):
        inputs = [inputs]
    if not isinstance(inputs, list) or not all(isinstance(t, str) for t in inputs):
        return 400, {"error": {"message": "input must be a string or a list of strings"}}
    behaviour = server.behaviour
    if behaviour == "hang":
        server.release.wait(120)
        behaviour = "ok"
    if behaviour == "error500":
        return 500, {"error": {"message": "model failed to load", "type": "server_error"}}
    if behaviour == "malformed":
        return 200, {"object": "list", "results": []}
    dims = server.native_dimensions
    data = []
    for index, text in enumerate(inputs):
        vec = hash_vector(text, dims)
        if behaviour == "constant":
            vec = np.full(dims, 0.5)
        elif behaviour == "zero":
            vec = np.zeros(dims)
        elif behaviour == "nan":
            vec[dims // 2] = np.nan
        elif behaviour == "short":
            vec = vec[: dims // 2] if index == 0 else vec[:-1]
        data.append({"object": "embedding", "index": index, "embedding": vec.tolist()})
    if behaviour == "reversed":
        data.reverse()
    tokens = sum(len(text.split()) for text in inputs)
    return 200, {
        "object": "list",
        "model": body.get("model"),
        "data": data,
        "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
    }


# --- chat completions ---------------------------------------------------------------------------


def _raw_bytes(status: int, payload: bytes, content_length: int | None = None) -> RawReply:
    """A reply of ``payload`` as application/json, announcing ``content_length`` bytes."""

    def write(h: BaseHTTPRequestHandler) -> None:
        h.send_response(status)
        h.send_header("Content-Type", "application/json")
        h.send_header(
            "Content-Length", str(len(payload) if content_length is None else content_length)
        )
        h.end_headers()
        h.wfile.write(payload)
        h.wfile.flush()

    return RawReply(write)


def _chunk(cid: str, created: int, model: Any, delta: dict[str, Any], finish: str | None) -> dict:
    return {
        "id": cid,
        "object": "chat.completion.chunk",
        "created": created,
        "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }


def chat_handler(server: OpenAIServer, body: dict[str, Any]) -> tuple[int, Any]:
    messages = body.get("messages")
    if not isinstance(messages, list) or not all(isinstance(m, dict) for m in messages):
        return 400, {"error": {"message": "messages must be a list of objects"}}
    behaviour = server.chat_behaviour
    if behaviour not in CHAT_BEHAVIOURS:
        return 400, {"error": {"message": f"test peer: unknown chat_behaviour {behaviour!r}"}}
    stream = body.get("stream") is True
    release = server.release  # reset() swaps the event; a waiting request keeps its own
    if behaviour == "hang" or (behaviour == "endless" and not stream):
        release.wait(HANG_SECONDS)
        behaviour = "ok"
    if behaviour == "error500":
        return 500, {"error": {"message": "the model crashed", "type": "server_error"}}
    if behaviour == "error429":
        return 429, {
            "error": {
                "message": "Rate limit reached for requests",
                "type": "rate_limit_error",
                "code": "rate_limit_exceeded",
            }
        }
    if behaviour == "malformed":
        return 200, {"object": "chat.completion", "choices": []}
    if behaviour == "notjson":
        return 200, _raw_bytes(200, b"<html>oops")
    if behaviour == "garbage" and not stream:
        return 200, _raw_bytes(200, b"{not json")

    scripted = server.next_chat_reply(body)
    calls = scripted.tool_calls() if isinstance(scripted, ToolCallReply) else []
    reply = (scripted.content or "") if isinstance(scripted, ToolCallReply) else scripted
    model = body.get("model")
    cid = f"chatcmpl-{uuid.uuid4().hex[:12]}"
    created = int(time.time())
    prompt_tokens = sum(count_words(m.get("content")) for m in messages)
    produced = count_words(reply) + sum(count_words(c["function"]["arguments"]) for c in calls)
    usage = {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": produced,
        "total_tokens": prompt_tokens + produced,
    }
    message: dict[str, Any] = {"role": "assistant", "content": reply}
    finish_reason = "stop"
    if calls:
        message = {"role": "assistant", "content": reply or None, "tool_calls": calls}
        finish_reason = "tool_calls"
    completion = {
        "id": cid,
        "object": "chat.completion",
        "created": created,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
        "usage": usage,
    }
    if not stream:
        if behaviour == "cut":
            payload = json.dumps(completion).encode("utf-8")
            return 200, _raw_bytes(200, payload[: len(payload) // 2], content_length=len(payload))
        return 200, completion

    pieces = [reply[i : i + CHUNK_CHARS] for i in range(0, len(reply), CHUNK_CHARS)]
    options = body.get("stream_options")
    include_usage = isinstance(options, dict) and bool(options.get("include_usage"))

    def write(h: BaseHTTPRequestHandler) -> None:
        def send(raw: bytes) -> None:
            h.wfile.write(raw)
            h.wfile.flush()

        def event(data: Any, *, delay: bool = True) -> None:
            if delay and server.stream_delay:
                time.sleep(server.stream_delay)
            text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
            send(f"data: {text}\n\n".encode())

        h.send_response(200)
        h.send_header("Content-Type", "text/event-stream")
        h.send_header("Cache-Control", "no-cache")
        h.send_header("Connection", "close")  # the body ends when the connection closes
        h.end_headers()
        send(b": keep-alive\n\n")
        event(_chunk(cid, created, model, {"role": "assistant"}, None), delay=False)
        if behaviour == "cut":
            for piece in [*pieces, "..", ".."][:2]:
                event(_chunk(cid, created, model, {"content": piece}, None))
            return  # closed without a finish chunk or [DONE]
        if behaviour == "garbage":
            send(b"data: {not json\n\n")
            event("[DONE]")
            return
        if behaviour == "endless":
            deadline = time.monotonic() + HANG_SECONDS
            while not release.wait(ENDLESS_INTERVAL) and time.monotonic() < deadline:
                event(_chunk(cid, created, model, {"content": "x"}, None), delay=False)
        else:
            for piece in pieces:
                event(_chunk(cid, created, model, {"content": piece}, None))
            for index, call in enumerate(calls):
                for delta in _tool_call_deltas(index, call):
                    event(_chunk(cid, created, model, {"tool_calls": [delta]}, None))
        event(_chunk(cid, created, model, {}, finish_reason))
        if include_usage:
            event(
                {
                    "id": cid,
                    "object": "chat.completion.chunk",
                    "created": created,
                    "model": model,
                    "choices": [],
                    "usage": usage,
                }
            )
        event("[DONE]")

    return 200, RawReply(write)


def _tool_call_deltas(index: int, call: dict[str, Any]) -> list[dict[str, Any]]:
    """One call as OpenAI streams it: id, type and name with empty arguments first, then the
    arguments in pieces, each delta naming the call by its index only."""
    function = call["function"]
    first = {"index": index, "id": call["id"], "type": "function",
             "function": {"name": function["name"], "arguments": ""}}  # fmt: skip
    text = function["arguments"]
    size = CHUNK_CHARS * 4
    rest = [
        {"index": index, "function": {"arguments": text[i : i + size]}}
        for i in range(0, len(text), size)
    ]
    return [first, *rest]


# --- rerank -------------------------------------------------------------------------------------


def rerank_handler(server: OpenAIServer, body: dict[str, Any]) -> tuple[int, Any]:
    query = body.get("query")
    raw_docs = body.get("documents")
    if not isinstance(query, str) or not isinstance(raw_docs, list):
        return 400, {"error": {"message": "query must be a string and documents a list"}}
    documents: list[str] = []
    for doc in raw_docs:  # strings, or {"text": ...} objects as Cohere and Jina also accept
        text = doc.get("text") if isinstance(doc, dict) else doc
        if not isinstance(text, str):
            return 400, {"error": {"message": "each document must be a string"}}
        documents.append(text)
    top_n = body.get("top_n")
    if top_n is not None and (not isinstance(top_n, int) or top_n < 1):
        return 400, {"error": {"message": "top_n must be a positive integer"}}
    behaviour = server.rerank_behaviour
    if behaviour not in RERANK_BEHAVIOURS:
        return 400, {"error": {"message": f"test peer: unknown rerank_behaviour {behaviour!r}"}}
    if behaviour == "hang":
        server.release.wait(HANG_SECONDS)
        behaviour = "ok"
    if behaviour == "error500":
        return 500, {"error": {"message": "reranker failed to load", "type": "server_error"}}
    if behaviour == "malformed":
        return 200, {"data": []}
    scripted = server.rerank_scores
    if scripted is not None and len(scripted) < len(documents):
        return 400, {"error": {"message": "test peer: fewer rerank_scores than documents"}}
    scores = [
        float(scripted[i]) if scripted is not None else rerank_score(query, doc)
        for i, doc in enumerate(documents)
    ]
    order = sorted(range(len(documents)), key=lambda i: (-scores[i], i))
    if top_n is not None:
        order = order[:top_n]
    results: list[dict[str, Any]] = []
    for i in order:
        result: dict[str, Any] = {"index": i, "relevance_score": scores[i]}
        if body.get("return_documents"):
            result["document"] = {"text": documents[i]}
        results.append(result)
    if behaviour == "gap":
        results = [r for r in results if r["index"] != 0]
    elif behaviour == "duplicate" and results:
        if len(results) >= 2:
            results[-1] = {**results[-1], "index": results[0]["index"]}
        else:
            results.append(dict(results[0]))
    elif behaviour == "outofrange" and results:
        results[-1] = {**results[-1], "index": len(documents)}
    tokens = count_words(query) * len(documents) + sum(count_words(d) for d in documents)
    return 200, {
        "id": f"rerank-{uuid.uuid4().hex[:12]}",
        "model": body.get("model"),
        "results": results,
        "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
    }


# --- GET ----------------------------------------------------------------------------------------


def models_handler(server: OpenAIServer, body: dict[str, Any]) -> tuple[int, Any]:
    return 200, {"object": "list", "data": [{"id": "test-model", "object": "model"}]}


def health_handler(server: OpenAIServer, body: dict[str, Any]) -> tuple[int, Any]:
    return 200, {"status": "ok"}


def _make_handler(server: OpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(length)
            try:
                body = json.loads(raw) if raw else {}
            except json.JSONDecodeError:
                self._reply(400, {"error": {"message": "body is not JSON"}})
                return
            server.requests.append(RecordedRequest(self.path, dict(self.headers), body))
            route = server.routes.get(self.path)
            if route is None:
                self._reply(404, {"error": {"message": f"no route {self.path}"}})
                return
            self._answer(route, body)

        def do_GET(self) -> None:
            server.requests.append(RecordedRequest(self.path, dict(self.headers), None))
            route = server.get_routes.get(urlsplit(self.path).path)
            if route is None:
                self._reply(404, {"error": {"message": f"no route {self.path}"}})
                return
            self._answer(route, {})

        def _answer(self, route: Handler, body: dict[str, Any]) -> None:
            status, reply = route(server, body)
            try:
                if isinstance(reply, RawReply):
                    self.close_connection = True
                    reply.write(self)
                else:
                    self._reply(status, reply)
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True
                with server._lock:
                    server.disconnects += 1

        def _reply(self, status: int, body: Any) -> None:
            # json.dumps writes NaN as a bare token, as some real servers do.
            payload = json.dumps(body).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def log_message(self, format: str, *args: Any) -> None:
            pass  # keep test output quiet

    return Handler
