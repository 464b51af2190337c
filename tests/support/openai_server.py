"""A real OpenAI-compatible HTTP server on loopback, for tests of clients that speak that format.

Runs ``http.server.ThreadingHTTPServer`` on 127.0.0.1 in a background thread. It records every
request and answers ``POST /v1/embeddings`` with deterministic vectors (derived from a hash of each
input text, so the same text always gets the same vector). ``behaviour`` switches it into failure
modes a client must survive. More endpoints (``/v1/chat/completions``) can be added by putting a
handler into ``routes``: ``handler(server, body) -> (status, json_body)``.

This file is loaded by path (tests run with ``--import-mode=importlib`` and ``tests/`` is not a
package)::

    spec = importlib.util.spec_from_file_location("openai_server", path)
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

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


def hash_vector(text: str, dimensions: int) -> np.ndarray:
    """A deterministic pseudo-random vector for ``text``, scaled away from unit length."""
    seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")
    return np.random.default_rng(seed).standard_normal(dimensions) * 3.0


@dataclass
class RecordedRequest:
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class OpenAIServer:
    native_dimensions: int = 64
    behaviour: str = "ok"
    requests: list[RecordedRequest] = field(default_factory=list)
    routes: dict[str, Handler] = field(default_factory=dict)
    release: threading.Event = field(default_factory=threading.Event)
    _httpd: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None

    def __post_init__(self) -> None:
        self.routes.setdefault("/v1/embeddings", embeddings_handler)

    @property
    def base_url(self) -> str:
        assert self._httpd is not None, "server not started"
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> OpenAIServer:
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.release.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def reset(self, behaviour: str = "ok") -> None:
        assert behaviour in BEHAVIOURS, behaviour
        self.release.set()  # let any hanging request finish
        self.release = threading.Event()
        self.behaviour = behaviour
        self.requests.clear()

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
            status, reply = route(server, body)
            self._reply(status, reply)

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
