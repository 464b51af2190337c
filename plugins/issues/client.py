"""The CLI's HTTP client: the issue commands talk to a running ctxd at ``CTX_URL`` with
``CTX_API_KEY``, as the core's data commands do."""

from __future__ import annotations

import os
from typing import Any

import httpx

from ctx.core import CtxError


class ServerError(CtxError):
    """What the server (or the way to it) refused: printed as one line, exit 2."""


def base_url(settings: Any) -> str:
    url = os.environ.get("CTX_URL")
    if url:
        return url.rstrip("/")
    if settings is None:
        raise ServerError("no server address: set CTX_URL")
    return f"http://{settings['server.host']}:{settings['server.port']}"


def call(
    url: str,
    method: str,
    path: str,
    body: dict[str, Any] | None = None,
    params: dict[str, Any] | None = None,
) -> dict[str, Any]:
    key = os.environ.get("CTX_API_KEY")
    if not key:
        raise ServerError("no API key: set CTX_API_KEY (create one with `ctx keys create`)")
    try:
        response = httpx.request(
            method,
            url + path,
            json=body,
            params={k: v for k, v in (params or {}).items() if v is not None},
            headers={"X-Context-Key": key},
            timeout=60,
        )
    except httpx.HTTPError as exc:
        raise ServerError(
            f"cannot reach ctx at {url} ({exc.__class__.__name__}); start it with `ctx serve` "
            "or set CTX_URL"
        ) from exc
    try:
        data = response.json()
    except ValueError:
        data = {"message": response.text[:200]}
    if response.status_code >= 400:
        message = data.get("message") if isinstance(data, dict) else None
        raise ServerError(message or f"HTTP {response.status_code}")
    return dict(data)
