"""ctxd's watch over the embedded PostgreSQL it holds.

PostgreSQL killed or crashed (its postmaster gone) would otherwise stay down until a person
started it: every request answers 503 meanwhile. The watch looks at the postmaster every
``every_s`` seconds; when it is gone, it starts the cluster again, retrying with doubling delays
(up to ``max_delay_s``) while the start fails (the old server's processes may still hold its
shared memory for a moment). The pool and the listener reconnect by themselves once it answers.
An external database (``CTX_DATABASE_URL``) is not watched: whoever runs it restarts it.
"""

from __future__ import annotations

import logging
import threading
import time

from ctx.core.errors import error_text
from ctx.core.runtime.db import EmbeddedPostgres

log = logging.getLogger("ctx.db")


class ClusterWatch:
    def __init__(
        self, cluster: EmbeddedPostgres | None, every_s: float = 1.0, max_delay_s: float = 8.0
    ) -> None:
        self.cluster = cluster
        self.every_s = every_s
        self.max_delay_s = max_delay_s
        self.restarts = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self.cluster is None:
            return
        self._thread = threading.Thread(target=self._run, name="ctx-cluster-watch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop watching (before the cluster is stopped on purpose, so it is not started
        again)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=15)
            self._thread = None

    def _run(self) -> None:
        assert self.cluster is not None
        pid = self.cluster.postmaster()
        while not self._stop.wait(self.every_s):
            if self.cluster.postmaster() is None:
                log.error(
                    "the embedded PostgreSQL stopped (its server process %s is gone); starting "
                    "it again",
                    pid,
                )
                pid = self._restart()

    def _restart(self) -> int | None:
        assert self.cluster is not None
        began, delay = time.monotonic(), 1.0
        while not self._stop.is_set():
            try:
                pid = self.cluster.restart()
            except Exception as exc:
                log.warning(
                    "starting the embedded PostgreSQL failed (%s); trying again in %.0f s",
                    error_text(exc, str),
                    delay,
                )
                self._stop.wait(delay)
                delay = min(delay * 2, self.max_delay_s)
                continue
            self.restarts += 1
            log.warning(
                "restarted the embedded PostgreSQL in %.1f s (server process %s)",
                time.monotonic() - began,
                pid,
            )
            return pid
        return None
