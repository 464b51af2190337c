"""Language data for the rule matchers, and the tokenizer that maps words onto language-free tokens.

A language plugin fills in a ``Lexicon``; ``Lexicon.analyse`` turns "letzten Dienstag" and "last
Tuesday" into the same token stream (``rel -1``, ``wd 1``), so the rules in ``ctx.core.temporal.rules``
are written once for every language.

Token kinds and their values:

``kw`` day offset (today 0, yesterday -1) · ``wd`` weekday 0=Mon..6=Sun · ``mon`` month 1-12 ·
``rel`` relative modifier (last -1, this 0, next 1, week after next 2) · ``unit`` day/week/month/
quarter/year · ``seg`` start/mid/end · ``tod`` hour of day · ``num`` · ``year`` · ``ord`` ordinal ·
``q`` quarter number · ``cw`` calendar-week number · ``iso`` a date · ``hol`` holiday key ·
``weekend`` · ``since`` · ``until`` · ``from`` · ``to`` · ``between`` · ``and`` · ``or`` · ``ago`` ·
``before`` · ``after`` · ``in`` · ``fromnow`` · ``half`` · ``around`` · ``part`` (the part of a
period before or after today: "earlier", "so far", "rest of"; value ``before``/``after``, or None
when the tense decides) · ``word`` (anything else).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property, lru_cache

from ctx.core.temporal.fuzzy import is_typo_of

TokSpec = tuple[tuple[str, object], ...]

_TOKEN = re.compile(r"\d{4}-\d{1,2}-\d{1,2}|[^\W_]+(?:'[^\W_]+)?")
_ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")
_QUARTER = re.compile(r"q([1-4])")
_CALENDAR_WEEK = re.compile(r"(?:kw|cw|wk)(\d{1,2})")
_ORDINAL = re.compile(r"(\d{1,2})(?:st|nd|rd|th)")


#: Token kinds that name a time on their own (see ``Lexicon.time_words``).
TIME_NAMING = frozenset(
    {"kw", "wd", "wds", "mon", "rel", "unit", "seg", "tod", "weekend", "hol", "cw", "q", "year",
     "iso", "since", "until", "ago", "fromnow", "num"}
)  # fmt: skip


@dataclass(frozen=True)
class Tok:
    kind: str
    value: object
    raw: str
    #: The raw word just before this token in the text ("" at the start); fillers included.
    prev_raw: str = ""


def normal_word(word: str) -> str:
    """A word as ``raw_tokens`` lists it: lower case, English possessive "'s" dropped."""
    word = word.lower()
    if word.endswith("'s"):
        word = word[:-2]
    return word.replace("'", "")


def word_spans(text: str) -> list[re.Match[str]]:
    """The words of ``raw_tokens`` where they stand in ``text`` (ISO dates whole)."""
    return list(_TOKEN.finditer(text))


@lru_cache(maxsize=1024)
def raw_tokens(text: str) -> tuple[str, ...]:
    """Lower-case words, ISO dates kept whole, hyphens split, English possessive "'s" dropped."""
    return tuple(normal_word(word) for word in _TOKEN.findall(text.lower()))


def parse_iso(word: str) -> date | None:
    m = _ISO.fullmatch(word)
    if not m:
        return None
    try:
        return date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        return None


@dataclass(frozen=True, eq=False)  # hashed by identity: analyse() caches per lexicon
class Lexicon:
    language: str
    #: word -> tokens it stands for (usually one; "monatsende" is ``seg end`` + ``unit month``).
    words: Mapping[str, TokSpec]
    #: multi-word phrases -> tokens; also used for negatives, mapped to a ``word`` token.
    phrases: Mapping[tuple[str, ...], TokSpec] = field(default_factory=dict)
    #: keywords reachable with typos, and real words that look like typos or compounds of them.
    fuzzy: Mapping[str, TokSpec] = field(default_factory=dict)
    fuzzy_exclude: frozenset[str] = frozenset()
    #: articles and prepositions dropped from the token stream ("der", "of", "the").
    fillers: frozenset[str] = frozenset()
    #: months that are also common words ("may", "march"): they need ``month_context``.
    ambiguous_months: frozenset[int] = frozenset()
    month_context: frozenset[str] = frozenset()
    #: words that let a bare time of day stand alone ("in the morning", "am Abend").
    time_context: frozenset[str] = frozenset()
    #: tense cues; ``strong_*`` count double ("last", "nächsten").
    past_words: frozenset[str] = frozenset()
    future_words: frozenset[str] = frozenset()
    strong_past: frozenset[str] = frozenset()
    strong_future: frozenset[str] = frozenset()
    past_phrases: tuple[str, ...] = ()
    future_phrases: tuple[str, ...] = ()
    perfect_aux: frozenset[str] = frozenset()
    participle: re.Pattern[str] | None = None
    participles: frozenset[str] = frozenset()
    #: separable verbs with future meaning: stem before particle ("steht ... an").
    separable_future: tuple[tuple[str, str], ...] = ()
    separable_blockers: frozenset[str] = frozenset()
    #: compound heads: a word starting with one names that time too ("Weihnachtsfeier" is a
    #: Christmas party, "Osterurlaub" an Easter holiday); the word itself stays a plain word.
    compounds: Mapping[str, TokSpec] = field(default_factory=dict)
    #: plural unit words ("weeks", "Wochen"): "in den letzten Wochen" is a span of a few weeks.
    plurals: frozenset[str] = frozenset()
    #: "last"-words that make "the <word> <unit>" a rolling span ending today ("the past month").
    rolling_words: frozenset[str] = frozenset()
    #: words before "the last/next <unit>" that make it rolling ("within the last week").
    rolling_openers: frozenset[str] = frozenset()
    #: words that make "<word> N <units>" a span from today ("within 3 days", "binnen 2 Wochen").
    within_words: frozenset[str] = frozenset()
    recurrence_words: frozenset[str] = frozenset()
    intent_words: frozenset[str] = frozenset()
    #: the language's function words: they help guess a query's language, and ``residual`` leaves
    #: them out of a time query's topic.
    stopwords: frozenset[str] = frozenset()

    @property
    def vocabulary(self) -> frozenset[str]:
        return frozenset(self.words) | self.stopwords

    @cached_property
    def time_words(self) -> frozenset[str]:
        """The words that name a time ("Tuesday", "week", "last", "Christmas"); connectors and
        modifiers ("after", "half", "around", "rest", "few") only do so next to such a word, so
        a question's text keeps them ("half marathon", "the final exam")."""
        return frozenset(
            w for w, spec in self.words.items() if any(k in TIME_NAMING for k, _ in spec)
        )

    @property
    def topic_words(self) -> frozenset[str]:
        """Time words that are topics too: holiday names ("Christmas party")."""
        return frozenset(w for w, spec in self.words.items() if any(k == "hol" for k, _ in spec))

    @cached_property
    def longest_phrase(self) -> int:
        return max((len(p) for p in self.phrases), default=1)

    def analyse(self, text: str) -> tuple[Tok, ...]:
        return _analyse(self, text)

    def kinds(self, text: str) -> frozenset[str]:
        """The token kinds of ``text``: a rule that needs a kind the text lacks is skipped."""
        return _kinds(self, text)

    def tense(self, text: str) -> str:
        """``past``, ``future`` or ``neutral`` from verbs and direction words; ties count as past."""
        return _tense(self, text)


