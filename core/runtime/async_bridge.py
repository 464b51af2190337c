"""Where synchronous and asynchronous code meet, decided once.

The core is synchronous: psycopg's pooled connections, blocking model calls, plain functions that
every surface calls. The async surfaces (MCP, streaming responses, the gateway) sit on an event
loop; they call into the core with ``await bridge.run_sync(func, ...)``, which runs ``func`` on a
worker thread, at most ``threads`` at a time, so the loop never blocks on a query.

The other direction: a plugin hook may return an awaitable. ``resolve`` runs it to completion on
the bridge's own event loop, one long-lived thread per ``App``, so a plugin's async clients can be
reused across calls. ``resolve`` refuses to run inside an event loop thread, where waiting would
block (or deadlock) that loop: async code must call the core through ``run_sync``.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import anyio
import anyio.to_thread

T = TypeVar("T")
DEFAULT_THREADS = 16


class AsyncBridge:
    def __init__(self, threads: int = DEFAULT_THREADS) -> None:
        self.threads = threads
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._limiters: dict[int, anyio.CapacityLimiter] = {}

    # -- sync code waiting for a coroutine -------------------------------------------------------

    def resolve(self, result: Any) -> Any:
        """Turn a hook result into a plain value: call callables, run awaitables to completion."""
        if callable(result) and not isinstance(result, type):
            result = result()
        if inspect.isawaitable(result):
            return self.run(result)
        return result

    def run(self, awaitable: Awaitable[T], timeout: float | None = None) -> T:
        """Run ``awaitable`` on the bridge's loop and wait for its result (from sync code only)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            pass
        else:
            if inspect.iscoroutine(awaitable):
                awaitable.close()  # never awaited: close it so Python does not warn
            raise RuntimeError(
                "a hook returned an awaitable while the core was called on an event loop; "
                "async code must call the core through `await app.bridge.run_sync(...)`"
            )
        future = asyncio.run_coroutine_threadsafe(_await(awaitable), self._ensure_loop())
        return future.result(timeout)

    def _ensure_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                ready = threading.Event()

                def serve() -> None:
                    asyncio.set_event_loop(loop)
                    loop.call_soon(ready.set)
                    loop.run_forever()

                self._thread = threading.Thread(target=serve, name="ctx-async", daemon=True)
                self._thread.start()
                ready.wait()
                self._loop = loop
            return self._loop

    # -- async code calling the sync core --------------------------------------------------------

    async def run_sync(self, func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a core function on a worker thread without blocking the caller's event loop."""
        loop_id = id(asyncio.get_running_loop())
        limiter = self._limiters.get(loop_id)
        if limiter is None:
            limiter = self._limiters[loop_id] = anyio.CapacityLimiter(self.threads)
        call = functools.partial(func, *args, **kwargs)
        return await anyio.to_thread.run_sync(call, limiter=limiter)

    # -- lifecycle -------------------------------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        if loop is not None and thread is not None:
            loop.call_soon_threadsafe(loop.stop)
            thread.join(timeout=5)
            loop.close()


async def _await(awaitable: Awaitable[T]) -> T:
    return await awaitable
