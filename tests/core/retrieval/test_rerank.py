"""The reranker contract and registry (the rerank stage arrives with the backends)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from plugin_kit import host_with, registers

from ctx.core import PluginError, Reranker
from ctx.core.retrieval import reranker_factories


class Overlap:
    name = "overlap"

    def rerank(self, query: str, documents: Sequence[str]) -> list[float]:
        words = set(query.lower().split())
        return [float(len(words & set(d.lower().split()))) for d in documents]


def Provides(*registrations: tuple[Any, ...]) -> object:
    return registers("register_rerankers", *registrations, spread=True)


def _factories(*plugins: tuple[str, object]) -> dict[str, Any]:
    return reranker_factories(host_with(*plugins))


def test_a_registered_reranker_is_built_from_options() -> None:
    factories = _factories(("p", Provides(("overlap", lambda options: Overlap()))))
    reranker = factories["overlap"]({})
    assert isinstance(reranker, Reranker)
    assert reranker.rerank("backup night", ["backups", "backup at night", "x"]) == [0.0, 2.0, 0.0]


def test_bad_or_duplicate_rerankers_stop_start_up() -> None:
    with pytest.raises(PluginError, match="must call register\\(name, factory\\)"):
        _factories(("p", Provides(("no-factory",))))
    with pytest.raises(PluginError, match="reranker 'o' registered twice: by a and by b"):
        _factories(
            ("a", Provides(("o", lambda options: Overlap()))),
            ("b", Provides(("o", lambda options: Overlap()))),
        )
