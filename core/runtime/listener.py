"""A LISTEN thread: reloads settings and block types when another process changes them.

psql edits, the CLI and other ``ctxd`` replicas all fire ``NOTIFY ctx_settings`` through triggers;
each listening process re-reads the database layer. Reconnects with a delay after a lost
connection and reloads once on reconnect, in case it missed a notification.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ctx.core.app import App

log = logging.getLogger("ctx.listener")


class Listener:
    def __init__(self, app: App, channels: dict[str, Callable[[str], object]]) -> None:
        self.app = app
        self.channels = channels
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="ctx-listener", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _run(self) -> None:
        first = True
        while not self._stop.is_set():
            try:
                with self.app.db.connect_raw() as conn:
                    for channel in self.channels:
                        conn.execute(f"LISTEN {channel}")  # channel names are ours
                    if not first:
                        for on_reconnect in self.channels.values():
                            on_reconnect("reconnect")
                    first = False
                    while not self._stop.is_set():
                        for note in conn.notifies(timeout=1.0, stop_after=None):
                            handler = self.channels.get(note.channel)
                            if handler is not None:
                                try:
                                    handler(note.payload)
                                except Exception:
                                    log.exception("listener handler for %s failed", note.channel)
            except Exception as exc:
                if self._stop.is_set():
                    return
                log.warning("listener connection lost (%s); reconnecting in 5 s", exc)
                self._stop.wait(5)
