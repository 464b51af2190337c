"""Rules for a part of a named month (or year): the n-th weekday ("the second Friday in June",
"am letzten Donnerstag im Monat"), a day of a relative month ("the 15th of next month"), the first
or last days or weeks of one ("the last 7 days of March", "die ersten zwei Wochen im Mai"), halves ("the first half of February", "in der zweiten
Novemberhälfte", "H1 2025"), the n-th weekend ("the last weekend of April") and the n-th week
("the first week of May")."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from functools import partial

from ctx.core import temporal_kit as kit

W_NTH_WEEKDAY = {"linear": 0.6, "weekday": 0.4}
W_PART = {"linear": 0.6, "monthday": 0.4}
W_HALF_YEAR = {"linear": 0.7, "month": 0.3}
W_NTH_WEEKEND = {"linear": 0.5, "weekday": 0.5}


@dataclass(frozen=True)
class MonthRef:
    """The month a phrase names; ``generic`` for "the month" without this/next/last, which means
    the current one unless the tense points past it."""

    year: int
    month: int
    next: int
    generic: bool = False


def tense_without(inp: kit.RuleInput, i: int) -> str:
    """The sentence's tense with token ``i`` left out: the "last" of "the last Friday of May" is
    an ordinal there, not a sign of the past."""
    if inp.kind(i) != "rel":
        return inp.tense
    words = list(kit.raw_tokens(inp.text))
    if inp.toks[i].raw in words:
        words.remove(inp.toks[i].raw)
    return inp.lex.tense(" ".join(words))


def month_ref(inp: kit.RuleInput, j: int, tense: str) -> MonthRef | None:
    """ "June", "in June 2027", "next month", "of the month", "im Mai", "diesen Monat"."""
    if inp.kind(j) == "in":
        j += 1
    rel = None
    if inp.kind(j) == "rel":
        rel, j = inp.int_value(j), j + 1
    kind, value = inp.kind(j), inp.value(j)
    if kind == "mon" and isinstance(value, int) and kit.month_licensed(inp.lex, inp.toks, j):
        if inp.kind(j + 1) == "year":
            return MonthRef(inp.int_value(j + 1), value, j + 2)
        return MonthRef(kit.month_in(inp.now, value, rel, tense), value, j + 1)
    if kind == "unit" and value == "month" and inp.toks[j].raw not in inp.lex.plurals:
        year, month = kit.shift_month(inp.now.year, inp.now.month, rel or 0)
        return MonthRef(year, month, j + 1, generic=rel is None)
    return None


def _ordinal(inp: kit.RuleInput, i: int, most: int = 5) -> int | None:
    """The n of an ordinal at token ``i`` (1 .. ``most``), or -1 for "last"/"letzten"."""
    kind = inp.kind(i)
    if kind in ("ord", "num") and 1 <= inp.int_value(i) <= most:
        return inp.int_value(i)
    if (kind == "rel" or kind == "ord") and inp.int_value(i) == -1:  # "last", "final"
        return -1
    return None


Pick = Callable[[int, int], "kit.Span | None"]


def _in_month(inp: kit.RuleInput, ref: MonthRef, pick: Pick, tense: str) -> kit.Span | None:
    """``pick(year, month)`` in the month meant; for a generic month the tense may move it: a
    past question about a day still ahead means last month's, a future one about a day gone
    next month's."""
    span = pick(ref.year, ref.month)
    if span is None or not ref.generic:
        return span
    if tense == "past" and span[0] > inp.now:
        return pick(*kit.shift_month(ref.year, ref.month, -1))
    if tense == "future" and span[1] < inp.now:
        return pick(*kit.shift_month(ref.year, ref.month, 1))
    return span


def _result(
    inp: kit.RuleInput, span: kit.Span | None, weights: dict[str, float]
) -> kit.TemporalResult | None:
    return inp.span(span[0], span[1], weights) if span is not None else None


def _nth_weekday(weekday: int, n: int) -> Pick:
    def pick(year: int, month: int) -> kit.Span | None:
        day = kit.nth_weekday(year, month, weekday, n)
        return (day, day) if day.month == month else None  # no fifth Friday this month

    return pick


