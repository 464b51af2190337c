"""Background workers: claim jobs of every registered kind, woken by NOTIFY with a ticker fallback.

Any number of workers (threads in ``ctxd``, or ``ctx worker`` processes) can share one database:
jobs are claimed with ``FOR UPDATE SKIP LOCKED``, so each is done once. The worker knows no kind by
name: it runs whatever ``JobHandler``s the plugins registered. A handler's ``sweep`` (work that no
job asks for yet) runs every ``sweep_every`` seconds and at once after the listener reconnected
(``notify("reconnect")``: notifications may have been missed meanwhile).
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
        self, app: App, handlers: Mapping[str, JobHandler] | None = None, tick: float = 5.0
    ) -> None:
        self.app = app
        self.handlers = dict(handlers if handlers is not None else app.job_handlers)
        self.tick = tick
        self.wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._swept: dict[str, float] = {}  # kind -> monotonic time of its last sweep

    def notify(self, payload: str = "") -> None:
        if payload == "reconnect":
            self._swept.clear()  # a backlog pass: every sweep is due now
        self.wake.set()

    def sweep(self, force: bool = False) -> int:
        """Run the sweeps that are due (all with ``force``); return the jobs they queued."""
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
        self._thread = threading.Thread(target=self.run_forever, name="ctx-worker", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self.wake.set()
        if self._thread is not None:
            self._thread.join(timeout=30)

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
        while not self._stop.is_set():
            self.wake.clear()
            did = self.run_once()
            if did:
                continue  # more may be waiting
            self.wake.wait(self.tick)
