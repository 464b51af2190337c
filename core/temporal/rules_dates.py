"""Rules for explicit dates and calendar periods: ISO and written dates, ranges, since/until, weeks,
months, quarters, years and holidays. Each takes a ``RuleInput`` and returns a result or None.
"""

from __future__ import annotations

from datetime import date, timedelta

from ctx.core.temporal import calendar_spans
from ctx.core.temporal.extract import DateMention, date_mentions
from ctx.core.temporal.lexicon import month_licensed
from ctx.core.temporal.rules import (
    W_HOLIDAY,
    W_HOLIDAY_YEAR,
    W_LINEAR,
    W_LINEAR_MONTH,
    W_LINEAR_QUARTER,
    W_LINEAR_WEEK,
    W_LINEAR_WEEKDAY,
    W_MONTHDAY,
    W_MONTHDAY_GENERIC,
    W_QUARTER,
    W_RANGE_MONTH,
    W_SINCE_UNTIL,
    WEEK_SEGMENTS,
    Phrase,
    RuleInput,
    month_in,
    needs,
    resolve,
    unit_span,
)
from ctx.core.temporal.types import Direction, TemporalResult, direction_between

_CONNECTORS = ("to", "until")


@needs("iso")
def iso_date(inp: RuleInput) -> TemporalResult | None:
    """ISO dates: one or several days, "X to Y" / "between X and Y", "since X", "until X"."""
    where = inp.find("iso")
    if not where:
        return None
    days = [inp.value(i) for i in where]
    days_ = [d for d in days if isinstance(d, date)]
    now = inp.now
    if len(where) == 2 and where[1] - where[0] == 2:
        link = inp.kind(where[0] + 1)
        if link in _CONNECTORS or (link == "and" and inp.kind(where[0] - 1) == "between"):
            return inp.span(days_[0], days_[1], W_LINEAR)
    if len(where) == 1:
        before = inp.kind(where[0] - 1)
        if before == "since" and days_[0] <= now:
            return TemporalResult.span(days_[0], now, "past", W_LINEAR)
        if before == "until" and days_[0] >= now:
            return TemporalResult.span(now, days_[0], "future", W_LINEAR)
    unique = sorted(set(days_))
    direction = direction_between(unique[0], unique[-1], now)
    return TemporalResult.multi(unique, direction, W_LINEAR)


@needs("num", "year", "iso")
def explicit_date(inp: RuleInput) -> TemporalResult | None:
    """Written dates: "7. Mai 2023", "May 7, 2023", "07.05.2023"; without a year by tense."""
    days: list[date] = []
    for mention in date_mentions(inp.text):
        if mention.year is not None:
            day = mention.date
        else:

            def on_year(y: int, m: DateMention = mention) -> tuple[date, date]:
                return (date(y, m.month, m.day),) * 2

            found = calendar_spans.annual_occurrence(on_year, inp.now, inp.tense)
            day = found[0] if found else None
        if day is not None:
            days.append(day)
    if not days:
        return None
    unique = sorted(set(days))
    return TemporalResult.multi(unique, direction_between(unique[0], unique[-1], inp.now), W_LINEAR)


def _range_weights(first: Phrase, last: Phrase) -> dict[str, float]:
    if first.kind == last.kind == "weekday":
        return W_LINEAR_WEEKDAY
    if first.kind == last.kind == "month":
        return W_RANGE_MONTH
    return W_LINEAR


@needs("to", "until", "and")
def range_phrase(inp: RuleInput) -> TemporalResult | None:
    """Compound ranges: "from Monday to Wednesday", "von März bis Mai", "between X and Y",
    "Monday through Friday", "letzten Montag bis Mittwoch"."""
    for c in inp.find(*_CONNECTORS, "and"):
        opener = next(
            (i for i in range(c - 1, max(c - 5, -1), -1) if inp.kind(i) in ("from", "between")), -1
        )
        if inp.kind(c) == "and" and inp.kind(opener) != "between":
            continue
        first = None
        for start in ([opener + 1] if opener >= 0 else []) + list(range(max(c - 3, 0), c)):
            first = resolve(inp, start, None)
            if first is not None and first.next == c:
                break
            first = None
        if first is None:
            continue
        last = resolve(inp, c + 1, None)
        if last is None:
            continue
        if opener < 0 and first.kind != last.kind:
            continue
        end = last.end
        if last.kind == "weekday" and inp.kind(c + 1) != "rel":
            end = calendar_spans.weekday_on_or_after(first.start, last.start.weekday())
        elif last.kind == "month" and inp.kind(last.next - 1) != "year" and end < first.start:
            end = calendar_spans.month_bounds(first.start.year + (last.start.month < first.start.month),
                                   last.start.month)[1]  # fmt: skip
        if end < first.start:
            continue
        return inp.span(first.start, end, _range_weights(first, last))
    return None


