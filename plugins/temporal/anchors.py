"""Rules that move or widen an anchor phrase: offsets ("three days after Christmas", "a week from
Monday", "zwei Tage vor Silvester", "morgen in einer Woche") and "around" ("um Ostern herum",
"around May 7", "rund um Weihnachten")."""

from __future__ import annotations

from datetime import date, timedelta

from ctx.core import temporal_kit as kit
from ctx.plugins.temporal.day_spans import bare_day

W_OFFSET = {"linear": 1.0}
W_AROUND = {"linear": 0.7, "seasonal": 0.3}
_LINKS = ("after", "before", "from")


def _following(base: date, unit: str, sign: int) -> kit.Span | None:
    """The whole unit right after (``sign`` 1) or before (-1) ``base``: "the week after Easter"."""
    moved = kit.shift(base, unit, sign)
    if moved is None:
        return None
    if sign > 0:
        return base + timedelta(days=1), moved
    return moved, base - timedelta(days=1)


@kit.needs("after", "before", "from", "kw")
def offset(inp: kit.RuleInput) -> kit.TemporalResult | None:
    """ "three days after Christmas", "two weeks before Easter", "a week from Monday", "the day
    after Thanksgiving", "eine Woche nach dem 4. Mai", "zwei Tage vor Silvester". "After" counts
    from the anchor's last day, "before" from its first; "the week after X" without a number is
    the whole week after it."""
    for i in inp.find("unit"):
        link = inp.kind(i + 1)
        if link not in _LINKS:
            continue
        counted = inp.kind(i - 1) == "num"
        if not counted and inp.toks[i].raw in inp.lex.plurals:
            continue
        anchor = kit.resolve_phrase(inp, i + 2, None)
        if anchor is None or (link == "from" and inp.kind(anchor.next) in ("to", "until")):
            continue  # "the days from Monday to Friday" is a range, not an offset
        unit, sign = str(inp.value(i)), -1 if link == "before" else 1
        base = anchor.start if sign < 0 else anchor.end
        if not counted and unit != "day":
            span = _following(base, unit, sign)
            if span is not None:
                return inp.span(span[0], span[1], W_OFFSET)
            continue
        day = kit.shift(base, unit, sign * (inp.int_value(i - 1) if counted else 1))
        if day is not None:
            return inp.span(day, day, W_OFFSET)
    for i in inp.find("kw"):
        # "morgen in einer Woche", "gestern vor einer Woche", "today in two weeks"
        link = inp.kind(i + 1)
        if link in ("in", "before") and inp.kind(i + 2) == "num" and inp.kind(i + 3) == "unit":
            base = inp.now + timedelta(days=inp.int_value(i))
            amount = inp.int_value(i + 2) * (-1 if link == "before" else 1)
            day = kit.shift(base, str(inp.value(i + 3)), amount)
            if day is not None:
                return inp.span(day, day, W_OFFSET)
    return None


def _padding(anchor: kit.Phrase) -> int:
    """How far "around" reaches on each side: three days around a day or a holiday, a week
    around a month, a month around a year."""
    length = (anchor.end - anchor.start).days + 1
    if length <= 10:
        return 3
    if length <= 31:
        return 7
    return 30


@kit.needs("around")
def around(inp: kit.RuleInput) -> kit.TemporalResult | None:
    """ "around Christmas" (Dec 22-28), "um Ostern herum", "rund um Weihnachten", "around May 7",
    "um den 10. Mai herum"."""
    for i in inp.find("around"):
        if inp.kind(i + 1) == "num" and inp.kind(i + 2) == "unit":
            continue  # "around 8 hours", "rund 3 Tage": a duration, not a time
        anchor = kit.resolve_phrase(inp, i + 1, None)
        if anchor is None:  # the German "<anchor> herum"
            for start in range(max(i - 3, 0), i):
                found = kit.resolve_phrase(inp, start, None)
                if found is not None and found.next == i:
                    anchor = found
                    break
        if anchor is None:
            continue
        pad = timedelta(days=_padding(anchor))
        return inp.span(anchor.start - pad, anchor.end + pad, W_AROUND)
    return None


def _weekday_around(anchor: kit.Phrase, weekday: int, sign: int) -> date:
    if sign < 0:
        return kit.previous_weekday(anchor.start, weekday)
    return kit.next_weekday(anchor.end, weekday)


@kit.needs("wd", "weekend")
def weekday_by_anchor(inp: kit.RuleInput) -> kit.TemporalResult | None:
    """ "the Monday before Christmas", "the last Friday before Easter", "the Sunday after Easter",
    "das Wochenende nach Pfingsten", "the weekend before Christmas"; and a weekday counted past
    this week's: "the Friday before last", "Monday after next"."""
    for i in inp.find("wd", "weekend"):
        link = inp.kind(i + 1)
        if link not in ("before", "after"):
            continue
        sign = -1 if link == "before" else 1
        weekend = inp.kind(i) == "weekend"
        weekday = 5 if weekend else inp.int_value(i)
        anchor = kit.resolve_phrase(inp, i + 2, None)
        if anchor is None:
            if inp.kind(i + 2) == "rel" and inp.int_value(i + 2) == sign:
                # "Friday before last" / "Monday after next": two weeks' worth of that weekday
                if weekend:
                    first, last = kit.weekend_span(inp.now, 2 * sign, inp.tense)
                    return inp.span(first, last, W_OFFSET)
                day = kit.weekday_date(inp.now, weekday, 2 * sign, sign < 0)
                return inp.span(day, day, W_OFFSET)
            continue
        day = _weekday_around(anchor, weekday, sign)
        if weekend and sign < 0:
            day = kit.previous_weekday(anchor.start, 6) - timedelta(days=1)  # the Saturday
        return inp.span(day, day + timedelta(days=1 if weekend else 0), W_OFFSET)
    return None


@kit.needs("unit")
def week_of(inp: kit.RuleInput) -> kit.TemporalResult | None:
    """The Monday-to-Sunday week holding an anchor: "Christmas week", "Thanksgiving week", "the
    week of March 10"."""
    for i in inp.find("unit"):
        if inp.value(i) != "week" or inp.toks[i].raw in inp.lex.plurals:
            continue
        anchor = None
        if inp.kind(i - 1) == "hol" and inp.kind(i - 2) not in ("num", "ord"):
            anchor = kit.resolve_phrase(inp, i - 1, None)
        elif i + 1 < len(inp.toks) and inp.toks[i + 1].prev_raw in ("of", "the"):
            anchor = kit.resolve_phrase(inp, i + 1, None)
            if anchor is not None and anchor.kind not in ("day", "weekday"):
                anchor = None
            alone = bare_day(inp, i + 1) if anchor is None else None
            if alone is not None:  # "the week of the 10th"
                anchor = kit.Phrase(alone, alone, i + 2, "day")
        if anchor is None:
            continue
        first, last = kit.week_bounds(anchor.start)
        return inp.span(first, last, {"linear": 0.7, "week": 0.3})
    return None
