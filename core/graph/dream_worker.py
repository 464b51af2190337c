"""Dream in the background: ``dream.concurrency`` threads, each running cycles back to back while
blocks are due, waiting ``dream.idle_wait_s`` when none is (or no backend serves the role), and
pausing after each model call while ``dream.throttle`` is ``throttled``. ``off`` stops cycles
without stopping the threads, so turning it back on needs no restart.
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING

from ctx.core.graph.dream_cycle import run_cycle

if TYPE_CHECKING:
    from ctx.core.app import App

log = logging.getLogger("ctx.dream")


class DreamWorker:
    def __init__(self, app: App, threads: int | None = None) -> None:
        self.app = app
        self.threads = int(app.settings["dream.concurrency"]) if threads is None else threads
        self._stop = threading.Event()
        self._running: list[threading.Thread] = []

    def start(self) -> None:
        for n in range(self.threads):
            t = threading.Thread(target=self.run_forever, name=f"ctx-dream-{n}", daemon=True)
            t.start()
            self._running.append(t)

    def stop(self) -> None:
        self._stop.set()
        for t in self._running:
            t.join(timeout=30)
        self._running.clear()

    def _pause(self) -> None:
        self._stop.wait(float(self.app.settings["dream.throttle_pause_s"]))

    def step(self) -> bool:
        """One cycle if Dream is on; True when it did work (so the next may follow at once)."""
        if self.app.settings["dream.throttle"] == "off":
            return False
        try:
            result = run_cycle(self.app, pause=self._pause)
        except Exception:
            log.exception("dream cycle crashed outside its block")
            return False
        return result is not None and result.outcome != "skipped"

    def run_forever(self) -> None:
        while not self._stop.is_set():
            if not self.step():
                self._stop.wait(float(self.app.settings["dream.idle_wait_s"]))
