"""Background workers: claim jobs of every registered kind, woken by NOTIFY with a ticker fallback.

Any number of workers (threads in ``ctxd``, or ``ctx worker`` processes) can share one database:
jobs are claimed with ``FOR UPDATE SKIP LOCKED``, so each is done once. The worker knows no kind by
name: it runs whatever ``JobHandler``s the plugins registered. A handler's ``sweep`` (work that no
job asks for yet) runs every ``sweep_every`` seconds and at once after the listener reconnected
(``notify("reconnect")``: notifications may have been missed meanwhile).

A worker runs ``jobs.worker_loops`` loops (threads), each claiming and running batches on its own:
while one loop's batch is in a model (which uses every core it is given), another writes its
vectors, claims the next batch and runs the kinds that only talk to the database, so the cores
do not wait for the database between batches (bench/embed_cores.py).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING

from ctx.core.errors import CtxError
from ctx.core.runtime.jobs import JobHandler, run_kind

if TYPE_CHECKING:
    from ctx.core.app import App

log = logging.getLogger("ctx.worker")


class Worker:
    def __init__(
        self,
        app: App,
        handlers: Mapping[str, JobHandler] | None = None,
        tick: float = 5.0,
        loops: int | None = None,
    ) -> None:
        self.app = app
        self.handlers = dict(handlers if handlers is not None else app.job_handlers)
        self.tick = tick
        self.loops = int(app.settings["jobs.worker_loops"]) if loops is None else loops
        self._wakes = [threading.Event() for _ in range(self.loops)]
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._swept: dict[str, float] = {}  # kind -> monotonic time of its last sweep
        self._sweeping = threading.Lock()  # one loop sweeps; the others go on with jobs

    def notify(self, payload: str = "") -> None:
        if payload == "reconnect":
            self._swept.clear()  # a backlog pass: every sweep is due now
        for wake in self._wakes:
            wake.set()

    def sweep(self, force: bool = False) -> int:
        """Run the sweeps that are due (all with ``force``); return the jobs they queued. A loop
        that finds another one sweeping skips it."""
        if not self._sweeping.acquire(blocking=False):
            return 0
        try:
            return self._sweep(force)
        finally:
            self._sweeping.release()

    def _sweep(self, force: bool) -> int:
        queued = 0
        now = time.monotonic()
        for kind, handler in self.handlers.items():
            if handler.sweep is None or self._stop.is_set():
                continue
            last = self._swept.get(kind)
            if not force and last is not None and now - last < handler.sweep_every:
                continue
            self._swept[kind] = now
            try:
                queued += handler.sweep(self.app)
            except CtxError as exc:
                log.warning("%s sweep failed: %s", kind, exc.message)
            except Exception:
                log.exception("%s sweep crashed", kind)
        return queued

    def start(self) -> None:
        """Run every loop in a thread of its own."""
        self._spawn(range(self.loops))

    def _spawn(self, loops: range) -> None:
        for i in loops:
            thread = threading.Thread(
                target=self._loop, args=(self._wakes[i],), name=f"ctx-worker-{i}", daemon=True
            )
            self._threads.append(thread)
            thread.start()

    def stop(self, wait: bool = True) -> None:
        """Ask every loop to stop after the batch in hand and, with ``wait``, wait for them (a
        signal handler must not: the loop it interrupted may hold what the others wait for)."""
        self._stop.set()
        for wake in self._wakes:
            wake.set()
        for thread in self._threads if wait else ():
            if thread is not threading.current_thread():
                thread.join(timeout=30)

    def run_once(self) -> int:
        """Run one batch of every kind; return the number of jobs done."""
        total = 0
        self.sweep()
        for kind, handler in self.handlers.items():
            if self._stop.is_set():
                break
            try:
                total += run_kind(self.app, handler)
            except CtxError as exc:
                log.warning("%s jobs failed: %s", kind, exc.message)
            except Exception:
                log.exception("%s jobs crashed", kind)
        return total

    def run_forever(self) -> None:
        """Run the loops until ``stop``: the first in the calling thread (``ctx worker``), the
        others in threads of their own."""
        self._spawn(range(1, self.loops))
        try:
            self._loop(self._wakes[0])
        finally:
            self.stop()

    def _loop(self, wake: threading.Event) -> None:
        while not self._stop.is_set():
            wake.clear()
            did = self.run_once()
            if did:
                continue  # more may be waiting
            wake.wait(self.tick)
