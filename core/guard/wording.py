"""Do two texts say the same thing in the same words? The Guard's check before it archives.

Embeddings score a note whose backup time changed from 02:00 to 03:30, or whose decision flipped
from "keep" to "drop", as high as a copy (0.996-1.0 with multilingual-e5-small on our pair set),
so similarity alone would archive the newer fact. A copy must also use the same words: after
case, punctuation, Markdown and line breaks are set aside, the only differences allowed are
function words (a dropped "the") and typos (one edit in a word of six letters or more, in its
place; see ``_typo``).
Numbers, dates, names and content words must all be there on both sides, in the same order.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

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
CALENDAR_WORDS = frozenset(
    [
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
        "sunday",
        "montag",
        "dienstag",
        "mittwoch",
        "donnerstag",
        "freitag",
        "samstag",
        "sonntag",
        "january",
        "february",
        "march",
        "april",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "januar",
        "februar",
        "märz",
        "juni",
        "juli",
        "oktober",
        "dezember",
    ]
)
TYPO_EDITS = 1
TYPO_MIN_LENGTH = 6


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


def _tokens(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in FUNCTION_WORDS]


def _typo(a: str, b: str) -> bool:
    """A misspelling, not another word: one edit (an adjacent swap counts one) in a word of six
    letters or more, the first letter kept, no digit in either ("server01" / "server02" differ),
    no name of a weekday or month changed."""
    return (
        min(len(a), len(b)) >= TYPO_MIN_LENGTH
        and a[0] == b[0]
        and not any(ch.isdigit() for ch in a + b)
        and not ({a, b} & CALENDAR_WORDS)
        and _within(a, b, TYPO_EDITS)
    )


def word_changes(a: str, b: str) -> tuple[list[str], list[str]]:
    """The words only ``a`` has and only ``b`` has, in order; two empty lists mean the texts say
    the same in the same words in the same order. A typo (``_typo``: one edit in a word of six
    letters or more, in its place) is no change; a word moved elsewhere is ("Alice pays Bob" / "Bob pays Alice")."""
    ta, tb = _tokens(a), _tokens(b)
    only_a: list[str] = []
    only_b: list[str] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, ta, tb, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        left, right = ta[i1:i2], tb[j1:j2]
        if op == "replace" and len(left) == len(right):
            pairs = [(x, y) for x, y in zip(left, right, strict=True) if not _typo(x, y)]
            only_a += [x for x, _ in pairs]
            only_b += [y for _, y in pairs]
        else:
            only_a += left
            only_b += right
    return only_a, only_b
