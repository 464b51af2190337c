"""Rerankers: models that score (query, passage) pairs, provided by plugins.

A plugin implements ``register_rerankers(register)`` and calls ``register(name, factory)``;
``factory(options)`` takes a plain dict and returns a ``Reranker``. The rerank stage of the query
path (issue: LLM backends) picks one by name; this module holds the contract and the registry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from ctx.core.runtime import PluginHost, registered_factories


@runtime_checkable
class Reranker(Protocol):
    """Scores each document's relevance to a query; higher is more relevant."""

    name: str

    def rerank(self, query: str, documents: Sequence[str]) -> list[float]:
        """One score per document, in the order given."""
        ...


RerankerFactory = Callable[[Mapping[str, Any]], Reranker]


def reranker_factories(host: PluginHost) -> dict[str, RerankerFactory]:
    """Every registered reranker factory by name; malformed or duplicate ones stop start-up."""
    return registered_factories(host, "register_rerankers", "reranker")
