"""The query path: channels, weights, filters inside ``ctx_rrf``, pending embeds, confidence."""

from __future__ import annotations

from typing import Any

import pytest

from ctx.core import (
    App,
    Forbidden,
    Principal,
    QueryRequest,
    StoreRequest,
    ValidationError,
    blocks,
    retrieval,
)
from ctx.core.runtime import set_setting

ALPHA = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")
BETA = Principal(key_id="00000000-0000-0000-0000-0000000000b1", name="b", home_scope="beta")
BOTH = Principal(
    key_id="00000000-0000-0000-0000-0000000000c1",
    name="c",
    home_scope="gamma",
    allowed_scopes=("alpha", "beta"),
)

GERMAN = ("Datenbank Sicherung", "Die Datenbank wird jede Nacht gesichert und kopiert.")
INGRESS = (
    "Kubernetes ingress timeouts",
    "The nginx ingress drops idle websocket connections after sixty seconds unless "
    "proxy-read-timeout is raised.",
)
BUDGET = (
    "Quarterly budget review",
    "Finance meets every three months to compare spending against the plan.",
)
DEPLOY = ("Deploy checklist", "Tag the release, build the wheel, publish to the index.")
PLANTS = (
    "Office plants",
    "Water the ficus on Mondays; the money jar for fertiliser is on the shelf.",
)
CORPUS = [GERMAN, INGRESS, BUDGET, DEPLOY, PLANTS]
FUSED = ("dense", "fts_en", "fts_de", "trigram")
WEIGHT_KEYS = (
    "query.weight_dense",
    "query.weight_fts_en",
    "query.weight_fts_de",
    "query.weight_trigram",
)


def _store(app: App, who: Principal, title: str, content: str, **extra: Any) -> str:
    req = StoreRequest.model_validate({"title": title, "content": content, **extra})
    return str(blocks.store_block(app, who, req)["id"])


@pytest.fixture(autouse=True)
def fusion_only(app: App) -> None:
    """This module checks the fusion's arithmetic and the seed's score thresholds: the stages
    after it that move scores (neighbours, rescore) are off, the class is the fused score's.
    Those stages and the evidence class have their own modules."""
    set_setting(app, "query.neighbour_weight", 0.0)
    set_setting(app, "query.rescore_depth", 0)
    set_setting(app, "query.confidence", "score")


@pytest.fixture
def corpus(app: App) -> dict[str, str]:
    """The five blocks in scope alpha, by title -> id."""
    return {title: _store(app, ALPHA, title, content) for title, content in CORPUS}


def _k(app: App) -> int:
    return int(app.settings["query.rrf_k"])


def _ask(app: App, who: Principal, query: str, **extra: Any) -> dict[str, Any]:
    req = QueryRequest.model_validate({"query": query, "explain": True, **extra})
    return retrieval.query(app, who, req)


def _by_title(res: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["title"]: s for s in res["sources"]}


def _rows(app: App, sql: str, *params: Any) -> list[dict[str, Any]]:
    with app.connection() as conn:
        return conn.execute(sql, params).fetchall()


def _rrf(app: App, query: str, scopes: list[str], **filters: Any) -> list[retrieval.Candidate]:
    """Run the fusion (``ctx_rrf``) alone: text channels only unless an embedding is given."""
    weights = retrieval.channel_weights(app)
    return retrieval.fuse(app, query=query, scopes=scopes, weights=weights, **filters)


def _embedding_rows(app: App, block_id: str) -> int:
    rows = _rows(
        app, "SELECT count(*) AS n FROM context_block_embeddings WHERE block_id = %s", block_id
    )
    return int(rows[0]["n"])


def _embed_jobs(app: App, block_id: str) -> list[dict[str, Any]]:
    return _rows(
        app,
        "SELECT status, attempts FROM context_jobs WHERE kind = 'embed' "
        "AND payload->>'block_id' = %s",
        block_id,
    )


# -- channels -------------------------------------------------------------------------------


def test_german_inflection_is_found_through_fts_de_not_fts_en(
    app: App, corpus: dict[str, str]
) -> None:
    res = _ask(app, ALPHA, "Datenbanken")
    top = res["sources"][0]
    assert top["id"] == corpus[GERMAN[0]]
    assert top["channels"]["fts_de"]["rank"] == 1
    assert top["channels"]["fts_de"]["score"] > 0
    assert top["channels"]["fts_en"] == {"rank": None, "score": None}
    # No other block shares the German stem.
    assert [s["id"] for s in res["sources"] if s["channels"]["fts_de"]["rank"]] == [top["id"]]
    assert res["confidence"] == "confident"
    assert res["warnings"] == []


