"""The HTTP client of a running ctxd: how the thin surfaces (the CLI's data commands, the agent
hooks, the stdio MCP bridge) and plugins' commands reach the server at ``CTX_URL``, or this
machine's ctxd (``server.host``/``server.port`` from their defaults and the environment).

It imports httpx and nothing of the server: a command that talks to ctxd loads no database,
model or web-framework code.
"""

from __future__ import annotations

import json
import os
import weakref
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import quote

import httpx

from ctx.core.errors import CtxError

if TYPE_CHECKING:
    from ctx.core.app import App
    from ctx.core.operations import Operation


class HasSettings(Protocol):
    """Anything with ``settings`` (an App, or the hooks' light stand-in)."""

    @property
    def settings(self) -> Any: ...


def server_url(app: App | HasSettings) -> str:
    """Where ctxd listens by ``app``'s settings (server.host, server.port)."""
    return f"http://{app.settings['server.host']}:{app.settings['server.port']}"


def configured_url(environ: Mapping[str, str] | None = None) -> str:
    """Where this machine's ctxd listens, by the defaults and the environment of its settings
    (``CTX_SERVER_HOST``, ``CTX_SERVER_PORT``); the database is not read."""
    from ctx.core.runtime import RUNTIME_SETTINGS, Registry, Settings

    registry = Registry()
    for setting in RUNTIME_SETTINGS:
        if setting.key in ("server.host", "server.port"):
            registry.add(setting)
    return server_url(
        _Configured(Settings(registry, dict(os.environ if environ is None else environ)))
    )


@dataclass(frozen=True)
class _Configured:
    settings: Any


class ClientError(CtxError):
    pass


# Nothing accepted the connection: the one wording for every call and stream of the client.
UNREACHABLE = (httpx.ConnectError, httpx.ConnectTimeout)


def unreachable(url: str) -> ClientError:
    """What a command says when no ctxd accepts the connection at ``url``."""
    return ClientError(f"cannot reach ctx at {url}: start it with ctx serve or set CTX_URL")