def _classify_plain(lex: Lexicon, word: str) -> TokSpec:
    if word in lex.words:
        return lex.words[word]
    if word.isdecimal():  # not isdigit(): "³" is a digit that int() refuses
        n = int(word)
        if len(word) == 4 and 1900 <= n <= 2100:
            return (("year", n),)
        return (("num", n),)
    iso = parse_iso(word)
    if iso is not None:
        return (("iso", iso),)
    for pattern, kind in ((_QUARTER, "q"), (_CALENDAR_WEEK, "cw"), (_ORDINAL, "num")):
        m = pattern.fullmatch(word)
        if m:
            return ((kind, int(m[1])),)
    for head, spec in lex.compounds.items():
        if (
            word.startswith(head)
            and len(word) >= len(head) + 3
            and word.isalpha()
            and word not in lex.fuzzy_exclude
        ):
            return (("word", word), *spec)
    if len(word) >= 6 and word.isalpha() and word not in lex.fuzzy_exclude:
        for target, spec in lex.fuzzy.items():
            if is_typo_of(word, target):
                return spec
    return (("word", word),)


@lru_cache(maxsize=2048)
def _analyse(lex: Lexicon, text: str) -> tuple[Tok, ...]:
    words = raw_tokens(text)
    out: list[Tok] = []
    longest = lex.longest_phrase
    i = 0
    while i < len(words):
        prev = words[i - 1] if i else ""
        for size in range(min(longest, len(words) - i), 1, -1):
            spec = lex.phrases.get(words[i : i + size])
            if spec is not None:
                raw = " ".join(words[i : i + size])
                out.extend(Tok(kind, value, raw, prev) for kind, value in spec)
                i += size
                break
        else:
            word = words[i]
            if word not in lex.fillers:
                for kind, value in _classify_plain(lex, word):
                    out.append(Tok(kind, value, word, prev))
            i += 1
    return tuple(out)