def test_exact_title_is_found_through_trigram(app: App, corpus: dict[str, str]) -> None:
    exact = _ask(app, ALPHA, "Kubernetes ingress timeouts")["sources"][0]
    assert exact["id"] == corpus[INGRESS[0]]
    assert exact["channels"]["trigram"] == {"rank": 1, "similarity": pytest.approx(1.0)}
    # A misspelt title has no full-text lexeme for the typo, but trigrams still rank it first.
    typo = _ask(app, ALPHA, "Kubernetis ingres")["sources"][0]
    assert typo["id"] == corpus[INGRESS[0]]
    assert typo["channels"]["trigram"]["rank"] == 1
    assert 0.3 < typo["channels"]["trigram"]["similarity"] < 1.0
    assert typo["channels"]["fts_en"]["rank"] is None


def test_paraphrase_without_shared_words_is_found_through_dense_only(
    app: App, corpus: dict[str, str]
) -> None:
    res = _ask(app, ALPHA, "how often is expenditure checked")
    hit = _by_title(res)[BUDGET[0]]
    assert hit["channels"]["dense"]["rank"] == 1
    assert hit["channels"]["dense"]["similarity"] > 0.5
    for channel in ("fts_en", "fts_de", "trigram"):
        assert hit["channels"][channel]["rank"] is None, channel
    # Score is exactly the dense contribution: 0.45 / (k + 1).
    assert hit["score"] == pytest.approx(0.45 / (_k(app) + 1), rel=1e-6)


def test_scores_are_weighted_rrf_times_the_type_factor(app: App, corpus: dict[str, str]) -> None:
    damped = _store(
        app, ALPHA, "Money jar audit", "Counted the money jar.", block_type="audit-trail"
    )
    res = _ask(app, ALPHA, "money jar", limit=20)
    weights = [0.45, 0.25, 0.20, 0.10]
    seen = set()
    for s in res["sources"]:
        ranks = [s["channels"][c]["rank"] for c in FUSED]
        k = _k(app)
        raw = sum(w / (k + r) for w, r in zip(weights, ranks, strict=True) if r is not None)
        factor = 0.5 if s["id"] == damped else 1.0
        assert s["score"] == pytest.approx(raw * factor, rel=1e-5), s["title"]
        seen.add(s["id"])
    assert damped in seen and corpus[PLANTS[0]] in seen
    scores = [s["score"] for s in res["sources"]]
    assert scores == sorted(scores, reverse=True)


# -- weights --------------------------------------------------------------------------------


def _set_weights(app: App, *values: float) -> None:
    for key, value in zip(WEIGHT_KEYS, values, strict=True):
        set_setting(app, key, value)


def test_weights_change_the_order(app: App, corpus: dict[str, str]) -> None:
    # "Office plants" shares the word "money" (text channels); "Quarterly budget review" is the
    # nearest meaning (dense). Each wins one side.
    query = "expenditure money"
    default = _ask(app, ALPHA, query)
    assert default["sources"][0]["title"] == PLANTS[0]
    assert _by_title(default)[BUDGET[0]]["channels"]["dense"]["rank"] == 1
    assert _by_title(default)[PLANTS[0]]["channels"]["fts_en"]["rank"] == 1

    _set_weights(app, 1.0, 0.0, 0.0, 0.0)
    dense_only = _ask(app, ALPHA, query)
    assert dense_only["sources"][0]["title"] == BUDGET[0]
    assert dense_only["sources"][0]["score"] == pytest.approx(1.0 / (_k(app) + 1), rel=1e-6)

    _set_weights(app, 0.0, 0.25, 0.20, 0.10)
    text_only = _ask(app, ALPHA, query)
    assert text_only["sources"][0]["title"] == PLANTS[0]
    # Weight 0 turns the dense channel off entirely: no ranks, no embedding of the query.
    assert all(s["channels"]["dense"]["rank"] is None for s in text_only["sources"])
    assert BUDGET[0] not in _by_title(text_only)


def test_zero_dense_weight_leaves_pending_embeds_for_the_worker(app: App) -> None:
    set_setting(app, "query.weight_dense", 0.0)
    block_id = _store(app, ALPHA, *PLANTS)
    res = _ask(app, ALPHA, "money")
    assert [s["id"] for s in res["sources"]] == [block_id]
    assert _embed_jobs(app, block_id) == [{"status": "queued", "attempts": 0}]
    assert _embedding_rows(app, block_id) == 0


# -- filters inside ctx_rrf ------------------------------------------------------------------


