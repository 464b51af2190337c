"""German detection: umlauts, stopwords, domain terms (inflected too); English stays English."""

from __future__ import annotations

import pytest

from ctx.core.retrieval import LanguageGuess, detect_german


@pytest.mark.parametrize(
    ("text", "reasons"),
    [
        ("Wie wird die Sicherung gemacht", ["stopwords:die,wie,wird", "words:gemacht"]),
        ("Größe prüfen", ["umlaut"]),
        ("STRASSE ÜBER", ["umlaut"]),
        ("Datenbanken", ["terms:datenbank"]),
        ("Einbettungen neu berechnen", ["terms:einbettung"]),
        (
            "Welche Entscheidung gilt für die Datenbank?",
            ["umlaut", "stopwords:die,für,welche", "terms:datenbank,entscheidung"],
        ),
        ("Was ist die Schwelle", ["stopwords:die,ist,was"]),
    ],
)
def test_german_is_flagged_with_its_signals(text: str, reasons: list[str]) -> None:
    guess = detect_german(text)
    assert guess.german is True
    assert guess.reasons == reasons
    assert guess.as_dict() == {"language": "de", "german_signals": reasons}


@pytest.mark.parametrize(
    "text",
    [
        "How is the database backed up?",
        "kubernetes ingress timeouts",
        "the deploy checklist for the release",
        # Stopwords that are also English words do not make a query German on their own.
        "Why did the worker die, was it out of memory?",
        "The hat was red",
        "What was the war about",
        "MIT license was chosen",
        "",
    ],
)
def test_english_is_not_flagged(text: str) -> None:
    guess = detect_german(text)
    assert guess == LanguageGuess(german=False, reasons=[])
    assert guess.as_dict() == {"language": "en", "german_signals": []}


def test_one_stopword_is_not_enough_and_signals_are_capped() -> None:
    assert detect_german("die hard").german is False
    many = detect_german("der die das den dem des ein eine und oder")
    assert many.reasons == ["stopwords:das,dem,den,der,des"]


@pytest.mark.parametrize(
    ("text", "signal"),
    [
        ("Was steht am Donnerstag an?", "words:donnerstag,steht"),
        ("Welches Frontend-Framework verwenden wir?", "words:verwenden,welches"),
    ],
)
def test_one_german_only_word_is_enough(text: str, signal: str) -> None:
    assert detect_german(text).reasons == [signal]
