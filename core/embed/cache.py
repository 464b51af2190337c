"""One embedder per embedding generation, built lazily and shared across threads."""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Any

from ctx.core.embed.backend_embedder import PROVIDER as BACKEND_PROVIDER
from ctx.core.embed.backend_embedder import BackendEmbedder
from ctx.core.embed.protocol import Embedder
from ctx.core.embed.registry import create_embedder
from ctx.core.errors import CtxError

if TYPE_CHECKING:
    from ctx.core.app import App

log = logging.getLogger("ctx.embed")


class EmbedderCache:
    def __init__(self, app: App) -> None:
        self.app = app
        self._lock = threading.Lock()
        self._by_generation: dict[int, Embedder] = {}
        #: how long one block took to embed inline lately (claim, model, write), None until
        #: measured: what sizes a query's inline batches (``embed_pending``)
        self.seconds_per_block: float | None = None
        #: held while a worker's batch is in the model: the local engines use every core
        #: already, so a second worker loop overlaps its database work with the model rather
        #: than a second model run (queries' own embedding never waits for it)
        self.batch_lock = threading.Lock()

    def record_speed(self, seconds: float, blocks: int) -> None:
        """Fold one inline batch's time into ``seconds_per_block`` (a moving average)."""
        if blocks <= 0:
            return
        per = seconds / blocks
        old = self.seconds_per_block
        self.seconds_per_block = per if old is None else 0.7 * old + 0.3 * per

    def for_generation(self, gen: dict[str, Any]) -> Embedder:
        with self._lock:
            emb = self._by_generation.get(gen["id"])
            if emb is None:
                emb = self.build(gen["provider"], dict(gen["options"] or {}))
                self._by_generation[gen["id"]] = emb
            return emb

    def build(self, provider: str, options: dict[str, Any]) -> Embedder:
        """A new embedder; the secret comes from the settings, never from stored options.
        ``backend`` is the core's own: a row of the backends pool (``embed.backend``)."""
        if provider == BACKEND_PROVIDER:
            return BackendEmbedder(self.app, options)
        opts = dict(options)
        try:
            secret = self.app.secret_setting("embed.api_key")
        except CtxError as exc:  # an embedder that needs no key must still work
            log.warning("embed.api_key cannot be read (%s); embedding without it", exc.message)
            secret = ""
        if secret:
            opts["api_key"] = secret
        return create_embedder(self.app.embedder_factories, provider, opts)