def test_other_scopes_never_come_back(app: App) -> None:
    corpus = {INGRESS[0]: _store(app, ALPHA, *INGRESS), DEPLOY[0]: _store(app, ALPHA, *DEPLOY)}
    foreign = _store(app, BETA, "Kubernetes ingress timeouts", "Beta's copy of the ingress notes.")
    res = _ask(app, ALPHA, "Kubernetes ingress timeouts", limit=20)
    assert foreign not in {s["id"] for s in res["sources"]}
    assert all(s["scope"] == "alpha" for s in res["sources"])
    # Beta's block is embedded by beta's own query, so its dense row exists and still no
    # alpha query can reach it.
    assert foreign in {s["id"] for s in _ask(app, BETA, "ingress")["sources"]}
    assert _embedding_rows(app, foreign) == 1
    again = _ask(app, ALPHA, "Beta's copy of the ingress notes", limit=20)
    assert foreign not in {s["id"] for s in again["sources"]}

    both = _ask(app, BOTH, "Kubernetes ingress timeouts", limit=20)
    assert {foreign, corpus[INGRESS[0]]} <= {s["id"] for s in both["sources"]}
    only_beta = _ask(app, BOTH, "Kubernetes ingress timeouts", scopes=["beta"], limit=20)
    assert [s["id"] for s in only_beta["sources"]] == [foreign]

    with pytest.raises(Forbidden, match="cannot read scope"):
        _ask(app, ALPHA, "ingress", scopes=["beta"])


def test_ctx_rrf_applies_scopes_in_every_channel(app: App) -> None:
    corpus = {INGRESS[0]: _store(app, ALPHA, *INGRESS)}
    foreign = _store(app, BETA, "Kubernetes ingress timeouts", "Beta's copy of the ingress notes.")
    ids = {r.block_id for r in _rrf(app, "Kubernetes ingress timeouts", ["alpha"])}
    assert corpus[INGRESS[0]] in ids and foreign not in ids
    ids = {r.block_id for r in _rrf(app, "Kubernetes ingress timeouts", ["beta"])}
    assert ids == {foreign}
    assert _rrf(app, "Kubernetes ingress timeouts", []) == []
    assert _rrf(app, "Kubernetes ingress timeouts", ["nobody"]) == []

    # The dense channel too: the query vector equals beta's stored vector, yet alpha never
    # sees it.
    _ask(app, BETA, "ingress")
    gen = _rows(
        app, "SELECT id, dimensions FROM context_embedding_generations WHERE status = 'active'"
    )[0]
    vec = _rows(
        app,
        "SELECT embedding::text AS v FROM context_block_embeddings WHERE block_id = %s",
        foreign,
    )[0]["v"]
    rows = _rrf(app, "zzz", ["alpha"], embedding=vec, generation=gen)
    beta_rows = _rrf(app, "zzz", ["beta"], embedding=vec, generation=gen)
    assert foreign not in {r.block_id for r in rows}
    assert [(r.block_id, r.ranks["dense"]) for r in beta_rows] == [(foreign, 1)]
    assert beta_rows[0].channel_scores["dense"] == pytest.approx(1.0, abs=1e-3)


def test_archived_blocks_never_come_back(app: App) -> None:
    corpus = {INGRESS[0]: _store(app, ALPHA, *INGRESS), DEPLOY[0]: _store(app, ALPHA, *DEPLOY)}
    target = corpus[INGRESS[0]]
    assert _ask(app, ALPHA, INGRESS[0])["sources"][0]["id"] == target  # embedded now
    with app.connection() as conn:
        conn.execute("UPDATE context_blocks SET is_archived = true WHERE id = %s", (target,))
    res = _ask(app, ALPHA, INGRESS[0], limit=20)
    assert target not in {s["id"] for s in res["sources"]}
    assert _embedding_rows(app, target) == 1  # still has a vector: the filter is what holds
    assert target not in {r.block_id for r in _rrf(app, INGRESS[0], ["alpha"])}


def test_excluded_types_never_come_back(app: App) -> None:
    meta = _store(
        app, ALPHA, "Ingress bookkeeping", "ingress ingress ingress", block_type="system-meta"
    )
    ref = _store(
        app, ALPHA, "Ingress reference", "ingress timeouts reference", block_type="reference"
    )
    res = _ask(app, ALPHA, "Ingress bookkeeping ingress", limit=20)
    ids = {s["id"] for s in res["sources"]}
    assert meta not in ids and ref in ids
    assert meta not in {r.block_id for r in _rrf(app, "Ingress bookkeeping", ["alpha"])}
    # The caller can exclude more types per query.
    res = _ask(app, ALPHA, "Ingress reference", exclude_types=["reference"], limit=20)
    assert ref not in {s["id"] for s in res["sources"]}
    rows = _rrf(app, "Ingress reference", ["alpha"], exclude_types=["reference"])
    assert ref not in {r.block_id for r in rows}
    assert ref in {r.block_id for r in _rrf(app, "Ingress reference", ["alpha"])}


