"""HTTP client for the data commands: they talk to a running ctxd at ``CTX_URL``."""

from __future__ import annotations

import os
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

    def request(self, method: str, path: str, body: dict[str, Any] | None) -> dict[str, Any]:
        if not self.key:
            raise ClientError("no API key: set CTX_API_KEY (create one with `ctx keys create`)")
        try:
            response = httpx.request(
                method,
                self.url + path,
                json=body,
                timeout=self.timeout,
                headers={"X-Context-Key": self.key},
            )
        except httpx.HTTPError as exc:
            raise ClientError(
                f"cannot reach ctx at {self.url} ({exc.__class__.__name__}); "
                "start it with `ctx serve` or set CTX_URL"
            ) from exc
        try:
            data = response.json()
        except ValueError:
            data = {"message": response.text[:200]}
        if response.status_code >= 400:
            message = data.get("message") or f"HTTP {response.status_code}"
            if response.status_code == 401:
                message += " (check CTX_API_KEY)"
            raise ClientError(message)
        return dict(data)
