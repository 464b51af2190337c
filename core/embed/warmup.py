"""Warm-up: ctxd loads what its first query needs (the active generation's embedder, the temporal
parser, the query stages) in a background thread, so it binds and answers at once and the first
query does not pay for loading a model.

``ctx serve`` starts it explicitly (``app.warmup.start()``); an App that never serves (tests, the
CLI's local commands) never warms up. While it runs, ``/health`` says ``warming`` (still 200) and
a query waits for it, up to ``query.warmup_wait_ms``. A failed warm-up only logs a warning: the
query path fails open to the text channels anyway.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import TYPE_CHECKING

from ctx.core.embed.generation_rows import active_generation
from ctx.core.errors import error_text

if TYPE_CHECKING:
    from ctx.core.app import App

log = logging.getLogger("ctx.embed")
SAMPLE = "What did we decide last week about the release?"


class WarmUp:
    """The warm-up of one App: not begun, running (``warming``), or finished."""

    def __init__(self, app: App) -> None:
        self.app = app
        self._begun = False
        self._done = threading.Event()
        self._lock = threading.Lock()
        self.seconds: float | None = None  # how long it took, once finished
        self.error: str | None = None  # why it failed, when it did
        self.waiting = 0  # queries waiting for it now

    @property
    def warming(self) -> bool:
        """Begun and not finished."""
        return self._begun and not self._done.is_set()

    def begin(self) -> None:
        """Mark the warm-up as running (``start`` does, before its thread runs; a caller that
        runs it on a thread of its own calls this first)."""
        with self._lock:
            self._begun = True

    def start(self) -> threading.Thread:
        """Run the warm-up on a daemon thread; return the thread."""
        self.begin()
        thread = threading.Thread(target=self.run, name="ctx-warmup", daemon=True)
        thread.start()
        return thread

    def run(self) -> None:
        """Load and exercise what the first query needs; never raises."""
        self.begin()
        started = time.monotonic()
        try:
            self.app.temporal_parser.parse(SAMPLE)
            _ = self.app.query_stages
            with self.app.connection() as conn:
                gen = active_generation(conn)
            if gen is not None:
                self.app.embedders.for_generation(gen).embed_query(SAMPLE)
        except Exception as exc:
            self.error = error_text(exc)
            log.warning("warm-up failed (%s); queries load the embedder themselves", self.error)
        finally:
            self.seconds = time.monotonic() - started
            self._done.set()
        if self.error is None:
            log.info("warm-up finished in %.2f s", self.seconds)

    def wait(self, timeout_s: float) -> float | None:
        """Wait (at most ``timeout_s``) for a running warm-up; return the milliseconds waited,
        or None when none was running."""
        if not self.warming:
            return None
        started = time.monotonic()
        with self._lock:
            self.waiting += 1
        try:
            self._done.wait(timeout_s)
        finally:
            with self._lock:
                self.waiting -= 1
        return (time.monotonic() - started) * 1000
