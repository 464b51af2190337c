"""``ctx mcp serve --stdio`` in front of a running ctxd: a relay, not a server.

MCP over stdio is one JSON-RPC message per line; ctxd serves the same messages at ``/mcp``
(streamable HTTP, stateless, JSON answers). So the bridge posts each line it reads to ``/mcp``
with the key and writes the answer back as one line: the tools, their schemas and their answers
are ctxd's, and the bridge imports httpx and nothing of the MCP server stack, the web framework
or the database. Requests are relayed side by side (a long tool call does not hold up a ping);
an answer that cannot be had (ctxd gone, a 5xx) is a JSON-RPC error for that request id, never
a silent drop.

With no ctxd at the configured address the command opens the local store instead
(``ctx.ui.mcp.stdio``, loaded only then); a ``CTX_URL`` that does not answer is an error, since
it names a server.
"""

from __future__ import annotations

import json
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import IO, Any

import httpx

from ctx.core.client import configured_url
from ctx.core.errors import CtxError

NO_KEY = "no API key: set CTX_API_KEY (create one with `ctx keys create`)"
ACCEPT = "application/json, text/event-stream"
#: JSON-RPC's code for an error of the server behind the bridge
UPSTREAM_ERROR = -32603
WORKERS = 8


def say(message: str) -> None:
    sys.stderr.write(f"ctx mcp: {message}\n")
    sys.stderr.flush()


def server_answers(url: str) -> bool:
    try:
        return httpx.get(url + "/health", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def serve_stdio() -> None:
    """Serve MCP on stdin/stdout until the client closes stdin."""
    key = os.environ.get("CTX_API_KEY", "").strip()
    if not key:
        raise CtxError(NO_KEY)
    explicit = os.environ.get("CTX_URL", "").strip()
    url = (explicit or configured_url()).rstrip("/")
    if server_answers(url):
        check_key(url, key)
        say(f"forwarding to the ctx server at {url}")
        Relay(url, key).run(sys.stdin.buffer, sys.stdout.buffer)
    elif explicit:  # the user named a server: a local store instead would surprise them
        raise CtxError(f"cannot reach the ctx server at {url} (CTX_URL); start it or unset CTX_URL")
    else:
        from ctx.ui.mcp.stdio import serve_locally  # the whole store, only without a server

        serve_locally(key, url)


def check_key(url: str, key: str) -> None:
    """Refuse at once, in one line, a key the server does not know."""
    try:
        answer = httpx.get(url + "/api/whoami", headers={"X-Context-Key": key}, timeout=5)
    except httpx.HTTPError as exc:
        raise CtxError(f"cannot reach the ctx server at {url} ({exc.__class__.__name__})") from None
    if answer.status_code == 401:
        raise CtxError(f"the ctx server at {url} refused the key (check CTX_API_KEY)")


class Relay:
    """Lines of JSON-RPC from a client, posted to ``{url}/mcp``; answers written back in whole
    lines (one writer at a time)."""

    def __init__(self, url: str, key: str, timeout: float = 600) -> None:
        self.endpoint = url + "/mcp"
        self.headers = {"X-Context-Key": key, "Accept": ACCEPT}
        self.http = httpx.Client(timeout=httpx.Timeout(timeout, connect=10))
        self.version: str | None = None
        self.lock = threading.Lock()

    def run(self, source: IO[bytes], sink: IO[bytes]) -> None:
        with ThreadPoolExecutor(WORKERS, thread_name_prefix="mcp-relay") as pool:
            for line in source:
                if line.strip():
                    pool.submit(self.relay, line, sink)
        self.http.close()

    def relay(self, line: bytes, sink: IO[bytes]) -> None:
        message = _parsed(line)
        try:
            answer = self.post(line)
        except httpx.HTTPError as exc:
            answer = _failure(message, f"lost the ctx server ({exc.__class__.__name__})")
        for out in answer:
            self.remember_version(out)
            self.write(sink, out)

    def post(self, line: bytes) -> list[Any]:
        headers = dict(self.headers, **{"Content-Type": "application/json"})
        if self.version:
            headers["MCP-Protocol-Version"] = self.version
        response = self.http.post(self.endpoint, content=line, headers=headers)
        if response.status_code == 202 or not response.content:
            return []
        if response.headers.get("content-type", "").startswith("text/event-stream"):
            return [json.loads(d) for d in _event_data(response.text)]
        body = response.json()
        if response.status_code >= 400 and not _is_jsonrpc(body):
            text = body.get("message") if isinstance(body, dict) else None
            return _failure(_parsed(line), str(text or f"HTTP {response.status_code}"))
        return body if isinstance(body, list) else [body]

    def remember_version(self, message: Any) -> None:
        """The protocol version the initialize answer settled, sent with every later post."""
        result = message.get("result") if isinstance(message, dict) else None
        if isinstance(result, dict) and isinstance(result.get("protocolVersion"), str):
            self.version = result["protocolVersion"]

    def write(self, sink: IO[bytes], message: Any) -> None:
        data = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"
        with self.lock:
            sink.write(data)
            sink.flush()


def _parsed(line: bytes) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return None


def _is_jsonrpc(body: Any) -> bool:
    items = body if isinstance(body, list) else [body]
    return all(isinstance(i, dict) and i.get("jsonrpc") == "2.0" for i in items)


def _failure(message: Any, text: str) -> list[Any]:
    """A JSON-RPC error answering each request in ``message`` (notifications need none)."""
    items = message if isinstance(message, list) else [message]
    return [
        {"jsonrpc": "2.0", "id": m["id"], "error": {"code": UPSTREAM_ERROR, "message": text}}
        for m in items
        if isinstance(m, dict) and "id" in m and "method" in m
    ]


def _event_data(text: str) -> list[str]:
    """The data of each server-sent event (ctxd answers JSON, but the spec allows a stream)."""
    out: list[str] = []
    data: list[str] = []
    for line in text.splitlines():
        if not line:
            if data:
                out.append("\n".join(data))
            data = []
        elif line.startswith("data:"):
            data.append(line[5:].lstrip())
    if data:
        out.append("\n".join(data))
    return out
