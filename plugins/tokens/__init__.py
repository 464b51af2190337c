"""(interim, being replaced) Token counters: a crude byte bound."""

from __future__ import annotations

from collections.abc import Callable

from ctx.core import TokenCounter, hookimpl


def _bytes(text: str) -> int:
    return len(text.encode("utf-8"))


@hookimpl
def register_token_counters(register: Callable[[TokenCounter], None]) -> None:
    register(TokenCounter("estimate", _bytes, exact=False))