def test_category_tags_and_exclude_ids_filter(app: App) -> None:
    ops = _store(app, ALPHA, "Backup window", "Backups run at night.", category="ops", tags=["db"])
    dev = _store(
        app,
        ALPHA,
        "Backup script",
        "The backup script lives in tools.",
        category="dev",
        tags=["db", "tools"],
    )

    def ids(**extra: Any) -> set[str]:
        return {s["id"] for s in _ask(app, ALPHA, "backup", limit=20, **extra)["sources"]}

    assert ids() == {ops, dev}
    assert ids(category="ops") == {ops}
    assert ids(category="nothing") == set()
    assert ids(tags=["tools"]) == {dev}
    assert ids(tags=["db"]) == {ops, dev}
    assert ids(tags=["db", "missing"]) == set()
    assert ids(exclude_ids=[dev]) == {ops}
    assert {r.block_id for r in _rrf(app, "backup", ["alpha"], category="dev")} == {dev}
    assert {r.block_id for r in _rrf(app, "backup", ["alpha"], exclude_ids=[ops])} == {dev}
    assert {r.block_id for r in _rrf(app, "backup", ["alpha"], tags=["tools"])} == {dev}


# -- pending embeddings and fallbacks ---------------------------------------------------------


def test_pending_blocks_are_embedded_before_the_query(app: App) -> None:
    block_id = _store(app, ALPHA, *BUDGET)
    assert _embed_jobs(app, block_id) == [{"status": "queued", "attempts": 0}]
    assert _embedding_rows(app, block_id) == 0
    res = _ask(app, ALPHA, "how often is expenditure checked")
    assert _embedding_rows(app, block_id) == 1
    assert _embed_jobs(app, block_id) == []  # done jobs are deleted
    assert res["sources"][0]["id"] == block_id
    assert res["sources"][0]["channels"]["dense"]["rank"] == 1
    assert res["warnings"] == []


def test_pending_blocks_of_other_scopes_are_left_to_the_worker(app: App) -> None:
    foreign = _store(app, BETA, *BUDGET)
    _ask(app, ALPHA, "budget")
    assert _embed_jobs(app, foreign) == [{"status": "queued", "attempts": 0}]
    assert _embedding_rows(app, foreign) == 0


def test_without_a_generation_the_text_channels_answer(app: App, corpus: dict[str, str]) -> None:
    with app.connection() as conn:
        conn.execute("UPDATE context_embedding_generations SET status = 'retired'")
    res = _ask(app, ALPHA, "Datenbanken")
    assert res["warnings"] == ["no embedding generation: dense channel skipped"]
    assert res["sources"][0]["id"] == corpus[GERMAN[0]]
    assert all(s["channels"]["dense"]["rank"] is None for s in res["sources"])
    assert _embedding_rows(app, corpus[GERMAN[0]]) == 0


# -- confidence -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("best", "expected"),
    [
        (0.02, "confident"),
        (0.008, "confident"),
        (0.0079, "low_confidence"),
        (0.001, "low_confidence"),
        (0.00099, "no_relevant_blocks_found"),
        (0.0, "no_relevant_blocks_found"),
    ],
)
def test_classify_thresholds(best: float, expected: str) -> None:
    assert retrieval.classify(best, 0.008, 0.001) == expected


def test_score_threshold_above_confident_threshold_is_rejected(app: App) -> None:
    with pytest.raises(ValidationError, match=r"must not exceed query\.confident_threshold"):
        set_setting(app, "query.score_threshold", 0.01)
    with pytest.raises(ValidationError, match=r"must not exceed query\.confident_threshold"):
        set_setting(app, "query.confident_threshold", 0.0005)
    assert app.settings["query.score_threshold"] == 0.001
    assert app.settings["query.confident_threshold"] == 0.008
    set_setting(app, "query.score_threshold", 0.008)  # equal is allowed
    assert app.settings["query.score_threshold"] == 0.008


@pytest.fixture
def backups(app: App) -> list[str]:
    """Four blocks the word "backup" finds through text alone; the dense channel is off, so
    these tests load no model."""
    set_setting(app, "query.weight_dense", 0.0)
    return [
        _store(app, ALPHA, f"Backup {name}", f"The backup {name} {detail}.")
        for name, detail in [
            ("window", "runs at night"),
            ("script", "lives in tools"),
            ("policy", "keeps thirty days"),
            ("restore drill", "happens monthly"),
        ]
    ]


