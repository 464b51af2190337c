"""Parts of a month or year: n-th weekdays, halves, n-th weekends and weeks, days of a relative
month, the first or last days of one; pinned dates and invariants on every "now"."""

from __future__ import annotations

import calendar
from datetime import date, timedelta

import pytest
from temporal_nows import NOWS, iso, ymd

from ctx.core.temporal import TemporalParser

W = date(2026, 3, 25)  # Wednesday
YE, NY, LEAP, SUN = date(2026, 12, 31), date(2027, 1, 1), date(2024, 2, 29), date(2026, 6, 7)


@pytest.mark.parametrize(
    ("text", "now", "start", "end", "rule"),
    [
        ("the second Friday in June", W, "2026-06-12", "2026-06-12", "ordinal_weekday"),
        ("am letzten Donnerstag im Monat", W, "2026-03-26", "2026-03-26", "ordinal_weekday"),
        ("the last Friday of May", W, "2026-05-29", "2026-05-29", "ordinal_weekday"),
        ("first Monday of next month", W, "2026-04-06", "2026-04-06", "ordinal_weekday"),
        ("am ersten Montag im Oktober", W, "2025-10-06", "2025-10-06", "ordinal_weekday"),
        ("the 2nd Monday in January", YE, "2027-01-11", "2027-01-11", "ordinal_weekday"),
        ("last Friday in February", LEAP, "2024-02-23", "2024-02-23", "ordinal_weekday"),
        ("am zweiten Dienstag im März 2024", W, "2024-03-12", "2024-03-12", "ordinal_weekday"),
        ("the last Sunday of the month", SUN, "2026-06-28", "2026-06-28", "ordinal_weekday"),
        # a past question about a day of "the month" still ahead means last month's
        ("what did we decide on the last Thursday of the month", W, "2026-02-26", "2026-02-26",
         "ordinal_weekday"),
        ("the first half of February", W, "2026-02-01", "2026-02-14", "month_half"),
        ("second half of February", LEAP, "2024-02-15", "2024-02-29", "month_half"),
        ("in der zweiten Novemberhälfte", W, "2025-11-16", "2025-11-30", "month_half"),
        ("die erste Junihälfte", W, "2026-06-01", "2026-06-15", "month_half"),
        ("in der ersten Monatshälfte", W, "2026-03-01", "2026-03-15", "month_half"),
        ("the second half of the year", W, "2026-07-01", "2026-12-31", "month_half"),
        ("H1 2025", W, "2025-01-01", "2025-06-30", "month_half"),
        ("im zweiten Halbjahr 2027", W, "2027-07-01", "2027-12-31", "month_half"),
        ("the last weekend of April", W, "2026-04-25", "2026-04-26", "month_weekend"),
        ("am ersten Wochenende im Mai", W, "2026-05-02", "2026-05-03", "month_weekend"),
        ("the first weekend of March 2026", W, "2026-03-07", "2026-03-08", "month_weekend"),
        ("am letzten Wochenende im Januar", YE, "2027-01-30", "2027-01-31", "month_weekend"),
        ("the last weekend of the month", YE, "2026-12-26", "2026-12-27", "month_weekend"),
        ("the first week of May", W, "2026-05-01", "2026-05-07", "month_week"),
        ("the last week of February", LEAP, "2024-02-23", "2024-02-29", "month_week"),
        ("die zweite Woche im Juli", W, "2026-07-08", "2026-07-14", "month_week"),
        ("the first of next month", W, "2026-04-01", "2026-04-01", "month_day"),
        ("am 1. des nächsten Monats", YE, "2027-01-01", "2027-01-01", "month_day"),
        # April has no 31st: the month itself is the nearest reading
        ("the 31st of next month", W, "2026-04-01", "2026-04-30", "relative_month"),
        ("the last 7 days of March", W, "2026-03-25", "2026-03-31", "month_stretch"),
        ("die ersten zwei Wochen im Mai", W, "2026-05-01", "2026-05-14", "month_stretch"),
        ("the first three months of the year", NY, "2027-01-01", "2027-03-31", "month_stretch"),
        ("the last 3 days of the month", LEAP, "2024-02-27", "2024-02-29", "month_stretch"),
        # abbreviations, "latter"/"final", German genitives and month compounds
        ("2nd Tuesday of Nov release notes", W, "2025-11-11", "2025-11-11", "ordinal_weekday"),
        ("the latter half of October", W, "2025-10-16", "2025-10-31", "month_half"),
        ("the final week of December", W, "2025-12-25", "2025-12-31", "month_week"),
        ("erste Hälfte des Februars", W, "2026-02-01", "2026-02-14", "month_half"),
        ("in der ersten Maiwoche", W, "2026-05-01", "2026-05-07", "month_week"),
        ("in der letzten Dezemberwoche", YE, "2026-12-25", "2026-12-31", "month_week"),
        ("am zweiten Septemberwochenende", W, "2025-09-13", "2025-09-14", "month_weekend"),
    ],
)  # fmt: skip
def test_pinned(
    bilingual: TemporalParser, text: str, now: date, start: str, end: str, rule: str | None
) -> None:
    result = bilingual.parse(text, now=now)
    assert iso(result) == (start, end)
    assert (result.matcher or ".").split(".")[1] == (rule or "")


