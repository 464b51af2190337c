"""Calendar arithmetic the matchers share. Weeks start on Monday (ISO); weekdays are 0=Mon..6=Sun."""

from __future__ import annotations

import calendar
from collections.abc import Callable
from datetime import date, timedelta

Span = tuple[date, date]


def week_bounds(day: date, offset: int = 0) -> Span:
    """Monday and Sunday of the ISO week holding ``day``, shifted by ``offset`` weeks."""
    monday = day - timedelta(days=day.weekday()) + timedelta(weeks=offset)
    return monday, monday + timedelta(days=6)


def iso_week_bounds(year: int, week: int) -> Span | None:
    """Monday and Sunday of ISO week ``week`` of ``year``; None when the week does not exist."""
    try:
        monday = date.fromisocalendar(year, week, 1)
    except ValueError:
        return None
    return monday, monday + timedelta(days=6)


def shift_month(year: int, month: int, offset: int) -> tuple[int, int]:
    index = year * 12 + (month - 1) + offset
    return index // 12, index % 12 + 1


def month_bounds(year: int, month: int) -> Span:
    last = calendar.monthrange(year, month)[1]
    return date(year, month, 1), date(year, month, last)


def add_months(day: date, offset: int) -> date:
    """``day`` moved by whole months; the day of month is clamped (Mar 31 - 1 month = Feb 28/29)."""
    year, month = shift_month(day.year, day.month, offset)
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def quarter_of(day: date) -> int:
    return (day.month - 1) // 3 + 1


def quarter_bounds(year: int, quarter: int) -> Span:
    first_month = (quarter - 1) * 3 + 1
    return date(year, first_month, 1), month_bounds(year, first_month + 2)[1]


def year_bounds(year: int) -> Span:
    return date(year, 1, 1), date(year, 12, 31)


def previous_weekday(now: date, weekday: int) -> date:
    """The most recent ``weekday`` strictly before ``now``."""
    diff = (now.weekday() - weekday) % 7 or 7
    return now - timedelta(days=diff)


def next_weekday(now: date, weekday: int) -> date:
    """The first ``weekday`` strictly after ``now``."""
    diff = (weekday - now.weekday()) % 7 or 7
    return now + timedelta(days=diff)


def weekday_on_or_after(day: date, weekday: int) -> date:
    return day + timedelta(days=(weekday - day.weekday()) % 7)


def weekday_on_or_before(day: date, weekday: int) -> date:
    return day - timedelta(days=(day.weekday() - weekday) % 7)


def month_segment(year: int, month: int, segment: str) -> Span:
    """Days 1-10 (``start``), 11-20 (``mid``) or 21-last (``end``) of a month."""
    first, last = month_bounds(year, month)
    if segment == "start":
        return first, first + timedelta(days=9)
    if segment == "mid":
        return first + timedelta(days=10), first + timedelta(days=19)
    return first + timedelta(days=20), last


def nearest_month(now: date, month: int, tense: str) -> int:
    """The year of the ``month`` a query means: last one (past), next one (future) or the nearer.

    The current month counts as both the last and the next one.
    """
    back = (now.month - month) % 12
    ahead = (month - now.month) % 12
    if tense == "past" or (tense != "future" and back <= ahead):
        return now.year if month <= now.month else now.year - 1
    return now.year if month >= now.month else now.year + 1


def easter_sunday(year: int) -> date:
    """Western (Gregorian) Easter Sunday, by the anonymous Gregorian algorithm."""
    a = year % 19
    b, c = divmod(year, 100)
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    el = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * el) // 451
    month, day = divmod(h + el - 7 * m + 114, 31)
    return date(year, month, day + 1)


def nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    """The ``n``-th ``weekday`` of a month (``n=-1``: the last one)."""
    first, last = month_bounds(year, month)
    if n < 0:
        return weekday_on_or_before(last, weekday)
    return weekday_on_or_after(first, weekday) + timedelta(weeks=n - 1)


def _fixed(month: int, day: int, length: int = 1) -> Callable[[int], Span]:
    def span(year: int) -> Span:
        start = date(year, month, day)
        return start, start + timedelta(days=length - 1)

    return span


def _easter(offset: int, length: int = 1) -> Callable[[int], Span]:
    def span(year: int) -> Span:
        start = easter_sunday(year) + timedelta(days=offset)
        return start, start + timedelta(days=length - 1)

    return span


def _nth(
    month: int, weekday: int, n: int, extra_days: int = 0, length: int = 1
) -> Callable[[int], Span]:
    def span(year: int) -> Span:
        day = nth_weekday(year, month, weekday, n) + timedelta(days=extra_days)
        return day, day + timedelta(days=length - 1)

    return span


def first_advent(year: int) -> date:
    """The first Sunday of Advent: four Sundays before Christmas (Nov 27 - Dec 3)."""
    return weekday_on_or_before(date(year, 12, 24), 6) - timedelta(weeks=3)


def _advent(offset: int, length: int = 1) -> Callable[[int], Span]:
    def span(year: int) -> Span:
        start = first_advent(year) + timedelta(days=offset)
        return start, start + timedelta(days=length - 1)

    return span


def _until(rule: Callable[[int], Span], month: int, day: int) -> Callable[[int], Span]:
    """From the start of ``rule``'s span to a fixed day of the same year."""

    def span(year: int) -> Span:
        return rule(year)[0], date(year, month, day)

    return span