class Client:
    def __init__(self, url: str | None = None, key: str | None = None, timeout: float = 60) -> None:
        self.url = (url or os.environ.get("CTX_URL") or configured_url()).rstrip("/")
        self.key = key or os.environ.get("CTX_API_KEY")
        self.timeout = timeout
        self._pool: httpx.Client | None = None

    @property
    def http(self) -> httpx.Client:
        """One connection pool for every call of this client: a command that sends many requests
        (ingest, import) reuses its connection instead of building a client (and its TLS
        context, ~30 ms) per request."""
        if self._pool is None:
            self._pool = httpx.Client()
            weakref.finalize(self, self._pool.close)
        return self._pool

    def call(self, op: Operation, values: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Call operation ``op`` through its REST route: its path parameters from ``values``, the
        other values as the query string (GET, DELETE) or the JSON body."""
        path, rest = route_of(op, values)
        if op.rest is not None and op.rest.reads_query:
            return self.request(op.rest.method, path, None, params=rest)
        assert op.rest is not None
        return self.request(op.rest.method, path, rest)

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        return self.request("POST", path, body)

    def get(self, path: str) -> dict[str, Any]:
        return self.request("GET", path, None)

    def health(self) -> dict[str, Any]:
        """``/health`` without a key (``ctx.core.runtime.HEALTH``): ``{"status"}``, ``ok``,
        ``warming`` or ``unavailable`` (its 503); a ClientError when nothing answers. The path is written out:
        the hooks ask it, and the declaration would load its request models."""
        try:
            response = httpx.get(self.url + "/health", timeout=min(self.timeout, 10))
            body = response.json()
        except UNREACHABLE:
            raise unreachable(self.url) from None
        except (httpx.HTTPError, ValueError) as exc:
            raise ClientError(
                f"no ctx server at {self.url} ({exc.__class__.__name__}); start it with "
                "`ctx serve` or set CTX_URL"
            ) from exc
        return dict(body)

    def events(
        self, target: str | Operation, body: dict[str, Any]
    ) -> Iterator[tuple[str, dict[str, Any]]]:
        """POST ``body`` (to a path, or an operation's route) and yield the server-sent events of
        the answer as ``(event, data)``."""
        path = _path_of(target)
        if not self.key:
            raise ClientError("no API key: set CTX_API_KEY (create one with `ctx keys create`)")
        timeout = httpx.Timeout(self.timeout, connect=min(self.timeout, 10))
        try:
            with self.http.stream(
                "POST", self.url + path, json=body, timeout=timeout,
                headers={"X-Context-Key": self.key, "Accept": "text/event-stream"},
            ) as response:  # fmt: skip
                if response.status_code >= 400:
                    response.read()
                    self._raise_for(response)
                name, data = "message", list[str]()
                for line in response.iter_lines():
                    if not line:
                        if data:
                            yield name, _json_event("\n".join(data))
                        name, data = "message", []
                    elif line.startswith("event:"):
                        name = line[6:].strip()
                    elif line.startswith("data:"):
                        data.append(line[5:].lstrip())
        except UNREACHABLE:
            raise unreachable(self.url) from None
        except httpx.HTTPError as exc:
            raise ClientError(
                f"lost the answer stream from {self.url} ({exc.__class__.__name__}); "
                "is the server still running?"
            ) from exc

    def lines(self, target: str | Operation, params: dict[str, Any] | None = None) -> Iterator[str]:
        """GET ``target`` (a path, or an operation's route) and yield the lines of the answer as
        they arrive (JSON lines)."""
        path = _path_of(target)
        if not self.key:
            raise ClientError("no API key: set CTX_API_KEY (create one with `ctx keys create`)")
        timeout = httpx.Timeout(self.timeout, connect=min(self.timeout, 10))
        try:
            with self.http.stream(
                "GET", self.url + path, params=params, timeout=timeout,
                headers={"X-Context-Key": self.key},
            ) as response:  # fmt: skip
                if response.status_code >= 400:
                    response.read()
                    self._raise_for(response)
                for line in response.iter_lines():
                    if line:
                        yield line
        except UNREACHABLE:
            raise unreachable(self.url) from None
        except httpx.HTTPError as exc:
            raise ClientError(
                f"lost the answer stream from {self.url} ({exc.__class__.__name__}); "
                "is the server still running?"
            ) from exc

    def post_stream(self, target: str | Operation, content: Iterator[bytes]) -> dict[str, Any]:
        """POST a JSON body produced piece by piece (a file encoded as it is read) to a path, or
        an operation's route."""
        path = _path_of(target)
        if not self.key:
            raise ClientError("no API key: set CTX_API_KEY (create one with `ctx keys create`)")
        try:
            response = self.http.post(
                self.url + path, content=content, timeout=self.timeout,
                headers={"X-Context-Key": self.key, "content-type": "application/json"},
            )  # fmt: skip
        except UNREACHABLE:
            raise unreachable(self.url) from None
        except httpx.HTTPError as exc:
            raise ClientError(
                f"no answer from ctx at {self.url} ({exc.__class__.__name__}); "
                "is the server still running?"
            ) from exc
        if response.status_code >= 400:
            self._raise_for(response)
        return dict(response.json())

    def download(
        self, target: str | Operation, sink: Any, values: Mapping[str, Any] | None = None
    ) -> dict[str, str]:
        """GET ``target`` (a path, or an operation's route with its path parameters from
        ``values``) and write the bytes to ``sink`` as they arrive; the answer's headers."""
        path = _path_of(target, values)
        if not self.key:
            raise ClientError("no API key: set CTX_API_KEY (create one with `ctx keys create`)")
        try:
            with self.http.stream(
                "GET", self.url + path, timeout=self.timeout, headers={"X-Context-Key": self.key}
            ) as response:
                if response.status_code >= 400:
                    response.read()
                    self._raise_for(response)
                for piece in response.iter_bytes():
                    sink.write(piece)
                return dict(response.headers)
        except UNREACHABLE:
            raise unreachable(self.url) from None
        except httpx.HTTPError as exc:
            raise ClientError(
                f"lost the download from {self.url} ({exc.__class__.__name__})"
            ) from exc

    def _raise_for(self, response: httpx.Response) -> None:
        try:
            data = response.json()
        except ValueError:
            data = {"message": response.text[:200]}
        message = data.get("message") or f"HTTP {response.status_code}"
        if response.status_code == 401:
            message += " (check CTX_API_KEY)"
        raise ClientError(message)

    def request(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | None,
        params: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """One call with the key; ``params`` without the ``None`` values; errors as one line."""
        if not self.key:
            raise ClientError("no API key: set CTX_API_KEY (create one with `ctx keys create`)")
        try:
            response = self.http.request(
                method,
                self.url + path,
                json=body,
                params={k: v for k, v in (params or {}).items() if v is not None},
                timeout=self.timeout,
                headers={"X-Context-Key": self.key},
            )
        except UNREACHABLE:
            raise unreachable(self.url) from None
        except httpx.HTTPError as exc:
            raise ClientError(
                f"no answer from ctx at {self.url} ({exc.__class__.__name__}); "
                "is the server still running?"
            ) from exc
        if response.status_code >= 400:
            self._raise_for(response)
        try:
            data = response.json()
        except ValueError:
            data = {"message": response.text[:200]}
        return dict(data)


def route_of(op: Operation, values: Mapping[str, Any] | None) -> tuple[str, dict[str, Any]]:
    """The path of ``op``'s route with its parameters filled in from ``values``, and the values
    left for the query string or the body."""
    if op.rest is None:
        raise ClientError(f"operation {op.name} is not offered over HTTP")
    rest = dict(values or {})
    path = op.rest.path
    for name in op.rest.path_params:
        path = path.replace("{" + name + "}", quote(str(rest.pop(name)), safe=""))
    return path, rest


def _path_of(target: str | Operation, values: Mapping[str, Any] | None = None) -> str:
    """A path as it is, or the path of an operation's route with its parameters filled in."""
    return target if isinstance(target, str) else route_of(target, values)[0]


def _json_event(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError:
        raise ClientError(f"the server sent an event that is not JSON: {text[:80]!r}") from None
    return value if isinstance(value, dict) else {"value": value}
