"""HTTP client for the data commands: they talk to a running ctxd at ``CTX_URL``."""

from __future__ import annotations

import json
import os
import weakref
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Protocol

import httpx

from ctx.core.errors import CtxError

if TYPE_CHECKING:
    from ctx.core.app import App


class HasSettings(Protocol):
    """Anything with ``settings`` (an App, or the hooks' light stand-in)."""

    @property
    def settings(self) -> Any: ...


def server_url(app: App | HasSettings) -> str:
    """Where ctxd listens by ``app``'s settings (server.host, server.port)."""
    return f"http://{app.settings['server.host']}:{app.settings['server.port']}"


def configured_url() -> str:
    """Where this machine's ctxd listens."""
    from ctx.core.cli.common import current_app

    return server_url(current_app())


class ClientError(CtxError):
    pass


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

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        return self.request("POST", path, body)

    def get(self, path: str) -> dict[str, Any]:
        return self.request("GET", path, None)

    def health(self) -> dict[str, Any]:
        """``/health`` without a key: ``{"status", "version"}``, or a ClientError when down."""
        try:
            response = httpx.get(self.url + "/health", timeout=min(self.timeout, 10))
            body = response.json()
        except (httpx.HTTPError, ValueError) as exc:
            raise ClientError(
                f"no ctx server at {self.url} ({exc.__class__.__name__}); start it with "
                "`ctx serve` or set CTX_URL"
            ) from exc
        return dict(body)

    def events(self, path: str, body: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
        """POST ``body`` and yield the server-sent events of the answer as ``(event, data)``."""
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
        except httpx.HTTPError as exc:
            raise ClientError(
                f"lost the answer stream from {self.url} ({exc.__class__.__name__}); "
                "is the server still running?"
            ) from exc

    def lines(self, path: str, params: dict[str, Any] | None = None) -> Iterator[str]:
        """GET ``path`` and yield the lines of the answer as they arrive (JSON lines)."""
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
        except httpx.HTTPError as exc:
            raise ClientError(
                f"lost the answer stream from {self.url} ({exc.__class__.__name__}); "
                "is the server still running?"
            ) from exc

    def post_stream(self, path: str, content: Iterator[bytes]) -> dict[str, Any]:
        """POST a JSON body produced piece by piece (a file encoded as it is read)."""
        if not self.key:
            raise ClientError("no API key: set CTX_API_KEY (create one with `ctx keys create`)")
        try:
            response = self.http.post(
                self.url + path, content=content, timeout=self.timeout,
                headers={"X-Context-Key": self.key, "content-type": "application/json"},
            )  # fmt: skip
        except httpx.HTTPError as exc:
            raise ClientError(
                f"cannot reach ctx at {self.url} ({exc.__class__.__name__}); "
                "start it with `ctx serve` or set CTX_URL"
            ) from exc
        if response.status_code >= 400:
            self._raise_for(response)
        return dict(response.json())

    def download(self, path: str, sink: Any) -> dict[str, str]:
        """GET ``path`` and write the bytes to ``sink`` as they arrive; the answer's headers."""
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
        except httpx.HTTPError as exc:
            raise ClientError(
                f"cannot reach ctx at {self.url} ({exc.__class__.__name__}); "
                "start it with `ctx serve` or set CTX_URL"
            ) from exc
        if response.status_code >= 400:
            self._raise_for(response)
        try:
            data = response.json()
        except ValueError:
            data = {"message": response.text[:200]}
        return dict(data)


def _json_event(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except ValueError:
        raise ClientError(f"the server sent an event that is not JSON: {text[:80]!r}") from None
    return value if isinstance(value, dict) else {"value": value}
