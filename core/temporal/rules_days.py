"""Rules for single days: "vor 3 Tagen", times of day, weekends, "heute und morgen", weekdays by
tense and the plain keywords (today, gestern, ...)."""

from __future__ import annotations

from datetime import date, timedelta

from ctx.core.temporal.rules import (
    W_DAILY,
    W_DAILY_DAY,
    W_DAILY_WEEKDAY,
    W_LINEAR,
    W_LINEAR_WEEKDAY,
    W_WEEKEND,
    RuleInput,
    needs,
    shift,
    weekday_date,
    weekend_span,
)
from ctx.core.temporal.types import Direction, TemporalResult, direction_between


def _sign_direction(offset: int) -> Direction:
    return "past" if offset < 0 else "future" if offset > 0 else "both"


@needs("num")
def relative_days(inp: RuleInput) -> TemporalResult | None:
    """ "vor 3 Tagen", "3 days ago", "in zwei Wochen", "a month from now"."""
    for i in inp.find("num"):
        if inp.kind(i + 1) != "unit":
            continue
        unit, amount = str(inp.value(i + 1)), inp.int_value(i)
        before, after = inp.kind(i - 1), inp.kind(i + 2)
        if after == "ago" or before == "before":
            amount = -amount
        elif not (before == "in" or after == "fromnow"):
            continue
        day = shift(inp.now, unit, amount)
        if day is not None:
            return TemporalResult.single(day, _sign_direction(amount), W_LINEAR)
    return None


def _day_before(inp: RuleInput, i: int) -> tuple[date, bool] | None:
    """The day named just before token ``i`` ("gestern Abend", "letzten Dienstag Abend")."""
    kind = inp.kind(i - 1)
    if kind == "kw":
        return inp.now + timedelta(days=inp.int_value(i - 1)), False
    if kind in ("wd", "wds"):
        rel = inp.int_value(i - 2) if inp.kind(i - 2) == "rel" else None
        day = weekday_date(inp.now, inp.int_value(i - 1), rel, inp.tense == "past")
        return day, True
    return None


@needs("tod")
def time_of_day(inp: RuleInput) -> TemporalResult | None:
    """ "heute Abend", "yesterday morning", "Dienstag Abend", "morgens", "in the evening"."""
    for i in inp.find("tod"):
        hour = float(inp.int_value(i))
        found = _day_before(inp, i)
        if found is not None:
            day, is_weekday = found
            weights = W_DAILY_WEEKDAY if is_weekday else W_DAILY_DAY
            return TemporalResult.single(
                day, direction_between(day, day, inp.now), weights, hour=hour
            )
        tok = inp.toks[i]
        if tok.prev_raw in inp.lex.time_context or tok.raw in inp.lex.recurrence_words:
            return TemporalResult(matched=True, direction="both", weights=dict(W_DAILY), hour=hour)
    return None


@needs("weekend")
def weekend(inp: RuleInput) -> TemporalResult | None:
    """ "am Wochenende", "last weekend", "nächstes Wochenende", "two weekends ago", "vor zwei
    Wochenenden"."""
    for i in inp.find("weekend"):
        rel = inp.int_value(i - 1) if inp.kind(i - 1) == "rel" else None
        counted = inp.kind(i - 1) == "num" and 0 < inp.int_value(i - 1) < 1000
        if counted and (inp.kind(i + 1) == "ago" or inp.kind(i - 2) == "before"):
            rel = -inp.int_value(i - 1)  # "two weekends ago", "vor zwei Wochenenden"
        first, last = weekend_span(inp.now, rel, inp.tense)
        return TemporalResult.span(first, last, direction_between(first, last, inp.now), W_WEEKEND)
    return None


@needs("and", "or")
def multi_keyword(inp: RuleInput) -> TemporalResult | None:
    """ "heute und morgen", "yesterday or today", "Montag oder Mittwoch"."""
    if not inp.find("and", "or"):
        return None
    now = inp.now
    keywords = {now + timedelta(days=inp.int_value(i)) for i in inp.find("kw")}
    if len(keywords) >= 2:
        days = sorted(keywords)
        return TemporalResult.multi(days, direction_between(days[0], days[-1], now), W_LINEAR)
    back = inp.tense == "past"
    weekdays = {weekday_date(now, inp.int_value(i), None, back) for i in inp.find("wd", "wds")}
    if len(weekdays) >= 2:
        days = sorted(weekdays)
        return TemporalResult.multi(
            days, direction_between(days[0], days[-1], now), W_LINEAR_WEEKDAY
        )
    return None


@needs("wd", "wds")
def weekday(inp: RuleInput) -> TemporalResult | None:
    """ "am Dienstag" (tense decides), "last Tuesday", "nächsten Freitag", "dienstags"."""
    for i in inp.find("wd", "wds"):
        rel = inp.int_value(i - 1) if inp.kind(i - 1) == "rel" else None
        day = weekday_date(inp.now, inp.int_value(i), rel, inp.tense == "past")
        return TemporalResult.single(day, direction_between(day, day, inp.now), W_LINEAR_WEEKDAY)
    return None


@needs("kw")
def keyword(inp: RuleInput) -> TemporalResult | None:
    """ "heute", "yesterday", "übermorgen", typos included ("yesterdy")."""
    offsets = sorted({inp.int_value(i) for i in inp.find("kw")})
    if not offsets:
        return None
    days = [inp.now + timedelta(days=o) for o in offsets]
    if len(days) == 1:
        return TemporalResult.single(days[0], _sign_direction(offsets[0]), W_LINEAR)
    return TemporalResult.multi(days, direction_between(days[0], days[-1], inp.now), W_LINEAR)


__all__ = [
    "keyword",
    "multi_keyword",
    "relative_days",
    "shift",
    "time_of_day",
    "weekday",
    "weekend",
]
