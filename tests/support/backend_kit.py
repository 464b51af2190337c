"""Backends rows for tests: one call makes a loopback peer a backend of the pool."""

from __future__ import annotations

from typing import Any

from ctx.core import App, llm


def add_backend(
    app: App,
    srv: Any,
    roles: list[str],
    *,
    name: str = "peer",
    model_map: dict[str, Any] | None = None,
    trust: str = "full-trust",
    **fields: Any,
) -> None:
    """An ``openai`` backend at ``srv`` for ``roles`` (model ``test-model`` unless a map is
    given), the pool's cache dropped so the next call sees it."""
    data = {
        "kind": "openai",
        "base_url": srv.base_url,
        "roles": roles,
        "model_map": model_map or {"default": "test-model"},
        "trust": trust,
        **fields,
    }
    with app.connection() as conn:
        llm.create_backend(conn, app.backend_kinds, name, data)
    app.backends.invalidate()
