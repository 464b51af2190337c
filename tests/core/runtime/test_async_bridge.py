"""The sync/async boundary: plugin coroutines run on one loop per App; async code calls the core
on worker threads."""

from __future__ import annotations

import asyncio
import threading

import pytest

from ctx.core.runtime import AsyncBridge


@pytest.fixture
def bridge() -> AsyncBridge:
    b = AsyncBridge(threads=2)
    yield b  # type: ignore[misc]
    b.close()


def test_values_and_callables_resolve_without_a_loop(bridge: AsyncBridge) -> None:
    assert bridge.resolve(3) == 3
    assert bridge.resolve(lambda: "called") == "called"
    assert bridge.resolve(int) is int  # a class is a value, not something to call
    assert bridge._thread is None  # no loop was started for that


def test_awaitables_run_on_one_long_lived_loop(bridge: AsyncBridge) -> None:
    async def where() -> tuple[int, str]:
        await asyncio.sleep(0)
        return id(asyncio.get_running_loop()), threading.current_thread().name

    first = bridge.resolve(where())
    second = bridge.resolve(where)  # a coroutine function is a callable: called, then awaited
    assert first == second  # the same loop and thread, so async clients can be reused
    assert first[1] == "ctx-async"


def test_resolving_inside_an_event_loop_is_refused(bridge: AsyncBridge) -> None:
    async def value() -> int:
        return 1

    async def caller() -> None:
        with pytest.raises(RuntimeError, match="run_sync"):
            bridge.resolve(value())

    asyncio.run(caller())


def test_run_sync_keeps_the_loop_free_and_bounds_the_threads(bridge: AsyncBridge) -> None:
    running, peak = 0, 0
    lock = threading.Lock()
    release = threading.Event()

    def blocking_core_call(n: int) -> int:
        nonlocal running, peak
        with lock:
            running += 1
            peak = max(peak, running)
        release.wait(5)
        with lock:
            running -= 1
        return n * 2

    async def main() -> list[int]:
        calls = [asyncio.create_task(bridge.run_sync(blocking_core_call, n)) for n in range(5)]
        # The loop is not blocked while the core works: this tick runs.
        await asyncio.sleep(0.05)
        release.set()
        return list(await asyncio.gather(*calls))

    assert asyncio.run(main()) == [0, 2, 4, 6, 8]
    assert peak == 2  # at most `threads` core calls at a time


def test_close_stops_the_loop_thread_and_a_later_call_starts_a_new_one(
    bridge: AsyncBridge,
) -> None:
    async def name() -> str:
        return threading.current_thread().name

    assert bridge.resolve(name()) == "ctx-async"
    thread = bridge._thread
    bridge.close()
    assert thread is not None and not thread.is_alive()
    assert bridge.resolve(name()) == "ctx-async"