@needs("since", "until")
def since_until(inp: RuleInput) -> TemporalResult | None:
    """ "seit März", "since last week" → [start, today]; "bis Freitag", "until May" → [today, end]."""
    now = inp.now
    for i in inp.find("since", "until"):
        if inp.kind(i) == "since":
            phrase = resolve(inp, i + 1, True)
            if phrase is not None and phrase.start <= now:
                return TemporalResult.span(phrase.start, now, "past", W_SINCE_UNTIL)
        else:
            phrase = resolve(inp, i + 1, False)
            if phrase is not None and phrase.end >= now:
                return TemporalResult.span(now, phrase.end, "future", W_SINCE_UNTIL)
    return None


def _rel_unit(inp: RuleInput, i: int, unit: str) -> int | None:
    """The offset when tokens ``i``, ``i+1`` read "<rel> <unit>"."""
    if inp.kind(i) == "rel" and inp.kind(i + 1) == "unit" and inp.value(i + 1) == unit:
        return inp.int_value(i)
    return None


@needs("seg")
def week_segment(inp: RuleInput) -> TemporalResult | None:
    """ "Anfang der Woche" (Mon-Tue), "midweek" (Tue-Thu), "end of next week" (Fri-Sun)."""
    for i in inp.find("seg"):
        offset = _rel_unit(inp, i + 1, "week")
        if offset is None and inp.kind(i + 1) == "unit" and inp.value(i + 1) == "week":
            offset = 0
        if offset is None:
            continue
        monday, _sunday = calendar_spans.week_bounds(inp.now, offset)
        first, last = WEEK_SEGMENTS[str(inp.value(i))]
        return inp.span(
            monday + timedelta(days=first), monday + timedelta(days=last), W_LINEAR_WEEK
        )
    return None


@needs("unit", "cw")
def relative_week(inp: RuleInput) -> TemporalResult | None:
    """ "letzte Woche", "this week", "the week after next", "KW 12", "calendar week 12 2025"."""
    for i, tok in enumerate(inp.toks):
        offset = _rel_unit(inp, i, "week")
        if offset is not None:
            span = calendar_spans.week_bounds(inp.now, offset)
            return inp.span(span[0], span[1], W_LINEAR_WEEK)
        if tok.kind == "cw":
            week, nxt = tok.value, i + 1
            if week is None and inp.kind(i + 1) == "num":
                week, nxt = inp.value(i + 1), i + 2
            year = inp.int_value(nxt) if inp.kind(nxt) == "year" else inp.now.isocalendar()[0]
            bounds = calendar_spans.iso_week_bounds(year, week) if isinstance(week, int) else None
            if bounds:
                return inp.span(bounds[0], bounds[1], W_LINEAR_WEEK)
    return None


@needs("seg")
def month_segment(inp: RuleInput) -> TemporalResult | None:
    """ "Anfang März", "mid-April 2025", "end of last month", "Monatsende", "Jahresende"."""
    now = inp.now
    for i in inp.find("seg"):
        segment = str(inp.value(i))
        j = i + 1
        rel = inp.int_value(j) if inp.kind(j) == "rel" else None
        if rel is not None:
            j += 1
        kind, value = inp.kind(j), inp.value(j)
        if (
            kind == "mon"
            and isinstance(value, int)
            and month_licensed(inp.lex, inp.toks, j, inp.text)
        ):
            year = month_in(now, value, rel, inp.tense)
            if inp.kind(j + 1) == "year":
                year = inp.int_value(j + 1)
            first, last = calendar_spans.month_segment(year, value, segment)
            return inp.span(first, last, W_MONTHDAY)
        if kind == "unit" and value == "month":
            year, month = calendar_spans.shift_month(now.year, now.month, rel or 0)
            first, last = calendar_spans.month_segment(year, month, segment)
            return inp.span(first, last, W_MONTHDAY if rel else W_MONTHDAY_GENERIC)
        if kind == "unit" and value == "year":
            year = now.year + (rel or 0)
            if inp.kind(j + 1) == "year":
                year = inp.int_value(j + 1)
            months = {"start": (1, 1), "mid": (6, 7), "end": (12, 12)}[segment]
            first = calendar_spans.month_bounds(year, months[0])[0]
            last = calendar_spans.month_bounds(year, months[1])[1]
            return inp.span(first, last, W_LINEAR_MONTH)
    return None


@needs("mon")
def month_name(inp: RuleInput) -> TemporalResult | None:
    """ "im März", "in May 2024", "last March", "März letztes Jahr"."""
    for i in inp.find("mon"):
        if not month_licensed(inp.lex, inp.toks, i, inp.text):
            continue
        month = inp.int_value(i)
        rel = inp.int_value(i - 1) if inp.kind(i - 1) == "rel" else None
        year = month_in(inp.now, month, rel, inp.tense)
        if inp.kind(i + 1) == "year":
            year = inp.int_value(i + 1)
        elif (offset := _rel_unit(inp, i + 1, "year")) is not None:
            year = inp.now.year + offset
        first, last = calendar_spans.month_bounds(year, month)
        return inp.span(first, last, W_LINEAR_MONTH)
    return None


