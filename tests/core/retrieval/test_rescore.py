"""The rescore stage: the head of the fused list re-ordered by normalised channel scores."""

from __future__ import annotations

import uuid
from datetime import date

from ctx.core import App, Candidate, Principal, QueryRequest, StoreRequest, blocks, retrieval
from ctx.core.retrieval.pipeline import QueryRun
from ctx.core.retrieval.rescore import rescore, rescore_weights
from ctx.core.runtime import drain, set_setting
from ctx.core.temporal import TemporalResult

ALPHA = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")
ALL_ON = {"dense": 0.45, "fts_en": 0.25, "fts_de": 0.2, "trigram": 0.1, "dates": 0.5}


def _run(app: App, query: str = "q", language: str = "en", coverage: bool = False) -> QueryRun:
    """A run as the stages before rescore leave it; without the coverage feature unless asked
    (these candidates are not stored blocks)."""
    if not coverage:
        set_setting(app, "query.rescore_weight_coverage", 0.0)
        set_setting(app, "query.rescore_text_coverage", 0.0)
    run = QueryRun(app, ALPHA, QueryRequest(query=query), weights=dict(ALL_ON))
    run.language = {"language": language}
    run.scopes = ["alpha"]
    return run


def _id(name: str) -> str:
    """A block id for a name (not stored: the policy factor of an unknown block is 1)."""
    return str(uuid.uuid5(uuid.NAMESPACE_OID, name))


def _cand(name: str, score: float, **scores: float) -> Candidate:
    ranks = {channel: 1 for channel in scores}
    return Candidate(_id(name), score, ranks=dict(ranks), channel_scores=dict(scores))


def _names(cands: list[Candidate]) -> list[str]:
    by_id = {_id(n): n for n in ("narrow", "strong", "middle", "tail", "a", "b", "english",
                                  "german", "dated", "topical")}  # fmt: skip
    return [by_id[c.block_id] for c in cands]


def test_the_head_is_reordered_by_channel_strength_and_keeps_its_scores(app: App) -> None:
    cands = [
        _cand("narrow", 0.09, dense=0.80, fts_en=0.10),  # first by rank, weak on both
        _cand("strong", 0.08, dense=0.90, fts_en=0.90),  # far ahead on both channels
        _cand("middle", 0.07, dense=0.85, fts_en=0.30),
        _cand("tail", 0.01, dense=0.99, fts_en=0.99),  # beyond the depth: stays where it is
    ]
    set_setting(app, "query.rescore_depth", 3)
    out = rescore(_run(app), cands)
    assert _names(out) == ["strong", "middle", "narrow", "tail"]
    assert [c.score for c in out] == [0.09, 0.08, 0.07, 0.01]  # the same scale, handed out again
    assert out[0].factors["rescore"] == round(0.09 / 0.08, 6)
    assert "rescore" not in out[3].factors


def test_depth_zero_keeps_the_fusion_order(app: App) -> None:
    set_setting(app, "query.rescore_depth", 0)
    cands = [_cand("a", 0.09, dense=0.1), _cand("b", 0.08, dense=0.9)]
    assert _names(rescore(_run(app), cands)) == ["a", "b"]


def test_the_query_language_decides_which_full_text_channel_weighs_more(app: App) -> None:
    en, de = rescore_weights(_run(app)), rescore_weights(_run(app, language="de"))
    assert en["fts_en"] == de["fts_de"] == 0.5
    assert en["fts_de"] == de["fts_en"] == 0.1
    assert "dates" not in en
    cands = [
        _cand("english", 0.09, fts_en=0.9, fts_de=0.1),
        _cand("german", 0.08, fts_en=0.1, fts_de=0.9),
    ]
    assert _names(rescore(_run(app, language="de"), cands))[0] == "german"


def test_a_channel_the_query_switched_off_does_not_count(app: App) -> None:
    run = _run(app)
    run.weights["dense"] = 0.0
    assert rescore_weights(run)["dense"] == 0.0


def test_when_the_query_names_a_time_lying_in_it_counts(app: App) -> None:
    run = _run(app)
    run.temporal = TemporalResult.single(date(2026, 3, 17), "past", {"linear": 1.0})
    assert rescore_weights(run)["dates"] == 0.5
    in_time = Candidate(_id("dated"), 0.08, ranks={"dates": 1}, channel_scores={"dense": 0.80})
    other = _cand("topical", 0.09, dense=0.84)
    assert _names(rescore(run, [other, in_time])) == ["dated", "topical"]


