"""Do two texts say the same thing in the same words? The Guard's check before it archives.

Embeddings score a note whose backup time changed from 02:00 to 03:30, or whose decision flipped
from "keep" to "drop", as high as a copy (0.996-1.0 with multilingual-e5-small on our pair set),
so similarity alone would archive the newer fact. A copy must also use the same words: after
case, punctuation, Markdown and line breaks are set aside, the only differences allowed are
function words (a dropped "the") and typos (a word within two edits of one in the other text).
Numbers, dates, names and content words must all be there on both sides.
"""

from __future__ import annotations

import re
from collections import Counter

_WORD = re.compile(r"\w+", re.UNICODE)
# Words whose presence or absence does not change what a note says (English and German).
FUNCTION_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "and",
        "or",
        "of",
        "to",
        "in",
        "on",
        "at",
        "for",
        "with",
        "by",
        "from",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "there",
        "here",
        "so",
        "then",
        "than",
        "also",
        "just",
        "very",
        "der",
        "die",
        "das",
        "den",
        "dem",
        "des",
        "ein",
        "eine",
        "einen",
        "einem",
        "einer",
        "eines",
        "und",
        "oder",
        "zu",
        "im",
        "in",
        "am",
        "an",
        "auf",
        "für",
        "mit",
        "von",
        "vom",
        "zum",
        "zur",
        "bei",
        "als",
        "ist",
        "sind",
        "war",
        "waren",
        "es",
        "sich",
        "so",
        "dann",
        "auch",
        "noch",
        "nur",
        "sehr",
    ]
)
TYPO_EDITS = 2
TYPO_MIN_LENGTH = 5


def _within(a: str, b: str, limit: int) -> bool:
    """Damerau-Levenshtein distance (adjacent swaps count one) of at most ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return False
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return False
        prev2, prev = prev, cur
    return prev[-1] <= limit


def _words(text: str) -> Counter[str]:
    return Counter(w for w in _WORD.findall(text.lower()) if w not in FUNCTION_WORDS)


def word_changes(a: str, b: str) -> tuple[list[str], list[str]]:
    """The words only ``a`` has and only ``b`` has, typos paired off; two empty lists mean the
    texts say the same in the same words."""
    wa, wb = _words(a), _words(b)
    only_a = list((wa - wb).elements())
    only_b = list((wb - wa).elements())
    for word in list(only_a):
        if len(word) < TYPO_MIN_LENGTH or word.isdigit():
            continue
        twin = next((w for w in only_b if not w.isdigit() and _within(word, w, TYPO_EDITS)), None)
        if twin is not None:
            only_a.remove(word)
            only_b.remove(twin)
    return sorted(only_a), sorted(only_b)
