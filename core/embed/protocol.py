"""The ``Embedder`` protocol: what every embedding model provides."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np
from numpy.typing import NDArray


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