@needs("unit")
def relative_month(inp: RuleInput) -> TemporalResult | None:
    """ "letzten Monat", "this month", "the month before last"."""
    for i in range(len(inp.toks)):
        offset = _rel_unit(inp, i, "month")
        if offset is not None:
            span = unit_span(inp.now, "month", offset)
            if span is None:
                raise ValueError(f"no {offset:+d} period from {inp.now}")
            return inp.span(span[0], span[1], W_LINEAR_MONTH)
    return None


@needs("unit", "q")
def quarter(inp: RuleInput) -> TemporalResult | None:
    """ "Q1" (cyclic), "Q3 2025", "erstes Quartal", "last quarter"."""
    now = inp.now
    for i, tok in enumerate(inp.toks):
        offset = _rel_unit(inp, i, "quarter")
        if offset is not None:
            span = unit_span(now, "quarter", offset)
            if span is None:
                raise ValueError(f"no {offset:+d} period from {inp.now}")
            return inp.span(span[0], span[1], W_LINEAR_QUARTER)
        number = None
        nxt = i + 1
        if tok.kind == "q":
            number = inp.int_value(i)
        elif (
            tok.kind in ("ord", "num")
            and inp.kind(i + 1) == "unit"
            and inp.value(i + 1) == ("quarter")
        ):
            number, nxt = inp.int_value(i), i + 2
        if number is None or not 1 <= number <= 4:
            continue
        if inp.kind(nxt) == "year":
            first, last = calendar_spans.quarter_bounds(inp.int_value(nxt), number)
            return inp.span(first, last, W_LINEAR_QUARTER)

        def quarter_of(y: int, q: int = number) -> tuple[date, date]:
            return calendar_spans.quarter_bounds(y, q)

        occurrence = calendar_spans.annual_occurrence(quarter_of, now, inp.tense)
        if occurrence is None:  # only at the calendar's ends
            raise ValueError(f"no Q{number} near {now}")
        return inp.span(occurrence[0], occurrence[1], W_QUARTER)
    return None


@needs("unit", "year")
def relative_year(inp: RuleInput) -> TemporalResult | None:
    """ "letztes Jahr", "this year", "im Jahr 2024", "in 2024"."""
    for i, tok in enumerate(inp.toks):
        offset = _rel_unit(inp, i, "year")
        if offset is not None:
            first, last = calendar_spans.year_bounds(inp.now.year + offset)
            return inp.span(first, last, W_LINEAR)
        if tok.kind == "year" and (
            (inp.kind(i - 1) == "unit" and inp.value(i - 1) == "year")
            or inp.kind(i - 1) in ("in", "since", "until")
            or tok.prev_raw in inp.lex.month_context
        ):
            first, last = calendar_spans.year_bounds(inp.int_value(i))
            return inp.span(first, last, W_LINEAR)
    return None


@needs("hol")
def holiday(inp: RuleInput) -> TemporalResult | None:
    """ "Weihnachten", "last Easter", "Christmas 2024", "Ostern letztes Jahr"."""
    now = inp.now
    for i in inp.find("hol"):
        key = str(inp.value(i))
        tense = inp.tense
        if inp.kind(i - 1) == "rel" and inp.int_value(i - 1):
            tense = "past" if inp.int_value(i - 1) < 0 else "future"
        # a tense or "last"/"next" picks one occurrence: that day pulls on the time line too
        picked = tense in ("past", "future")
        year = None
        if inp.kind(i + 1) == "year":
            year = inp.int_value(i + 1)
        elif (offset := _rel_unit(inp, i + 1, "year")) is not None:
            year = now.year + offset
        first, last = calendar_spans.holiday_span(key, now, tense, year)
        weights = W_HOLIDAY if year is None and not picked else W_HOLIDAY_YEAR
        direction: Direction = direction_between(first, last, now)
        return TemporalResult.span(first, last, direction, weights)
    return None


@needs("wd", "wds")
def weekday_in_week(inp: RuleInput) -> TemporalResult | None:
    """ "Dienstag nächster Woche", "next week Tuesday", "Dienstag in einer Woche"."""
    now = inp.now
    for i in inp.find("wd", "wds"):
        weekday = inp.int_value(i)
        offset = _rel_unit(inp, i + 1, "week")
        if offset is None:
            offset = _rel_unit(inp, i - 2, "week")
        if offset is not None:
            monday = calendar_spans.week_bounds(now, offset)[0]
            day = calendar_spans.weekday_on_or_after(monday, weekday)
        elif (
            inp.kind(i + 1) == "in"
            and inp.kind(i + 2) == "num"
            and inp.value(i + 3) == "week"
            and inp.kind(i + 3) == "unit"
        ):
            day = calendar_spans.next_weekday(now, weekday) + timedelta(weeks=inp.int_value(i + 2))
        else:
            continue
        return TemporalResult.single(day, direction_between(day, day, now), W_LINEAR_WEEKDAY)
    return None


__all__ = [
    "explicit_date",
    "holiday",
    "iso_date",
    "month_name",
    "month_segment",
    "quarter",
    "range_phrase",
    "relative_month",
    "relative_week",
    "relative_year",
    "since_until",
    "week_segment",
    "weekday_in_week",
]
