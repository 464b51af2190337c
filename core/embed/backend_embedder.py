"""The ``backend`` embedder: embedding generations served by one row of the backends pool.

``embed.provider = backend`` and ``embed.backend = NAME`` make a generation embed through that
backend (its base URL, its secret, its ``embed`` model, the pooled HTTP client, the call log),
so every model server is configured in one place. One backend, not a chain: vectors of two
models must never share a generation, so there is no failover, and a change of the backend's
embed model stops embedding (until a rebuild) instead of mixing spaces.

Embedding sends every block's title and content, whatever its sensitivity, so the backend must
be trusted with all of it: the trust gate (``llm.may_see``) must let it see ``credentials``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from ctx.core import llm
from ctx.core.embed.options import option_int, option_str, require_str
from ctx.core.embed.vectors import l2_normalize, quality_gate, truncate_matryoshka
from ctx.core.errors import ConfigError, CtxError, EmbeddingError

if TYPE_CHECKING:
    from ctx.core.app import App

PROVIDER = "backend"


class BackendEmbedder:
    name = PROVIDER

    def __init__(self, app: App, options: Mapping[str, Any]) -> None:
        self.app = app
        self.backend_name = require_str(options, "backend", embedder=PROVIDER)
        self.query_prefix = option_str(options, "query_prefix", "", embedder=PROVIDER) or ""
        self.document_prefix = option_str(options, "document_prefix", "", embedder=PROVIDER) or ""
        self.batch_size = option_int(options, "batch_size", 64, embedder=PROVIDER) or 64
        backend = self._backend()
        self.model = backend.model_for("embed")[0]
        wanted = option_int(options, "dimensions", None, embedder=PROVIDER)
        self.dimensions = wanted or self._call(["dimension probe"]).shape[1]

    def _backend(self) -> llm.Backend:
        found = {b.name: b for b in self.app.backends.backends()}
        b = found.get(self.backend_name)
        if b is None:
            raise ConfigError(f"embed.backend: no backend named {self.backend_name!r}")
        if not b.enabled or "embed" not in b.roles:
            raise ConfigError(f"backend {b.name!r} is disabled or lacks the embed role")
        if not llm.may_see(b.trust, "credentials"):
            raise ConfigError(
                f"backend {b.name!r} has trust {b.trust}: embedding sends every block, "
                "credentials included, so an embedding backend must be full-trust"
            )
        return b

    def _call(self, texts: list[str]) -> NDArray[np.float32]:
        b = self._backend()
        model, params = b.model_for("embed")
        if getattr(self, "model", model) != model:
            raise EmbeddingError(
                f"backend {b.name!r} now embeds with {model!r}, but this generation was built "
                f"with {self.model!r}; start a rebuild (`ctx embed rebuild`)"
            )
        started = time.perf_counter()
        try:
            client = self.app.backends.client(b)
            rows = client.embed(model, texts, params)
        except CtxError as exc:
            self._log(b.name, model, started, exc)
            raise EmbeddingError(
                f"embedding through backend {b.name!r} failed: {exc.message}"
            ) from None
        self._log(b.name, model, started, None)
        return np.asarray(rows, dtype=np.float32)

    def _log(self, backend: str, model: str, started: float, exc: CtxError | None) -> None:
        llm.record_call(
            self.app,
            llm.CallRecord(
                "embed", backend, model, "embed", getattr(exc, "outcome", "error") if exc else "ok",
                (time.perf_counter() - started) * 1000, error=exc.message if exc else None,
            ),
        )  # fmt: skip

    def _embed(self, texts: list[str]) -> NDArray[np.float32]:
        if not texts:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        parts = [
            self._call(texts[i : i + self.batch_size])
            for i in range(0, len(texts), self.batch_size)
        ]
        vecs = np.concatenate(parts)
        if vecs.shape[1] == self.dimensions:
            return quality_gate(l2_normalize(vecs))
        return quality_gate(truncate_matryoshka(vecs, self.dimensions))

    def embed_documents(self, texts: list[str]) -> NDArray[np.float32]:
        return self._embed([self.document_prefix + t for t in texts])

    def embed_query(self, text: str) -> NDArray[np.float32]:
        return self._embed([self.query_prefix + text])[0]