@lru_cache(maxsize=2048)
def _kinds(lex: Lexicon, text: str) -> frozenset[str]:
    return frozenset(t.kind for t in _analyse(lex, text))


@lru_cache(maxsize=2048)
def _tense(lex: Lexicon, text: str) -> str:
    words = raw_tokens(text)
    past = future = 0
    for w in words:
        past += 2 * (w in lex.strong_past) + (w in lex.past_words)
        future += 2 * (w in lex.strong_future) + (w in lex.future_words)
    joined = " " + " ".join(words) + " "
    if any(f" {p} " in joined for p in lex.past_phrases):
        past += 2
    if any(f" {p} " in joined for p in lex.future_phrases):
        future += 2
    if lex.perfect_aux:
        for i, w in enumerate(words):
            if w in lex.perfect_aux and any(
                x in lex.participles or (lex.participle is not None and lex.participle.fullmatch(x))
                for x in words[i + 1 : i + 6]
            ):
                past += 2
                break
    for stem, particle in lex.separable_future:
        if stem in words and particle in words[words.index(stem) + 1 :]:
            after = words.index(particle, words.index(stem) + 1) + 1
            if after >= len(words) or words[after] not in lex.separable_blockers:
                future += 2
                break
    if past == future == 0:
        return "neutral"
    return "future" if future > past else "past"


def month_licensed(lex: Lexicon, toks: tuple[Tok, ...], i: int, text: str = "") -> bool:
    """Whether the month token at ``i`` really names a month ("in May", not "I may go").

    An ambiguous month needs a licensing word or a day number right before it ("in May", "20.
    August"), a year right after it, or a day number right after it while written with a capital
    ("May 7", not "may 7 times").
    """
    tok = toks[i]
    if tok.value not in lex.ambiguous_months:
        return True
    if tok.prev_raw in lex.month_context:
        return True
    before = toks[i - 1] if i > 0 else None
    if (
        before is not None
        and before.kind in ("num", "ord")
        and before.raw == tok.prev_raw
        and (tok.raw.capitalize() in text or not before.raw.isdigit())
    ):
        return True  # a day number right before it: "20. August", "3 May", not "Step 3 may"
    nxt = toks[i + 1] if i + 1 < len(toks) else None
    if nxt is None or nxt.prev_raw != tok.raw:
        return False
    return nxt.kind == "year" or (nxt.kind == "num" and tok.raw.capitalize() in text)
