"""One embedder per embedding generation, built lazily and shared across threads."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from ctx.core.embed.protocol import Embedder
from ctx.core.embed.registry import create_embedder

if TYPE_CHECKING:
    from ctx.core.app import App


class EmbedderCache:
    def __init__(self, app: App) -> None:
        self.app = app
        self._lock = threading.Lock()
        self._by_generation: dict[int, Embedder] = {}

    def for_generation(self, gen: dict[str, Any]) -> Embedder:
        with self._lock:
            emb = self._by_generation.get(gen["id"])
            if emb is None:
                emb = self.build(gen["provider"], dict(gen["options"] or {}))
                self._by_generation[gen["id"]] = emb
            return emb

    def build(self, provider: str, options: dict[str, Any]) -> Embedder:
        """A new embedder; the secret comes from the settings, never from stored options."""
        opts = dict(options)
        secret = self.app.secret_setting("embed.api_key")
        if secret:
            opts["api_key"] = secret
        return create_embedder(self.app.embedder_factories, provider, opts)