#: Annual days by key; a language plugin maps its words onto these keys. Each gives (start, end).
#: Movable days are computed for any year: Easter by the Gregorian computus, Advent from
#: Christmas, the US Monday holidays as the n-th weekday of their month.
HOLIDAYS: dict[str, Callable[[int], Span]] = {
    "new_year": _fixed(1, 1),
    "epiphany": _fixed(1, 6),
    "valentines": _fixed(2, 14),
    "carnival_monday": _easter(-48),
    "ash_wednesday": _easter(-46),
    "good_friday": _easter(-2),
    "easter": _easter(0),
    "easter_days": _easter(0, 2),
    "easter_monday": _easter(1),
    "labour_day": _fixed(5, 1),
    "mothers_day": _nth(5, 6, 2),
    "ascension": _easter(39),
    "pentecost": _easter(49, 2),
    "whit_monday": _easter(50),
    "corpus_christi": _easter(60),
    "independence_day": _fixed(7, 4),
    "german_unity": _fixed(10, 3),
    "halloween": _fixed(10, 31),
    "reformation": _fixed(10, 31),
    "all_saints": _fixed(11, 1),
    "thanksgiving": _nth(11, 3, 4),
    "black_friday": _nth(11, 3, 4, 1),
    "st_nicholas": _fixed(12, 6),
    "christmas_eve": _fixed(12, 24),
    "christmas": _fixed(12, 25),
    "christmas_days": _fixed(12, 24, 3),
    "boxing_day": _fixed(12, 26),
    "between_years": _fixed(12, 27, 4),
    "new_years_eve": _fixed(12, 31),
    # the US federal calendar and other US days
    "mlk_day": _nth(1, 0, 3),
    "groundhog_day": _fixed(2, 2),
    "presidents_day": _nth(2, 0, 3),
    "st_patricks": _fixed(3, 17),
    "memorial_day": _nth(5, 0, -1),
    "juneteenth": _fixed(6, 19),
    "fathers_day": _nth(6, 6, 3),
    "labor_day_us": _nth(9, 0, 1),
    "columbus_day": _nth(10, 0, 2),
    "election_day": _nth(11, 0, 1, 1),
    "veterans_day": _fixed(11, 11),
    "thanksgiving_weekend": _nth(11, 3, 4, 0, 4),
    "memorial_weekend": _nth(5, 0, -1, -2, 3),
    "labor_weekend": _nth(9, 0, 1, -2, 3),
    # Germany's public and observed days, and the church year around them
    "weiberfastnacht": _easter(-52),
    "carnival": _easter(-52, 7),
    "shrove_tuesday": _easter(-47),
    "womens_day": _fixed(3, 8),
    "palm_sunday": _easter(-7),
    "holy_week": _easter(-7, 7),
    "maundy_thursday": _easter(-3),
    "holy_saturday": _easter(-1),
    "easter_weekend": _easter(-2, 4),
    "lent": _easter(-46, 46),
    "pentecost_sunday": _easter(49),
    "pentecost_weekend": _easter(48, 3),
    "assumption": _fixed(8, 15),
    "childrens_day_de": _fixed(9, 20),
    "harvest_festival": _nth(10, 6, 1),
    "st_martin": _fixed(11, 11),
    "remembrance_sunday_de": _advent(-14),
    "repentance_day": _advent(-11),
    "dead_sunday": _advent(-7),
    "advent_1": _advent(0),
    "advent_2": _advent(7),
    "advent_3": _advent(14),
    "advent_4": _advent(21),
    "advent_season": _until(_advent(0), 12, 24),
    "year_end_holidays": _fixed(12, 24, 9),
    "year_change": _fixed(12, 31, 2),
}


def annual_occurrence(
    rule: Callable[[int], Span], now: date, tense: str, year: int | None = None
) -> Span | None:
    """The occurrence of a yearly span a query means.

    With an explicit ``year`` that year's; otherwise the last one on or before today (past tense),
    the next one on or after today (future tense), or whichever is nearer (ties: the next one).
    Years where ``rule`` has no such day (Feb 29) are skipped; None when there is none at all.
    """

    def at(y: int) -> Span | None:
        try:
            return rule(y)
        except ValueError:
            return None

    if year is not None:
        return at(year)
    candidates = [s for y in range(now.year - 4, now.year + 5) if (s := at(y)) is not None]
    for span in candidates:
        if span[0] <= now <= span[1]:
            return span
    before = [s for s in candidates if s[1] < now]
    after = [s for s in candidates if s[0] > now]
    last = before[-1] if before else None
    upcoming = after[0] if after else None
    if tense == "past" or upcoming is None:
        return last
    if tense == "future" or last is None:
        return upcoming
    return last if (now - last[1]).days < (upcoming[0] - now).days else upcoming


def holiday_span(key: str, now: date, tense: str, year: int | None = None) -> Span:
    """The occurrence of the annual day ``key`` (see ``HOLIDAYS``) a query means."""
    span = annual_occurrence(HOLIDAYS[key], now, tense, year)
    if span is None:  # only at the calendar's ends: "last Christmas" asked in the year 1
        raise ValueError(f"no {key} near {now}")
    return span
