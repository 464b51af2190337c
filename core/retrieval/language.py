"""Is this query German? Umlauts or ß, two or more German stopwords, or one domain term.

The answer feeds the response (and, with a translate backend, the search-query translation); it
never changes which channels run: English and German full-text search both run on every query.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ctx.core.stopwords import GERMAN_STOPWORDS

DOMAIN_TERMS = frozenset(
    [
        "schreibschutz",
        "sicherheitstrennung",
        "duplikat",
        "duplikaterkennung",
        "kontextspeicher",
        "einbettung",
        "schwellenwert",
        "zugriffsschlüssel",
        "datenbank",
        "entscheidung",
        "suche",
        "speicher",
        "wissensblock",
        "abfrage",
        "bereich",
        "berechtigung",
    ]
)
# Everyday German words that are no English words: one is enough ("Was steht am Donnerstag an?",
# "Welches Frontend-Framework verwenden wir?"). Whole words only.
GERMAN_WORDS = frozenset(
    [
        "montag", "dienstag", "mittwoch", "donnerstag", "freitag", "samstag", "sonntag",
        "januar", "februar", "juni", "juli", "oktober", "dezember",
        "heute", "gestern", "morgen", "vorgestern", "übermorgen", "woche", "monat", "jahr",
        "steht", "gibt", "findet", "welches", "welchem", "welchen", "verwenden", "verwendet",
        "benutzen", "nutzen", "machen", "gemacht", "geplant", "besprochen", "wurden", "haben",
    ]
)  # fmt: skip
# Stopwords that are also everyday English words ("what was the hat", "did it die"): they count
# only next to a stopword that is German alone.
ENGLISH_HOMOGRAPHS = frozenset(["den", "die", "er", "hat", "im", "mit", "von", "war", "was"])
WORD_RE = re.compile(r"[a-zäöüß]+", re.IGNORECASE)
UMLAUT_RE = re.compile(r"[äöüßÄÖÜ]")


@dataclass
class LanguageGuess:
    german: bool
    reasons: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return {"language": "de" if self.german else "en", "german_signals": self.reasons}


def detect_german(text: str) -> LanguageGuess:
    reasons = []
    if UMLAUT_RE.search(text):
        reasons.append("umlaut")
    words = [w.lower() for w in WORD_RE.findall(text)]
    stop_hits = sorted({w for w in words if w in GERMAN_STOPWORDS})
    if len(stop_hits) >= 2 and any(w not in ENGLISH_HOMOGRAPHS for w in stop_hits):
        reasons.append("stopwords:" + ",".join(stop_hits[:5]))
    german_words = sorted({w for w in words if w in GERMAN_WORDS})
    if german_words:
        reasons.append("words:" + ",".join(german_words[:5]))
    # Prefix match so inflected forms count too (Datenbanken, Einbettungen).
    terms = sorted({t for w in words for t in DOMAIN_TERMS if w.startswith(t)})
    if terms:
        reasons.append("terms:" + ",".join(terms[:5]))
    return LanguageGuess(german=bool(reasons), reasons=reasons)
