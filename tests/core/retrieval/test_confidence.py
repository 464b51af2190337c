"""The confidence class: from the evidence of the best hits (similarity bands, coverage of the
question's words), or from the fused score with the seed's thresholds."""

from __future__ import annotations

import pytest

from ctx.core import App, Principal, QueryRequest, StoreRequest, ValidationError, blocks, retrieval
from ctx.core.retrieval.confidence import (
    CONFIDENT,
    LOW_CONFIDENCE,
    NOTHING_FOUND,
    Bands,
    Evidence,
    classify_evidence,
    word_hits,
)
from ctx.core.runtime import drain, set_setting

ALPHA = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")
BETA = Principal(key_id="00000000-0000-0000-0000-0000000000b1", name="b", home_scope="beta")
BANDS = Bands(0.80, 0.85, 0.4, 0.5, 0.3, 0.1)
WORDS_ONLY = Bands(None, None, 0.4, 0.5, 0.3, 0.1)

ALPHA_NOTES = [
    ("Support group", "Caroline went to the LGBTQ support group on Sunday and felt welcome."),
    ("Pottery", "Melanie signed up for a pottery class with her kids."),
    ("Adoption", "Caroline is researching adoption agencies for next year."),
]
BETA_NOTES = [
    ("Garage", "Jon fixed the garage door and repainted the shed."),
    ("Dance studio", "Gina opened a dance studio downtown after losing her job."),
    ("Marathon", "Jon is training for the city marathon in October."),
]


@pytest.mark.parametrize(
    ("similarity", "cov", "expected"),
    [
        (0.86, 0.0, CONFIDENT),  # close enough on meaning alone
        (0.82, 0.45, CONFIDENT),  # related, and the hits contain the question's words
        (0.82, 0.2, LOW_CONFIDENCE),  # related, few of its words
        (0.70, 0.6, LOW_CONFIDENCE),  # unrelated by meaning, but many of the words are there
        (0.70, 0.85, CONFIDENT),  # nearly every word of the question, rare ones included
        (0.70, 0.3, NOTHING_FOUND),
        (0.70, None, NOTHING_FOUND),
    ],
)
def test_bands_and_coverage_decide_the_class(
    similarity: float, cov: float | None, expected: str
) -> None:
    assert classify_evidence(Evidence(similarity, cov), BANDS) == expected


@pytest.mark.parametrize(
    ("cov", "expected"), [(0.3, CONFIDENT), (0.2, LOW_CONFIDENCE), (0.05, NOTHING_FOUND)]
)
def test_without_calibrated_similarity_the_words_decide(cov: float, expected: str) -> None:
    assert classify_evidence(Evidence(0.99, cov), WORDS_ONLY) == expected  # bands unknown
    assert classify_evidence(Evidence(None, cov), BANDS) == expected  # no dense channel
    assert classify_evidence(Evidence(None, cov), WORDS_ONLY) == expected


def _fill(app: App) -> dict[str, str]:
    ids = {}
    for who, notes in ((ALPHA, ALPHA_NOTES), (BETA, BETA_NOTES)):
        for title, content in notes:
            ids[title] = str(
                blocks.store_block(app, who, StoreRequest(title=title, content=content))["id"]
            )
    drain(app, "embed")
    drain(app, "scope_terms")
    return ids


def coverage(conn: object, query: str, german: bool, scopes: list[str], ids: list[str]) -> object:
    return word_hits(conn, query, german, scopes, ids).coverage()  # type: ignore[arg-type]


def test_coverage_weighs_the_question_words_the_hits_contain(app: App) -> None:
    ids = _fill(app)
    with app.connection() as conn:
        full = coverage(
            conn, "Caroline LGBTQ support group", False, ["alpha"], [ids["Support group"]]
        )
        none = coverage(conn, "Caroline LGBTQ support group", False, ["alpha"], [ids["Pottery"]])
        part = coverage(conn, "Caroline pottery", False, ["alpha"], [ids["Adoption"]])
        empty = coverage(conn, "what is it?", False, ["alpha"], [ids["Pottery"]])
    assert full == pytest.approx(1.0)
    assert none == pytest.approx(0.0)
    assert part is not None and 0.0 < part < 1.0
    assert empty is None  # stopwords only: nothing to cover


def test_a_question_the_store_can_answer_is_confident_and_one_it_cannot_is_not(app: App) -> None:
    _fill(app)
    q = "When did Caroline go to the LGBTQ support group?"
    own = retrieval.query(app, ALPHA, QueryRequest(query=q, explain=True))
    assert own["confidence"] == CONFIDENT
    assert own["sources"][0]["title"] == "Support group"
    notes = next(s["notes"] for s in own["stages"] if s["name"] == "thresholds")
    assert notes["similarity"] >= 0.85 or notes["coverage"] >= 0.4
    other = retrieval.query(app, BETA, QueryRequest(query=q, explain=True))
    assert other["confidence"] == NOTHING_FOUND
    # the class is a label: the nearest blocks stay, and a warning says what they are
    assert "Support group" not in {s["title"] for s in other["sources"]}
    assert "nothing clearly answers this; the sources are the nearest blocks" in other["warnings"]
    set_setting(app, "query.confidence_cut", "cut")  # the seed's: nothing found, no sources
    assert retrieval.query(app, BETA, QueryRequest(query=q))["sources"] == []


def test_the_seed_score_thresholds_stay_available(app: App) -> None:
    _fill(app)
    set_setting(app, "query.confidence", "score")
    q = "When did Caroline go to the LGBTQ support group?"
    other = retrieval.query(app, BETA, QueryRequest(query=q, explain=True))
    notes = next(s["notes"] for s in other["stages"] if s["name"] == "thresholds")
    assert "coverage" not in notes  # the evidence was not consulted
    assert other["confidence"] != NOTHING_FOUND  # rank fusion always finds a "best" block


def test_explicit_bands_override_the_embedders(app: App) -> None:
    _fill(app)
    set_setting(app, "query.related_similarity", 0.99)
    set_setting(app, "query.confident_similarity", 0.995)
    q = "When did Caroline go to the LGBTQ support group?"
    res = retrieval.query(app, ALPHA, QueryRequest(query=q))
    # Nothing is that similar: the words (all covered) make it confident only when related,
    # so the class falls to low confidence.
    assert res["confidence"] == LOW_CONFIDENCE


@pytest.mark.parametrize(
    ("changes", "needle"),
    [
        (
            {"query.related_similarity": 0.9, "query.confident_similarity": 0.8},
            "must not exceed query.confident_similarity",
        ),
        ({"query.words_floor_coverage": 0.5}, "words_floor_coverage must not exceed"),
    ],
)
def test_inconsistent_bands_are_refused(app: App, changes: dict[str, float], needle: str) -> None:
    with pytest.raises(ValidationError, match=needle):
        for key, value in changes.items():
            set_setting(app, key, value)