def test_low_confidence_is_a_label_and_the_seeds_cut_keeps_two(
    app: App, backups: list[str]
) -> None:
    full = _ask(app, ALPHA, "backup", limit=10)
    assert full["confidence"] == "confident" and len(full["sources"]) == 4
    set_setting(app, "query.confident_threshold", 1.0)
    low = _ask(app, ALPHA, "backup", limit=10)
    assert low["confidence"] == "low_confidence"
    assert [s["id"] for s in low["sources"]] == [s["id"] for s in full["sources"]]
    set_setting(app, "query.confidence_cut", "cut")
    cut = _ask(app, ALPHA, "backup", limit=10)
    assert [s["id"] for s in cut["sources"]] == [s["id"] for s in full["sources"][:2]]
    assert cut["candidates"] == 4


def test_nothing_relevant_returns_no_sources(app: App, backups: list[str]) -> None:
    set_setting(app, "query.confident_threshold", 1.0)
    set_setting(app, "query.score_threshold", 0.5)
    res = _ask(app, ALPHA, "backup")
    assert res["confidence"] == "no_relevant_blocks_found"
    assert res["sources"] == [] and res["candidates"] == 4


def test_sources_below_the_floor_are_dropped(app: App, backups: list[str]) -> None:
    # Text channels only; rank 1 in all three is (0.25 + 0.20 + 0.10) / (k + 1).
    top = _ask(app, ALPHA, "Backup window", limit=10)["sources"]
    assert top[0]["id"] == backups[0]
    assert top[0]["score"] == pytest.approx(0.55 / (_k(app) + 1), rel=1e-6)
    assert len(top) == 4
    set_setting(app, "query.confident_threshold", 0.009)
    set_setting(app, "query.score_threshold", 0.009)
    res = _ask(app, ALPHA, "Backup window", limit=10)
    assert res["confidence"] == "confident"
    assert [s["id"] for s in res["sources"]] == [backups[0]]


# -- response shape ---------------------------------------------------------------------------


def test_limit_default_and_explain(app: App, backups: list[str]) -> None:
    set_setting(app, "query.default_limit", 3)
    res = retrieval.query(app, ALPHA, QueryRequest(query="backup"))
    assert len(res["sources"]) == 3
    assert "channels" not in res["sources"][0]
    one = _ask(app, ALPHA, "Backup script", limit=1)
    assert len(one["sources"]) == 1
    src = one["sources"][0]
    assert src["id"] == backups[1]
    assert set(FUSED) <= set(src["channels"])
    assert src["channels"]["dense"] == {"rank": None, "similarity": None}
    assert "**script**" in src["snippet"]
    assert {"title", "category", "scope", "block_type", "tags", "updated_at"} <= set(src)
    assert one["query"] == "Backup script" and one["took_ms"] >= 0


def test_language_is_reported(app: App) -> None:
    set_setting(app, "query.weight_dense", 0.0)
    de = _ask(app, ALPHA, "Wie wird die Datenbank gesichert?")["language"]
    assert de["language"] == "de" and de["german_signals"]
    en = _ask(app, ALPHA, "How is the database backed up?")["language"]
    assert en == {"language": "en", "german_signals": []}


@pytest.mark.parametrize("k", [10, 60, 200])
def test_thresholds_mean_the_same_for_every_k(app: App, backups: list[str], k: int) -> None:
    # The best a block can score is Σw / (k + 1); thresholds stated for k = 60 follow it.
    set_setting(app, "query.rrf_k", k)
    res = _ask(app, ALPHA, "Backup window", limit=10)
    best = res["sources"][0]["score"]
    assert best == pytest.approx(0.55 / (k + 1), rel=1e-6)
    assert retrieval.threshold_scale(k) * 0.55 / 61 == pytest.approx(best, rel=1e-6)
    assert res["confidence"] == "confident"


def test_snippets_highlight_words_not_german_stopwords(app: App) -> None:
    set_setting(app, "query.weight_dense", 0.0)
    _store(app, ALPHA, "Datenbank", "Wir nutzen die Datenbank PostgreSQL, weil die Suche was kann.")
    res = retrieval.query(app, ALPHA, QueryRequest(query="Welche Datenbank nutzen wir?"))
    snippet = res["sources"][0]["snippet"]
    assert "**Datenbank**" in snippet and "**nutzen**" in snippet
    assert "**die**" not in snippet and "**Wir**" not in snippet and "**was**" not in snippet
