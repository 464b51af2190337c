"""The language-free rule machinery: a matcher built from a ``Lexicon`` and a rule function, and the
phrase resolver the compound rules share. The rules themselves live in ``rules_dates`` (explicit
dates and spans) and ``rules_days`` (days, weekdays, times of day); ``build_matchers`` assembles
the whole cascade for one lexicon.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cached_property

from ctx.core.temporal import calendar_spans
from ctx.core.temporal.lexicon import Lexicon, Tok, month_licensed
from ctx.core.temporal.types import ParseContext, TemporalResult, direction_between

W_LINEAR = {"linear": 1.0}
W_LINEAR_WEEKDAY = {"linear": 0.6, "weekday": 0.4}
W_LINEAR_WEEK = {"linear": 0.7, "week": 0.3}
W_LINEAR_MONTH = {"linear": 0.5, "month": 0.5}
W_SINCE_UNTIL = {"linear": 0.8, "month": 0.2}
W_RANGE_MONTH = {"linear": 0.6, "month": 0.4}
W_QUARTER = {"quarter": 1.0}
W_LINEAR_QUARTER = {"linear": 0.5, "quarter": 0.5}
W_HOLIDAY = {"month": 0.5, "seasonal": 0.5}
W_HOLIDAY_YEAR = {"linear": 0.5, "month": 0.25, "seasonal": 0.25}
W_MONTHDAY = {"linear": 0.5, "monthday": 0.5}
W_MONTHDAY_GENERIC = {"linear": 0.4, "monthday": 0.6}
W_DAILY_DAY = {"linear": 0.6, "daily": 0.4}
W_DAILY_WEEKDAY = {"linear": 0.4, "weekday": 0.3, "daily": 0.3}
W_DAILY = {"daily": 1.0}
W_WEEKEND = {"linear": 0.3, "weekday": 0.7}

#: Days (Monday = 0) of the start, middle and end of a week.
WEEK_SEGMENTS = {"start": (0, 1), "mid": (1, 3), "end": (4, 6)}


@dataclass(frozen=True)
class RuleInput:
    """What a rule sees: the text, its token stream, the context and the lexicon."""

    text: str
    toks: tuple[Tok, ...]
    ctx: ParseContext
    lex: Lexicon

    @property
    def now(self) -> date:
        return self.ctx.now

    @cached_property
    def tense(self) -> str:
        return self.lex.tense(self.text)

    def kind(self, i: int) -> str:
        return self.toks[i].kind if 0 <= i < len(self.toks) else ""

    def value(self, i: int) -> object:
        return self.toks[i].value if 0 <= i < len(self.toks) else None

    def int_value(self, i: int) -> int:
        value = self.value(i)
        return value if isinstance(value, int) else 0

    def find(self, *kinds: str) -> list[int]:
        return [i for i, t in enumerate(self.toks) if t.kind in kinds]

    def day_number(self, i: int) -> int | None:
        """Token ``i`` as a day of the month (a number 1-31 in digits or an ordinal word)."""
        if self.kind(i) in ("num", "ord") and 1 <= self.int_value(i) <= 31:
            return self.int_value(i)
        return None

    def month_at(self, i: int) -> bool:
        """Whether token ``i`` names a month here ("in May", not "I may go")."""
        return (
            self.kind(i) == "mon"
            and isinstance(self.value(i), int)
            and month_licensed(self.lex, self.toks, i, self.text)
        )

    def span(self, first: date, last: date, weights: dict[str, float]) -> TemporalResult:
        """A result for ``first .. last``, its direction seen from today."""
        return TemporalResult.span(first, last, direction_between(first, last, self.now), weights)


Rule = Callable[[RuleInput], TemporalResult | None]


def needs(*kinds: str) -> Callable[[Rule], Rule]:
    """Mark a rule as reading only texts with a token of one of ``kinds``: its matcher skips
    the other texts without running it (most queries name no time, and every rule of every
    language sees each one)."""

    def mark(rule: Rule) -> Rule:
        setattr(rule, "needs", frozenset(kinds))  # noqa: B010 - a function attribute
        return rule

    return mark


@dataclass(frozen=True, eq=False)
class RuleMatcher:
    """A ``TemporalMatcher`` made of a rule function and the lexicon of one language."""

    name: str
    priority: int
    language: str
    lexicon: Lexicon
    rule: Rule

    @cached_property
    def needs(self) -> frozenset[str] | None:
        found = getattr(self.rule, "needs", None)
        return found if isinstance(found, frozenset) else None

    def match(self, text: str, ctx: ParseContext) -> TemporalResult | None:
        if self.needs is not None and self.needs.isdisjoint(self.lexicon.kinds(text)):
            return None
        toks = self.lexicon.analyse(text)
        if not toks:
            return None
        return self.rule(RuleInput(text, toks, ctx, self.lexicon))

    @property
    def intent_words(self) -> frozenset[str]:
        return self.lexicon.intent_words

    @property
    def recurrence_words(self) -> frozenset[str]:
        return self.lexicon.recurrence_words

    @property
    def vocabulary(self) -> frozenset[str]:
        return self.lexicon.vocabulary

    @property
    def function_words(self) -> frozenset[str]:
        return self.lexicon.stopwords

    @property
    def topic_words(self) -> frozenset[str]:
        return self.lexicon.topic_words

    @property
    def time_words(self) -> frozenset[str]:
        return self.lexicon.time_words


@dataclass(frozen=True)
class Phrase:
    """A resolved phrase: its span, the token index after it and what it named."""

    start: date
    end: date
    next: int
    kind: str  # day, weekday, week, month, quarter, year, weekend


def weekday_date(now: date, weekday: int, rel: int | None, backward: bool) -> date:
    """The day "last/this/next <weekday>" (or a bare weekday, by tense) refers to."""
    if rel is None:
        return (
            calendar_spans.previous_weekday(now, weekday)
            if backward
            else calendar_spans.next_weekday(now, weekday)
        )
    if rel == 0:
        return calendar_spans.weekday_on_or_after(now, weekday)
    if rel < 0:
        return calendar_spans.previous_weekday(now, weekday) - timedelta(weeks=-rel - 1)
    return calendar_spans.next_weekday(now, weekday) + timedelta(weeks=rel - 1)


def unit_span(now: date, unit: str, offset: int) -> calendar_spans.Span | None:
    if unit == "week":
        return calendar_spans.week_bounds(now, offset)
    if unit == "month":
        return calendar_spans.month_bounds(*calendar_spans.shift_month(now.year, now.month, offset))
    if unit == "quarter":
        index = now.year * 4 + calendar_spans.quarter_of(now) - 1 + offset
        return calendar_spans.quarter_bounds(index // 4, index % 4 + 1)
    if unit == "year":
        return calendar_spans.year_bounds(now.year + offset)
    if unit == "day":
        day = now + timedelta(days=offset)
        return day, day
    return None


def shift(now: date, unit: str, amount: int) -> date | None:
    """``now`` moved by ``amount`` units (negative: into the past); hours count whole days
    (toward today: "3 hours ago" is today)."""
    if unit == "hour":
        return now + timedelta(days=int(amount / 24))
    if unit == "day":
        return now + timedelta(days=amount)
    if unit == "week":
        return now + timedelta(weeks=amount)
    if unit == "month":
        return calendar_spans.add_months(now, amount)
    if unit == "quarter":
        return calendar_spans.add_months(now, 3 * amount)
    if unit == "year":
        return calendar_spans.add_months(now, 12 * amount)
    return None


def month_in(now: date, month: int, rel: int | None, tense: str) -> int:
    """The year of "<month>", "last <month>" or "next <month>"."""
    if rel is None:
        return calendar_spans.nearest_month(now, month, tense)
    if rel < 0:
        return now.year if month < now.month else now.year - 1
    if rel > 0:
        return now.year if month > now.month else now.year + 1
    return now.year


def weekend_span(now: date, rel: int | None, tense: str) -> calendar_spans.Span:
    """Saturday and Sunday of the weekend meant.

    On a weekend, "this weekend" (and a bare "weekend" in the past tense) is the current one, "last
    weekend" the one before and "next weekend" the one after. On a weekday "last weekend" is the
    most recent one and "this"/"next weekend" the coming one; a bare "weekend" follows the tense.
    """
    current = calendar_spans.weekday_on_or_before(now, 5) if now.weekday() >= 5 else None
    if rel is None:
        rel = -1 if tense == "past" and current is None else 0
    if rel == 0:
        saturday = current or calendar_spans.next_weekday(now, 5)
    elif rel < 0:
        base = current - timedelta(weeks=1) if current else calendar_spans.previous_weekday(now, 5)
        saturday = base - timedelta(weeks=-rel - 1)
    else:
        base = current + timedelta(weeks=1) if current else calendar_spans.next_weekday(now, 5)
        saturday = base + timedelta(weeks=rel - 1)
    return saturday, saturday + timedelta(days=1)


def resolve(inp: RuleInput, i: int, backward: bool | None) -> Phrase | None:
    """Resolve the phrase starting at token ``i``: a day ("May 7", "the 4th of May", "7. Mai"),
    weekday, month, period or holiday.

    ``backward`` decides bare weekdays and months: True the last one, False the next one, None by
    the sentence's tense. Used by ranges ("from X to Y"), since/until, and by plugin rules that
    read an anchor ("three days after <phrase>").
    """
    toks, now = inp.toks, inp.now
    if i >= len(toks):
        return None
    tense = inp.tense if backward is None else ("past" if backward else "future")
    back = tense == "past"
    kind = toks[i].kind
    rel: int | None = None
    j = i
    if kind == "rel":
        rel, j = inp.int_value(i), i + 1
    k = inp.kind(j)
    value = inp.value(j)
    if kind == "seg":
        # one segment word, then the period ("Ende Ende März" is no phrase; no deep recursion)
        inner = resolve(inp, i + 1, backward) if inp.kind(i + 1) != "seg" else None
        if inner is None and inp.kind(i + 1) == "unit" and isinstance(inp.value(i + 1), str):
            span = unit_span(now, str(inp.value(i + 1)), 0)  # "Jahresbeginn": this year's
            if span is not None and inp.value(i + 1) in ("month", "year", "quarter"):
                inner = Phrase(span[0], span[1], i + 2, str(inp.value(i + 1)))
        segment = str(toks[i].value)
        if inner is not None and inner.kind == "month":
            first, last = calendar_spans.month_segment(inner.start.year, inner.start.month, segment)
            return Phrase(first, last, inner.next, "month")
        if inner is not None and inner.kind in ("year", "quarter"):
            if segment == "mid":
                return None
            at = inner.start if segment == "start" else inner.end
            head, tail = calendar_spans.month_bounds(at.year, at.month)
            return Phrase(head, tail, inner.next, "month")
        if inner is not None and inner.kind == "week":
            a, b = WEEK_SEGMENTS[segment]
            return Phrase(
                inner.start + timedelta(days=a), inner.start + timedelta(days=b), inner.next, "week"
            )
        return None
    if kind == "iso" and isinstance(value, date):
        return Phrase(value, value, i + 1, "day")
    if kind == "kw" and isinstance(value, int):
        day = now + timedelta(days=value)
        return Phrase(day, day, i + 1, "day")
    if k in ("wd", "wds") and isinstance(value, int):
        day = weekday_date(now, value, rel, back)
        return Phrase(day, day, j + 1, "weekday")
    if k == "unit" and rel is not None and isinstance(value, str):
        span = unit_span(now, value, rel)
        return Phrase(span[0], span[1], j + 1, value) if span else None
    if k == "weekend":
        span = weekend_span(now, rel, tense)
        return Phrase(span[0], span[1], j + 1, "weekend")
    if k == "mon" and isinstance(value, int) and month_licensed(inp.lex, toks, j, inp.text):
        if rel is None and inp.day_number(j + 1) is not None:
            return _month_day(inp, value, inp.int_value(j + 1), j + 2, tense)
        year = month_in(now, value, rel, tense)
        nxt = j + 1
        if inp.kind(nxt) == "year":
            year, nxt = inp.int_value(nxt), nxt + 1
        first, last = calendar_spans.month_bounds(year, value)
        return Phrase(first, last, nxt, "month")
    if k == "hol" and isinstance(value, str) and rel is None:
        explicit = inp.int_value(j + 1) if inp.kind(j + 1) == "year" else None
        span = calendar_spans.holiday_span(value, now, tense, explicit)
        return Phrase(span[0], span[1], j + 1 + (explicit is not None), "day")
    if kind == "year":
        first, last = calendar_spans.year_bounds(inp.int_value(i))
        return Phrase(first, last, i + 1, "year")
    if inp.day_number(i) is not None and inp.month_at(i + 1):
        return _month_day(inp, inp.int_value(i + 1), inp.int_value(i), i + 2, tense)
    if kind == "num" and inp.kind(i + 1) == "unit":
        unit = str(inp.value(i + 1))
        amount = inp.int_value(i)
        if inp.kind(i + 2) == "ago" or back:
            amount = -amount
        moved = shift(now, unit, amount)
        if moved is None:
            return None
        return Phrase(moved, moved, i + 2 + (inp.kind(i + 2) == "ago"), "day")
    return None


def _month_day(inp: RuleInput, month: int, day: int, nxt: int, tense: str) -> Phrase | None:
    """The day ``day`` of ``month``, in the year written after it (token ``nxt``) or the one the
    tense picks; None when that day does not exist ("31 April")."""
    if inp.kind(nxt) == "year":
        try:
            found = date(inp.int_value(nxt), month, day)
        except ValueError:
            return None
        return Phrase(found, found, nxt + 1, "day")

    def on(year: int) -> calendar_spans.Span:
        return (date(year, month, day),) * 2

    span = calendar_spans.annual_occurrence(on, inp.now, tense)
    return Phrase(span[0], span[0], nxt, "day") if span else None