def test_the_block_with_the_rarer_question_words_moves_up(app: App) -> None:
    notes = {
        "common": "The team met and the team talked about the team plan.",
        "rare": "The zeppelin permit arrived for the team.",
    }
    ids = {
        key: str(blocks.store_block(app, ALPHA, StoreRequest(title=key, content=text))["id"])
        for key, text in notes.items()
    }
    for _ in range(3):  # "team" becomes common in the scope, "zeppelin" stays rare
        blocks.store_block(app, ALPHA, StoreRequest(title=f"x{_}", content="team lunch"))
    drain(app, "scope_terms")
    run = _run(app, query="team zeppelin permit", coverage=True)
    for key in ("dense", "fts", "fts_other", "dates"):  # the coverage alone decides here
        set_setting(app, f"query.rescore_weight_{key}", 0.0)
    cands = [Candidate(ids["common"], 0.09), Candidate(ids["rare"], 0.08)]
    assert [c.block_id for c in rescore(run, cands)] == [ids["rare"], ids["common"]]


def test_explain_shows_the_stage(app: App) -> None:
    for title, content in (
        ("Bike", "The blue bike has new lights."),
        ("Car", "The car needs tyres."),
    ):
        blocks.store_block(app, ALPHA, StoreRequest(title=title, content=content))
    drain(app, "embed")
    res = retrieval.query(app, ALPHA, QueryRequest(query="bike lights", explain=True))
    stage = next(s for s in res["stages"] if s["name"] == "rescore")
    assert stage["in"] == stage["out"] >= 2
    assert stage["notes"]["depth"] >= 2
    assert res["sources"][0]["title"] == "Bike"


def test_a_damped_type_is_not_put_first_by_its_strength(app: App) -> None:
    from ctx.core.blocks.types import update_type

    with app.connection() as conn:
        update_type(conn, "reference", {"retrieval_policy": "damped", "retrieval_factor": 0.1})
    strong = blocks.store_block(
        app, ALPHA, StoreRequest(title="strong", content="zeppelin permit", block_type="reference")
    )
    weak = blocks.store_block(app, ALPHA, StoreRequest(title="weak", content="permit"))
    other = blocks.store_block(app, ALPHA, StoreRequest(title="other", content="a permit form"))
    run = _run(app)
    cands = [
        Candidate(str(weak["id"]), 0.09, ranks={"fts_en": 2}, channel_scores={"fts_en": 0.5}),
        Candidate(str(strong["id"]), 0.08, ranks={"fts_en": 1}, channel_scores={"fts_en": 0.9}),
        Candidate(str(other["id"]), 0.07, ranks={"fts_en": 3}, channel_scores={"fts_en": 0.1}),
    ]
    # By strength alone the damped block would lead (normalised 1.0 against 0.5); its type's
    # factor 0.1 keeps it behind.
    assert next(c.block_id for c in rescore(run, cands)) == str(weak["id"])
    with app.connection() as conn:
        update_type(conn, "reference", {"retrieval_policy": "normal"})
    assert next(c.block_id for c in rescore(run, cands)) == str(strong["id"])


def test_a_text_match_counts_as_far_as_it_holds_the_question(app: App) -> None:
    notes = {
        "lone": "The zeppelin museum opens on Sunday.",
        "full": "The zeppelin permit for the hangar arrived.",
    }
    ids = {
        key: str(blocks.store_block(app, ALPHA, StoreRequest(title=key, content=text))["id"])
        for key, text in notes.items()
    }
    drain(app, "scope_terms")
    run = _run(app, query="zeppelin permit hangar", coverage=True)
    set_setting(app, "query.rescore_weight_coverage", 0.0)  # only the text channel's pull
    set_setting(app, "query.rescore_weight_dense", 0.1)

    def head() -> list[Candidate]:
        return [
            Candidate(ids["lone"], 0.09, ranks={"fts_en": 1}, channel_scores={"fts_en": 0.9}),
            Candidate(
                ids["full"], 0.08, ranks={"dense": 1, "fts_en": 2},
                channel_scores={"dense": 0.9, "fts_en": 0.1},
            ),
        ]  # fmt: skip

    set_setting(app, "query.rescore_text_coverage", 0.0)
    assert [c.block_id for c in rescore(run, head())] == [ids["lone"], ids["full"]]
    set_setting(app, "query.rescore_text_coverage", 1.0)
    run.word_hits = []
    assert [c.block_id for c in rescore(run, head())] == [ids["full"], ids["lone"]]