@kit.needs("wd")
def ordinal_weekday(inp: kit.RuleInput) -> kit.TemporalResult | None:
    """ "the second Friday in June", "the last Friday of May", "first Monday of next month",
    "am letzten Donnerstag im Monat", "am 2. Dienstag im März"."""
    for i in inp.find("wd"):
        found = _nth_of_month(inp, i, partial(_nth_weekday, inp.int_value(i)), W_NTH_WEEKDAY)
        if found is not None:
            return found
    return None


def _nth_of_month(
    inp: kit.RuleInput, i: int, pick: Callable[[int], Pick], weights: dict[str, float]
) -> kit.TemporalResult | None:
    """The n-th thing of a month when an ordinal stands before token ``i`` and a month after
    it: ``pick(n)`` chooses the days in a given month."""
    n = _ordinal(inp, i - 1)
    if n is None:
        return None
    tense = tense_without(inp, i - 1)
    ref = month_ref(inp, i + 1, tense)
    if ref is None:
        return None
    return _result(inp, _in_month(inp, ref, pick(n), tense), weights)


def _half_of_month(half: int) -> Pick:
    def pick(year: int, month: int) -> kit.Span:
        first, last = kit.month_bounds(year, month)
        middle = first + timedelta(days=last.day // 2 - 1)
        return (first, middle) if half == 1 else (middle + timedelta(days=1), last)

    return pick


def _half_of_year(year: int, half: int) -> kit.Span:
    return (
        (date(year, 1, 1), date(year, 6, 30))
        if half == 1
        else (date(year, 7, 1), date(year, 12, 31))
    )


@kit.needs("half")
def month_half(inp: kit.RuleInput) -> kit.TemporalResult | None:
    """ "the first half of February" (1st-14th), "second half of May" (16th-31st), "in der zweiten
    Novemberhälfte", "erste Monatshälfte", "the second half of the year", "H1 2025",
    "im ersten Halbjahr"."""
    for i in inp.find("half"):
        n = _ordinal(inp, i - 1, most=2)
        if n is None:
            continue
        half = 1 if n == 1 else 2
        tense = tense_without(inp, i - 1)
        ref = month_ref(inp, i + 1, tense)
        if ref is not None:
            return _result(inp, _in_month(inp, ref, _half_of_month(half), tense), W_PART)
        j = i + 1
        rel = None
        if inp.kind(j) == "rel":
            rel, j = inp.int_value(j), j + 1
        if inp.kind(j) == "unit" and inp.value(j) == "year":
            year = inp.now.year + (rel or 0)
            after = inp.kind(j + 1)
            if after == "year":
                year = inp.int_value(j + 1)
            elif after == "rel" and inp.kind(j + 2) == "unit" and inp.value(j + 2) == "year":
                year = inp.now.year + inp.int_value(
                    j + 1
                )  # "H1 next year", "Halbjahr letzten Jahres"
            elif inp.toks[i].raw in ("h1", "h2"):
                continue  # "the h1 heading": a half-year needs its year written
            return _result(inp, _half_of_year(year, half), W_HALF_YEAR)
        if inp.kind(j) == "year":
            return _result(inp, _half_of_year(inp.int_value(j), half), W_HALF_YEAR)
    return None


def _nth_weekend(n: int) -> Pick:
    def pick(year: int, month: int) -> kit.Span | None:
        saturday = kit.nth_weekday(year, month, 5, n)
        if saturday.month != month:
            return None
        return saturday, saturday + timedelta(days=1)

    return pick


@kit.needs("weekend")
def month_weekend(inp: kit.RuleInput) -> kit.TemporalResult | None:
    """ "the last weekend of April", "am ersten Wochenende im Mai": the n-th Saturday and the
    Sunday after it."""
    for i in inp.find("weekend"):
        found = _nth_of_month(inp, i, _nth_weekend, W_NTH_WEEKEND)
        if found is not None:
            return found
    return None


def _nth_week(n: int) -> Pick:
    def pick(year: int, month: int) -> kit.Span | None:
        first, last = kit.month_bounds(year, month)
        if n < 0:
            return last - timedelta(days=6), last
        start = first + timedelta(weeks=n - 1)
        return (start, min(start + timedelta(days=6), last)) if start <= last else None

    return pick


def _year_ref(inp: kit.RuleInput, j: int) -> int | None:
    """The year of "the year", "next year", "2027" at token ``j``."""
    rel = 0
    if inp.kind(j) == "rel":
        rel, j = inp.int_value(j), j + 1
    if inp.kind(j) == "year":
        return inp.int_value(j)
    if inp.kind(j) == "unit" and inp.value(j) == "year" and inp.toks[j].raw not in inp.lex.plurals:
        return inp.now.year + rel
    return None


@kit.needs("unit")
def month_week(inp: kit.RuleInput) -> kit.TemporalResult | None:
    """ "the first week of May" (1st-7th), "the last week of June" (24th-30th), "in der zweiten
    Woche im März"."""
    for i in inp.find("unit"):
        if inp.value(i) != "week" or inp.toks[i].raw in inp.lex.plurals:
            continue
        found = _nth_of_month(inp, i, _nth_week, W_PART)
        if found is not None:
            return found
        n, year = _ordinal(inp, i - 1), _year_ref(inp, i + 1)
        if n is not None and year is not None:  # "the last week of the year": Dec or Jan
            return _result(inp, _nth_week(n)(year, 12 if n < 0 else 1), W_PART)
    return None


@kit.needs("num", "ord")
def month_day(inp: kit.RuleInput) -> kit.TemporalResult | None:
    """ "the first of next month", "the 15th of last month", "am 1. des nächsten Monats", "the
    20th of this month" (a day of a named month is the core's written date)."""
    for i in inp.find("num", "ord"):
        day = inp.int_value(i)
        j = i + 1
        if not 1 <= day <= 31 or inp.kind(j) not in ("rel", "unit"):
            continue
        ref = month_ref(inp, j, inp.tense)
        if ref is None or ref.generic or inp.kind(j) != "rel":
            continue
        last = kit.month_bounds(ref.year, ref.month)[1]
        if day > last.day:
            continue
        found = date(ref.year, ref.month, day)
        return _result(inp, (found, found), {"linear": 1.0})
    return None


def _stretch(side: int, length: int) -> Pick:
    """The first (``side`` 1) or last (-1) ``length`` days of a month."""

    def pick(year: int, month: int) -> kit.Span | None:
        first, last = kit.month_bounds(year, month)
        if length > last.day:
            return None
        if side == 1:
            return first, first + timedelta(days=length - 1)
        return last - timedelta(days=length - 1), last

    return pick


@kit.needs("num")
def month_stretch(inp: kit.RuleInput) -> kit.TemporalResult | None:
    """The first or last N days or weeks of a month, or N months of a year: "the last 7 days of
    March", "the first 10 days of May", "die ersten zwei Wochen im Mai", "the first three months
    of the year"."""
    for i in inp.find("num"):
        side = _ordinal(inp, i - 1, most=1)
        if side is None or inp.kind(i + 1) != "unit":
            continue
        amount, unit = inp.int_value(i), inp.value(i + 1)
        if amount < 1:
            continue
        if unit == "month":
            j = i + 2
            rel = inp.int_value(j) if inp.kind(j) == "rel" else None
            j += rel is not None
            if inp.kind(j) == "year":
                year = inp.int_value(j)
            elif inp.kind(j) == "unit" and inp.value(j) == "year":
                year = inp.now.year + (rel or 0)
            else:
                continue
            if amount > 12:
                continue
            first_month, last_month = (1, amount) if side == 1 else (13 - amount, 12)
            first = kit.month_bounds(year, first_month)[0]
            return _result(inp, (first, kit.month_bounds(year, last_month)[1]), W_HALF_YEAR)
        if unit not in ("day", "week"):
            continue
        tense = tense_without(inp, i - 1)
        ref = month_ref(inp, i + 2, tense)
        if ref is None:
            continue
        pick = _stretch(side, amount * (7 if unit == "week" else 1))
        return _result(inp, _in_month(inp, ref, pick, tense), W_PART)
    return None
