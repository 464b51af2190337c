"""Fusion's full-text part counts as far as a block holds the question's words
(``query.text_support``): a lone keyword match does not outrank what the meaning points to."""

from __future__ import annotations

import pytest

from ctx.core import App, Candidate, Principal, QueryRequest, StoreRequest, blocks
from ctx.core.retrieval.pipeline import QueryRun
from ctx.core.retrieval.support import text_support
from ctx.core.runtime import drain, set_setting

ALPHA = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")
WEIGHTS = {"dense": 0.45, "fts_en": 0.25, "fts_de": 0.2, "trigram": 0.1, "dates": 0.5}
K = 10  # query.rrf_k's default


def _fused(ranks: dict[str, int]) -> float:
    return sum(WEIGHTS[name] / (K + r) for name, r in ranks.items())


@pytest.fixture
def stored(app: App) -> dict[str, str]:
    notes = {
        "lone": "The zeppelin museum opens on Sunday.",
        "full": "The zeppelin permit for the hangar arrived.",
    }
    ids = {
        key: str(blocks.store_block(app, ALPHA, StoreRequest(title=key, content=text))["id"])
        for key, text in notes.items()
    }
    drain(app, "scope_terms")
    return ids


def _run(app: App, weights: dict[str, float] | None = None) -> QueryRun:
    run = QueryRun(
        app, ALPHA, QueryRequest(query="zeppelin permit hangar"), weights=weights or dict(WEIGHTS)
    )
    run.language = {"language": "en"}
    run.scopes = ["alpha"]
    return run


def _cands(ids: dict[str, str]) -> list[Candidate]:
    lone = {"fts_en": 1, "fts_de": 1, "dense": 3}  # first in both text channels, one word
    full = {"dense": 1, "fts_en": 4}  # what the meaning points to, every word
    return [
        Candidate(ids["lone"], _fused(lone), ranks=dict(lone)),
        Candidate(ids["full"], _fused(full), ranks=dict(full)),
    ]


def test_a_lone_keyword_match_falls_below_the_block_holding_the_question(
    app: App, stored: dict[str, str]
) -> None:
    before = _cands(stored)
    assert before[0].score > before[1].score  # rank fusion puts the lone match first
    out = text_support(_run(app), _cands(stored))
    assert [c.block_id for c in out] == [stored["full"], stored["lone"]]
    full = next(c for c in out if c.block_id == stored["full"])
    lone = next(c for c in out if c.block_id == stored["lone"])
    assert full.factors["text_support"] == pytest.approx(1.0)  # holds every word: unchanged
    # the lone match keeps its dense part and a share of its text part below one
    dense_part = WEIGHTS["dense"] / (K + 3)
    assert dense_part < lone.score < _fused({"fts_en": 1, "fts_de": 1, "dense": 3})


def test_share_zero_is_rank_fusion(app: App, stored: dict[str, str]) -> None:
    set_setting(app, "query.text_support", 0.0)
    out = text_support(_run(app), _cands(stored))
    assert [c.block_id for c in out] == [stored["lone"], stored["full"]]
    assert all("text_support" not in c.factors for c in out)


def test_without_the_dense_channel_nothing_moves(app: App, stored: dict[str, str]) -> None:
    out = text_support(_run(app, {**WEIGHTS, "dense": 0.0}), _cands(stored))
    assert [c.block_id for c in out] == [stored["lone"], stored["full"]]
