"""Embedding models: the ``Embedder`` protocol, vector hygiene and the plugin registry.

Embedders are plugins: a plugin implements ``register_embedders(register)`` and calls
``register(name, factory)``; ``factory(options)`` takes a plain dict (``base_url``, ``model``,
``dimensions``, ...) and returns an ``Embedder``. ``create_embedder(pm, name, options)`` builds the
configured one. Every embedder returns float32, L2-normalised vectors that passed
``quality_gate``.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray

from ctx.core.embed.registry import EmbedderFactory, create_embedder, embedders_from_plugin_manager
from ctx.core.embed.vectors import (
    MAX_NORM,
    MIN_NORM,
    MIN_VARIANCE,
    l2_normalize,
    quality_gate,
    truncate_matryoshka,
)


@runtime_checkable
class Embedder(Protocol):
    """Turns text into unit vectors; documents and queries may be embedded differently.

    ``name`` is the provider (``minilm``, ``e5``, ``openai``); ``model`` is the model id recorded
    with each embedding generation, so vectors from different models are never compared;
    ``dimensions`` is the length of every vector returned.
    """

    name: str
    model: str
    dimensions: int

    def embed_documents(self, texts: list[str]) -> NDArray[np.float32]:
        """Embed texts to be stored and searched; returns shape ``(len(texts), dimensions)``."""
        ...

    def embed_query(self, text: str) -> NDArray[np.float32]:
        """Embed a search query; returns shape ``(dimensions,)``."""
        ...


__all__ = [
    "MAX_NORM",
    "MIN_NORM",
    "MIN_VARIANCE",
    "Embedder",
    "EmbedderFactory",
    "create_embedder",
    "embedders_from_plugin_manager",
    "l2_normalize",
    "quality_gate",
    "truncate_matryoshka",
]
