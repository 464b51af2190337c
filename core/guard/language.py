"""Which language a note is written in, English or German, for the Guard's translation check.

A query's language (``ctx.core.retrieval.language``) leans German on one signal, an umlaut or a
German word, because a query is short. A note is longer and may name "Müller" or "Straße" in
English: here the function words of each language are counted, and one language must clearly
outnumber the other (``MARGIN``), with enough of them to tell (``MIN_HITS``); else None.
"""

from __future__ import annotations

import re

from ctx.core.stopwords import GERMAN_STOPWORDS

# Function words that are English only (no German word is spelled the same).
_ENGLISH = (
    "the a an and or but of to in on at for with by from is are was were be been has have had "
    "will would should can could not no it its this that these those we our you your they their "
    "he she his her which who what when where after before every each all any into over than "
    "then there here must may only just"
)
ENGLISH_WORDS = frozenset(_ENGLISH.split()) - frozenset(
    ["an", "in", "was", "will"]
)  # German words too
# German stopwords that are everyday English words too ("die", "was", "hat"): no signal here.
_SHARED = frozenset(["die", "was", "hat", "im", "war", "er", "den", "an", "in", "so", "also"])
_GERMAN = (
    "wird werden am vom beim ab bis um durch gegen ohne seit jeden jede jeder alle dieser "
    "diese dieses unser unsere wenn weil dann"
)
GERMAN_WORDS = (GERMAN_STOPWORDS | frozenset(_GERMAN.split())) - _SHARED
MIN_HITS = 3
MARGIN = 2.0  # one language's function words outnumber the other's at least this many times
_WORD = re.compile(r"[^\W\d_]+")


def note_language(text: str) -> str | None:
    """``en``, ``de``, or None when the text does not tell."""
    words = [w.casefold() for w in _WORD.findall(text)]
    en = sum(1 for w in words if w in ENGLISH_WORDS)
    de = sum(1 for w in words if w in GERMAN_WORDS)
    if max(en, de) < MIN_HITS:
        return None
    if en >= MARGIN * de:
        return "en"
    if de >= MARGIN * en:
        return "de"
    return None
