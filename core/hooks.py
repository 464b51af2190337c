"""Calling hooks whose implementations may return a value, a callable or an awaitable."""

from __future__ import annotations

import asyncio
import inspect
import logging
from typing import Any

log = logging.getLogger("ctx.hooks")


def resolve(result: Any) -> Any:
    """Turn a hook result into a plain value: call callables, run awaitables to completion."""
    if callable(result) and not isinstance(result, type):
        result = result()
    if inspect.isawaitable(result):
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(_await(result))
        raise RuntimeError("resolve() called inside a running event loop; await the result")
    return result


async def _await(awaitable: Any) -> Any:
    return await awaitable


def call_each(hook: Any, *, swallow: bool = False, **kwargs: Any) -> list[Any]:
    """Call every implementation of ``hook`` and resolve each result.

    With ``swallow`` an implementation's exception is logged and the others still run: event
    hooks must never undo work that has already been committed.
    """
    out = []
    for impl in hook.get_hookimpls():
        args = {name: kwargs[name] for name in impl.argnames if name in kwargs}
        try:
            out.append(resolve(impl.function(**args)))
        except Exception:
            if not swallow:
                raise
            log.exception("plugin %s failed in %s", impl.plugin_name, hook.name)
    return out
