"""Do two texts say the same thing in the same words? The Guard's check before it archives.

Embeddings score a note whose backup time changed from 02:00 to 03:30, or whose decision flipped
from "keep" to "drop", as high as a copy (0.996-1.0 with multilingual-e5-small on our pair set),
so similarity alone would archive the newer fact. A copy must also use the same words: after
case, punctuation, quotes, Markdown (emphasis, headings, code marks, bullets), line breaks and
the order of bullet items are set aside, the only differences allowed are spelling variants
("colour" / "color", "Straße" / "Strasse", "für" / "fuer"; see ``canonical``), dropped function
words (a "the") and typos (see ``_typo``). Numbers, dates, names and content words must all be
there on both sides, in the same order; a function word put in another's place ("from A to B" /
"to A from B", "und" / "oder") is a change.
"""

from __future__ import annotations

import re
import unicodedata
from difflib import SequenceMatcher

# Letters and digits; "_" is Markdown emphasis (_word_, __word__), not part of a word.
_WORD = re.compile(r"[^\W_]+")
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
        "mai",
    ]
)
# Number words: "two" / "tow" may be a typo, but "drei" / "frei" must never count as one.
NUMBER_WORDS = frozenset(
    [
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "twenty",
        "hundred",
        "thousand",
        "million",
        "billion",
        "first",
        "second",
        "third",
        "half",
        "double",
        "eins",
        "zwei",
        "drei",
        "vier",
        "fuenf",
        "sechs",
        "sieben",
        "acht",
        "neun",
        "zehn",
        "elf",
        "zwoelf",
        "zwanzig",
        "hundert",
        "tausend",
        "millionen",
        "milliarde",
        "erste",
        "zweite",
        "dritte",
        "halb",
        "halbe",
        "doppelt",
    ]
)
# Spelling variants written one way: British -> American endings, and (by ``canonical``)
# German umlauts as ae/oe/ue and ß as ss. Applied to both texts, so a rule can only ever make two
# spellings of one word equal; each needs a stem long enough that no short word ("hour", "four")
# changes.
_VARIANTS = (
    (re.compile(r"(?<=[a-z]{2})our(s|ed|ing|ite|ites|able|ably|er|ers)?$"), r"or\1"),  # colour
    (re.compile(r"(?<=[a-z]{3})is(e|es|ed|ing|er|ers|ation|ations)$"), r"iz\1"),  # organise
    (re.compile(r"(?<=[a-z]{2})ys(e|es|ed|ing)$"), r"yz\1"),  # analyse
    (re.compile(r"(?<=[a-z]{2})tre(s)?$"), r"ter\1"),  # centre
    (re.compile(r"(?<=[a-z]{3})ll(ed|ing)$"), r"l\1"),  # cancelled
    (re.compile(r"(?<=[a-z]{3})ence$"), "ense"),  # licence
    (re.compile(r"(?<=[a-z]{3})ogue(s)?$"), r"og\1"),  # catalogue
    (re.compile(r"^grey$"), "gray"),
    (re.compile(r"^programme(s)?$"), r"program\1"),
)
_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue"})
TYPO_MIN_LENGTH = 6  # one edit from here on
TWO_EDITS_MIN_LENGTH = 8  # two edits from here on
# A capitalised word may be a name ("Maria" / "Mario", "Schäfer" /
# "Schäffer"): one edit only from twelve letters on, where German compounds are and names rarely.
NAME_TYPO_MIN_LENGTH = 12


def canonical(word: str) -> str:
    """The one spelling of a word the check compares: case, Unicode forms, umlauts and the
    variants in ``_VARIANTS`` set aside."""
    w = unicodedata.normalize("NFKC", word).casefold().translate(_UMLAUTS)
    for pattern, repl in _VARIANTS:
        w = pattern.sub(repl, w)
    return w


_FUNCTION = frozenset(canonical(w) for w in FUNCTION_WORDS)
_PROTECTED = frozenset(canonical(w) for w in CALENDAR_WORDS | NUMBER_WORDS)


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


def _swapped(a: str, b: str) -> bool:
    """Two neighbouring letters swapped ("teh" / "the", "wiht" / "with")."""
    if len(a) != len(b) or a == b:
        return False
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    return (
        len(diff) == 2
        and diff[1] == diff[0] + 1
        and a[diff[0]] == b[diff[1]]
        and (a[diff[1]] == b[diff[0]])
    )


