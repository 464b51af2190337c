"""Rerankers: models that score (query, passage) pairs, provided by plugins.

A plugin implements ``register_rerankers(register)`` and calls ``register(name, factory)``;
``factory(options)`` takes a plain dict and returns a ``Reranker``. The rerank stage of the query
path (``reranking``) picks one by name (``query.reranker``); this module holds the contract and
the registry.

A plain ``Reranker`` runs in-process (a local model) and is given every document's text. One that
sends content elsewhere follows ``GatedReranker`` instead: it gets each document as a
``Piece(sensitivity, text)`` so the trust gate decides what leaves; the built-in ``backends``
reranker (the model backends' rerank chain) is one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ctx.core.errors import CtxError
from ctx.core.llm import Piece
from ctx.core.runtime import PluginHost, registered_factories

if TYPE_CHECKING:
    from ctx.core.app import App


@runtime_checkable
class Reranker(Protocol):
    """Scores each document's relevance to a query; higher is more relevant."""

    name: str

    def rerank(self, query: str, documents: Sequence[str]) -> list[float]:
        """One score per document, in the order given."""
        ...


@dataclass(frozen=True)
class RerankResult:
    """What a gated reranker found. ``relevance`` has one value in 0..1 per document it scored,
    in the order given (``None``: the backend was not allowed to see that document, which keeps
    its place); documents past ``len(relevance)`` were not scored and follow the scored ones."""

    relevance: list[float | None]
    backend: str
    model: str = ""
    how: str = "rerank"


@runtime_checkable
class GatedReranker(Protocol):
    """A reranker that sends document content to model backends, through the trust gate."""

    name: str

    def rerank_gated(self, app: App, query: str, documents: Sequence[Piece]) -> RerankResult:
        """Relevance for the documents (``Piece.value`` is the text) the backend may see."""
        ...


class RerankUnavailable(CtxError):
    """Nothing can rerank now (no backend for the role, or none trusted with the documents);
    the stage skips with a warning naming ``reason``."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"rerank skipped: {reason}")
        self.reason = reason


RerankerFactory = Callable[[Mapping[str, Any]], Reranker]


def reranker_factories(host: PluginHost) -> dict[str, RerankerFactory]:
    """Every registered reranker factory by name; malformed or duplicate ones stop start-up."""
    return registered_factories(host, "register_rerankers", "reranker")
