"""Rerankers: models that score (query, passage) pairs, provided by plugins.

A plugin implements ``register_rerankers(register)`` and calls ``register(name, factory)``;
``factory(options)`` takes a plain dict and returns a ``Reranker``. The rerank stage of the query
path (issue: LLM backends) picks one by name; this module holds the contract and the registry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from ctx.core.errors import PluginError
from ctx.core.runtime import PluginHost, unique_by_name


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
    regs = host.registrations("register_rerankers")
    problems = [
        f"plugin {r.plugin} must call register(name, factory) for a reranker"
        for r in regs
        if r.kwargs or len(r.args) != 2 or not isinstance(r.args[0], str) or not callable(r.args[1])
    ]
    if problems:
        raise PluginError("; ".join(problems))
    by_name = unique_by_name(regs, lambda r: r.args[0], "reranker")
    return {name: reg.args[1] for name, reg in by_name.items()}