def _words(text: str) -> tuple[list[str], list[bool]]:
    """The canonical words of a text and, for each, whether it may be a name: capitalised,
    wherever it stands ("Owner: Christiane", "- Katrin" start an item and are names still)."""
    words = _WORD.findall(text)
    return [canonical(w) for w in words], [w[:1].isupper() for w in words]


def _typo(a: str, b: str, name: bool = False) -> bool:
    """A misspelling, not another word. Never when a digit is involved ("server01" /
    "server02"). Two neighbours swapped, in a word of three letters or more ("teh" / "the",
    "Mondya" / "Monday"); nothing else when a weekday, a month or a number word is involved
    ("Monday" / "Sunday", "Monday" / "Mondays", "drei" / "frei"). Else, with the first letter
    kept, one edit in a word of six letters or more or two in one of eight or more ("recieve" /
    "receive"; "plans" / "plant" and "cat" / "cut" are other words). A word capitalised in both
    texts, wherever it stands, may be a name ("Maria" / "Mario", "Schäfer" / "Schäffer"): one edit, in twelve
    letters or more (a German compound: "Wiederherstelungstest"), the last two letters kept
    ("Gabriele" / "Gabriela" are two people)."""
    if any(ch.isdigit() for ch in a + b) or min(len(a), len(b)) < 3:
        return False
    if _swapped(a, b):
        return not {a, b} <= _PROTECTED  # "Mondya" / "Monday", never one month for another
    if a[0] != b[0] or {a, b} & _PROTECTED:  # "Monday" / "Mondays" is a change
        return False
    shortest = min(len(a), len(b))
    if name:
        edits = 1 if shortest >= NAME_TYPO_MIN_LENGTH and a[-2:] == b[-2:] else 0
    else:
        edits = 2 if shortest >= TWO_EDITS_MIN_LENGTH else 1 if shortest >= TYPO_MIN_LENGTH else 0
    return edits > 0 and _within(a, b, edits)


def _unmatched(
    left: list[tuple[str, bool]], right: list[tuple[str, bool]]
) -> tuple[list[str], list[str]]:
    """The words of one differing stretch that are changes: word for word when the stretches are
    as long, typos set aside; then a function word dropped or added is no change, one put in
    another's place is."""
    if len(left) == len(right):
        kept = [(x, y) for x, y in zip(left, right, strict=True)
                if not _typo(x[0], y[0], x[1] and y[1])]  # fmt: skip
        left, right = [x for x, _ in kept], [y for _, y in kept]
    dropped = [w for w in left if w[0] in _FUNCTION]
    added = [w for w in right if w[0] in _FUNCTION]
    if (dropped or added) and not (dropped and added):
        left = [w for w in left if w[0] not in _FUNCTION]
        right = [w for w in right if w[0] not in _FUNCTION]
        if len(left) == len(right):
            return _unmatched(left, right)
    return [w for w, _ in left], [w for w, _ in right]


def _changes(
    a: tuple[list[str], list[bool]], b: tuple[list[str], list[bool]]
) -> tuple[list[str], list[str]]:
    (ka, na), (kb, nb) = a, b
    only_a: list[str] = []
    only_b: list[str] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, ka, kb, autojunk=False).get_opcodes():
        if op != "equal":
            here, there = _unmatched(
                list(zip(ka[i1:i2], na[i1:i2], strict=True)),
                list(zip(kb[j1:j2], nb[j1:j2], strict=True)),
            )
            only_a += here
            only_b += there
    return only_a, only_b


_BULLET = re.compile(r"^\s*[-*+•]\s+", re.MULTILINE)


def _bullets_sorted(text: str) -> str:
    """The text with each run of bullet items in one order. Only bullets: the order of a
    numbered list ("1. Alice 2. Bob") can be what it says."""
    lines = text.splitlines()
    out: list[str] = []
    run: list[str] = []
    for line in [*lines, ""]:
        if _BULLET.match(line):
            run.append(line)
            continue
        out += sorted(run, key=lambda item: [k for k in _words(item)[0] if k not in _FUNCTION])
        run = []
        out.append(line)
    return "\n".join(out)


_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+(.+)$", re.MULTILINE)
HEADING_PREFIX_MIN_LENGTH = 5  # "Festplatte" over "Festplattenbelegung": a compound's head


