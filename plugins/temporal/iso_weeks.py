"""ISO calendar weeks in both languages: "week 12", "KW 12/2027", "12. KW", "2027-W12", "KW 12-14",
"weeks 12 to 14", "Woche 12". Without a year the week is the one the tense picks (the last one
for the past tense, the next one for the future, else the nearer), so "KW 2" asked on New Year's
Eve is January's coming week."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

from ctx.core import temporal_kit as kit

W_ISO_WEEK = {"linear": 0.7, "week": 0.3}


def _weeks(first: int, last: int) -> Callable[[int], kit.Span]:
    """Monday of week ``first`` to Sunday of week ``last`` in a year (ValueError when the year
    has no such week: ``annual_occurrence`` skips it)."""

    def on(year: int) -> kit.Span:
        a = kit.iso_week_bounds(year, first)
        b = kit.iso_week_bounds(year, last)
        if a is None or b is None:
            raise ValueError(f"no ISO week {first}-{last} in {year}")
        return a[0], b[1]

    return on


_YEAR_WEEK = re.compile(r"w(\d{1,2})")


def _week_at(inp: kit.RuleInput, i: int) -> tuple[int, int] | None:
    """(week number, token after it) when token ``i`` starts a calendar-week phrase."""
    tok = inp.toks[i]
    year_week = _YEAR_WEEK.fullmatch(tok.raw) if tok.kind == "word" else None
    if year_week and inp.kind(i - 1) == "year" and inp.toks[i - 1].raw == tok.prev_raw:
        return int(year_week[1]), i + 1  # "2027-W12" (a lone "W2" is a form, not a week)
    if tok.kind == "cw":
        if isinstance(tok.value, int):
            return tok.value, i + 1
        if inp.kind(i + 1) == "num":
            return inp.int_value(i + 1), i + 2
        if inp.kind(i - 1) == "num":  # "12. KW", "die 12. Kalenderwoche"
            return inp.int_value(i - 1), i + 1
        return None
    if tok.kind == "unit" and tok.value == "week" and inp.kind(i + 1) == "num":
        if inp.kind(i - 1) in ("num", "rel", "ord"):
            return None  # "2 weeks 3 days", "last week 3 ..."
        number = inp.toks[i + 1]
        if number.prev_raw != tok.raw or not number.raw.isdigit():
            return None  # "the week of the 10th": a day, not a week number
        after = inp.toks[i + 2] if i + 2 < len(inp.toks) else None
        if after is not None and after.kind == "word" and after.prev_raw in inp.lex.fillers:
            return None  # "week 3 of the project": a week of something else
        return inp.int_value(i + 1), i + 2
    return None


@kit.needs("cw", "unit", "year")
def iso_week(inp: kit.RuleInput) -> kit.TemporalResult | None:
    """ISO weeks by number (see the module), and "diese KW", "nächste KW" (no number)."""
    for i in range(len(inp.toks)):
        relative = inp.kind(i - 1) == "rel" and inp.kind(i + 1) != "num"
        if inp.kind(i) == "cw" and inp.value(i) is None and relative:
            monday, sunday = kit.week_bounds(inp.now, inp.int_value(i - 1))
            return inp.span(monday, sunday, W_ISO_WEEK)
        found = _week_at(inp, i)
        if found is None:
            continue
        first, nxt = found
        last, also, year = first, None, None
        second = inp.int_value(nxt + 1) if inp.kind(nxt + 1) == "num" else None
        if inp.kind(nxt) in ("to", "until") and second is not None:
            last, nxt = second, nxt + 2
        elif inp.kind(nxt) == "and" and second is not None:
            also, nxt = second, nxt + 2  # "KW 7 und 9": two weeks, not the weeks between
        elif inp.kind(nxt) == "num":
            number = inp.int_value(nxt)
            if re.search(rf"(?<!\d){first}\s*/\s*{number:02d}(?!\d)", inp.text):
                year, nxt = 2000 + number, nxt + 1  # "KW 5/26": week 5 of 2026
            elif re.search(rf"(?<!\d){first}\s*[-–]\s*{number}(?!\d)", inp.text):
                last, nxt = number, nxt + 1
        if not (1 <= first <= 53 and first <= last <= 53 and (also is None or 1 <= also <= 53)):
            continue
        if inp.kind(nxt) == "year":
            year = inp.int_value(nxt)
        elif inp.kind(i - 1) == "year":
            year = inp.int_value(i - 1)
        rule = _weeks(first, last)
        span = (
            _at(rule, year) if year is not None else kit.annual_occurrence(rule, inp.now, inp.tense)
        )
        if span is None:
            continue
        direction = kit.direction_between(span[0], span[1], inp.now)
        if also is not None:
            other = _at(_weeks(also, also), span[0].isocalendar()[0])
            if other is None:
                continue
            days = [span[0] + timedelta(days=k) for k in range(7)]
            days += [other[0] + timedelta(days=k) for k in range(7)]
            return kit.TemporalResult.multi(days, direction, W_ISO_WEEK)
        return inp.span(span[0], span[1], W_ISO_WEEK)
    return None


def _at(rule: Callable[[int], kit.Span], year: int) -> kit.Span | None:
    try:
        return rule(year)
    except ValueError:
        return None