@pytest.mark.parametrize("now", NOWS, ids=str)
@pytest.mark.parametrize(("weekday", "name"), [(0, "Monday"), (4, "Friday"), (6, "Sunday")])
@pytest.mark.parametrize("n", [1, 2, 3, 4, -1])
def test_nth_weekday_of_a_named_month_on_every_day(
    bilingual: TemporalParser, now: date, weekday: int, name: str, n: int
) -> None:
    word = {1: "first", 2: "second", 3: "third", 4: "fourth", -1: "last"}[n]
    result = bilingual.parse(f"the {word} {name} of June 2027", now=now)
    day = result.start
    assert day is not None and day == result.end
    assert (day.year, day.month, day.weekday()) == (2027, 6, weekday)
    if n > 0:
        assert (day.day - 1) // 7 + 1 == n
    else:
        assert day.day + 7 > calendar.monthrange(2027, 6)[1]


@pytest.mark.parametrize("now", NOWS, ids=str)
def test_halves_and_weekends_of_this_month_on_every_day(
    bilingual: TemporalParser, now: date
) -> None:
    length = calendar.monthrange(now.year, now.month)[1]
    first = bilingual.parse("die erste Monatshälfte", now=now)
    second = bilingual.parse("the second half of this month", now=now)
    assert (first.start, first.end) == (now.replace(day=1), now.replace(day=length // 2))
    assert second.start == now.replace(day=length // 2 + 1)
    assert second.end == now.replace(day=length)
    weekend = bilingual.parse("the first weekend of this month", now=now)
    assert weekend.start is not None and weekend.end is not None
    assert weekend.start.weekday() == 5 and weekend.start.day <= 7
    assert weekend.end == weekend.start + timedelta(days=1)


@pytest.mark.parametrize("year", [2023, 2024, 2025, 2026, 2027, 2028])
def test_last_weekend_of_every_month(bilingual: TemporalParser, year: int) -> None:
    for month, name in enumerate(calendar.month_name[1:], start=1):
        result = bilingual.parse(f"the last weekend of {name} {year}", now=W)
        saturday = result.start
        assert saturday is not None and saturday.weekday() == 5
        assert (saturday.year, saturday.month) == (year, month)
        assert saturday.day + 7 > calendar.monthrange(year, month)[1]


@pytest.mark.parametrize(
    "text",
    ["the first half of the match", "die erste Hälfte des Buches", "half of the team left",
     "the second Friday", "the last week", "the first week of the project"],
)  # fmt: skip
def test_no_month_part_without_a_month(bilingual: TemporalParser, text: str) -> None:
    result = bilingual.parse(text, now=W)
    rule = (result.matcher or ".").split(".")[1]
    assert rule not in ("month_half", "month_week", "month_weekend", "ordinal_weekday")


def test_a_fifth_weekday_only_where_the_month_has_one(bilingual: TemporalParser) -> None:
    assert iso(bilingual.parse("the fifth Friday of May 2026", now=W)) == ("2026-05-29",) * 2
    result = bilingual.parse("the fifth Friday of June 2026", now=W)
    assert result.matcher is None or "ordinal_weekday" not in result.matcher
    assert ymd("2026-06-26").weekday() == 4  # June 2026 has four Fridays: 5, 12, 19, 26