def _repeats(heading: str, known: set[str]) -> bool:
    """A heading that names only what the notes say already (their titles included), and no
    number: Markdown structure, not content ("# Backups" over a note about backups)."""
    words = [k for k in _words(heading)[0] if k not in _FUNCTION]
    return not any(ch.isdigit() for ch in heading) and all(
        w in known or (len(w) >= HEADING_PREFIX_MIN_LENGTH and any(k.startswith(w) for k in known))
        for w in words
    )


def _structure_aside(text: str, known: set[str], sort: bool) -> str:
    """The text without headings that repeat the notes; with ``sort``, its bullet items in one
    order."""
    text = _HEADING.sub(lambda m: "" if _repeats(m.group(1), known) else m[0], text)
    return _bullets_sorted(text) if sort else text


def word_changes(a: str, b: str, titles: str = "") -> tuple[list[str], list[str]]:
    """The words only ``a`` has and only ``b`` has, in order (canonical spellings); two empty
    lists mean the texts say the same in the same words in the same order, formatting aside:
    case, punctuation, quotes, Markdown, line breaks, spelling variants (``canonical``), dropped
    function words and typos (``_typo``), and, when that is all that is left, the order of
    bullet items and headings that repeat what the notes (and ``titles``) say. A word moved
    elsewhere is a change ("Alice pays Bob" / "Bob pays Alice")."""
    changes = _changes(_words(a), _words(b))
    if changes == ([], []):
        return changes
    body = _HEADING.sub("", a + "\n" + b + "\n" + titles)
    known = set(_words(body)[0])
    # Only a heading added on one side is set aside: when both have headings, they are compared
    # ("# Decision: keep" / "# Decision: drop" over the same discussion are two decisions).
    known_a = known if not _HEADING.search(b) else set()
    known_b = known if not _HEADING.search(a) else set()
    for sort in (False, True):  # bullets sorted on one side only would hide a prose copy
        aside = _structure_aside(a, known_a, sort), _structure_aside(b, known_b, sort)
        if _changes(_words(aside[0]), _words(aside[1])) == ([], []):
            return [], []
    return changes


def changed_stretches(old: str, new: str, titles: str = "") -> list[tuple[str, str]]:
    """Where ``new`` says something else than ``old``: each changed stretch as (before, after)
    in the texts' own words, in order, an empty side for words removed or added. What
    ``word_changes`` sets aside (case, punctuation, Markdown, spelling variants, typos, dropped
    function words, headings that repeat the notes) is no stretch; the order of bullets is."""
    body = _HEADING.sub("", old + "\n" + new + "\n" + titles)
    known = set(_words(body)[0])
    sides = []
    for text, other in ((old, new), (new, old)):
        plain = _structure_aside(text, known if not _HEADING.search(other) else set(), False)
        spans = [m.span() for m in _WORD.finditer(plain)]
        sides.append((_Quoted(plain, spans), *_words(plain)))
    (wa, ka, na), (wb, kb, nb) = sides
    out: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, ka, kb, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        here, there = _unmatched(
            list(zip(ka[i1:i2], na[i1:i2], strict=True)),
            list(zip(kb[j1:j2], nb[j1:j2], strict=True)),
        )
        if here or there:
            out.append((wa.between(i1, i2), wb.between(j1, j2)))
    return out


_JOINERS = frozenset(".,:/-")


class _Quoted:
    """A text and its words' spans: a stretch of words quoted as written ("02:00", not "02 00")."""

    def __init__(self, text: str, spans: list[tuple[int, int]]) -> None:
        self.text, self.spans = text, spans

    def between(self, first: int, end: int) -> str:
        """Words ``first`` to ``end`` (exclusive), widened to whole values: "02" of "02:00"."""
        if first >= end:
            return ""
        while first > 0 and self._joined(first - 1):
            first -= 1
        while end < len(self.spans) and self._joined(end - 1):
            end += 1
        return " ".join(self.text[self.spans[first][0] : self.spans[end - 1][1]].split())

    def _joined(self, k: int) -> bool:
        """Word ``k`` and the next are one value ("02:00", "2026-09-30", "4,200")."""
        gap = self.text[self.spans[k][1] : self.spans[k + 1][0]]
        return len(gap) == 1 and gap in _JOINERS
