"""Rolling spans ("the last 5 days", "in den vergangenen zwei Wochen") and parts of a period
("earlier this week", "so far this year"), pinned on several "nows"."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from temporal_nows import NOWS, days, iso

from ctx.core.temporal import TemporalParser

W = date(2026, 3, 25)  # Wednesday


@pytest.mark.parametrize(
    ("text", "now", "start", "end", "matcher"),
    [
        ("the last 5 days", W, "2026-03-20", "2026-03-25", "en.rolling_span"),
        ("in den vergangenen zwei Wochen", W, "2026-03-11", "2026-03-25", "de.rolling_span"),
        ("over the past month", W, "2026-02-25", "2026-03-25", "en.rolling_span"),
        ("the past year", W, "2025-03-25", "2026-03-25", "en.rolling_span"),
        ("within the last week", W, "2026-03-18", "2026-03-25", "en.rolling_span"),
        ("innerhalb der letzten Woche", W, "2026-03-18", "2026-03-25", "de.rolling_span"),
        ("in den letzten Tagen", W, "2026-03-22", "2026-03-25", "de.rolling_span"),
        ("the last few days", W, "2026-03-22", "2026-03-25", "en.rolling_span"),
        ("the last couple of weeks", W, "2026-03-11", "2026-03-25", "en.rolling_span"),
        ("the last 24 hours", W, "2026-03-24", "2026-03-25", "en.rolling_span"),
        ("in den letzten 48 Stunden", W, "2026-03-23", "2026-03-25", "de.rolling_span"),
        ("the next 3 days", W, "2026-03-25", "2026-03-28", "en.rolling_span"),
        ("in den nächsten zwei Wochen", W, "2026-03-25", "2026-04-08", "de.rolling_span"),
        ("in the coming weeks", W, "2026-03-25", "2026-04-15", "en.rolling_span"),
        ("in den kommenden Monaten", W, "2026-03-25", "2026-06-25", "de.rolling_span"),
        ("the last 30 days", date(2024, 3, 1), "2024-01-31", "2024-03-01", "en.rolling_span"),
        ("the past 6 months", date(2026, 12, 31), "2026-06-30", "2026-12-31", "en.rolling_span"),
        ("the last two years", date(2024, 2, 29), "2022-02-28", "2024-02-29", "en.rolling_span"),
        ("the last 3 days", date(2027, 1, 1), "2026-12-29", "2027-01-01", "en.rolling_span"),
        ("die nächsten 7 Tage", date(2026, 12, 29), "2026-12-29", "2027-01-05", "de.rolling_span"),
    ],
)
def test_rolling_spans(
    bilingual: TemporalParser, text: str, now: date, start: str, end: str, matcher: str
) -> None:
    result = bilingual.parse(text, now=now)
    assert (iso(result), result.matcher) == ((start, end), matcher)
    assert result.is_range
    assert result.direction == ("future" if start == now.isoformat() else "past")


@pytest.mark.parametrize(
    ("text", "start", "end", "matcher"),
    [
        # the calendar week and month keep their first-round meaning
        ("last week", "2026-03-16", "2026-03-22", "en.relative_week"),
        ("letzte Woche", "2026-03-16", "2026-03-22", "de.relative_week"),
        ("vergangene Woche", "2026-03-16", "2026-03-22", "de.relative_week"),
        ("in der nächsten Woche", "2026-03-30", "2026-04-05", "de.relative_week"),
        ("last month", "2026-02-01", "2026-02-28", "en.relative_month"),
        ("next week", "2026-03-30", "2026-04-05", "en.relative_week"),
    ],
)
def test_calendar_periods_stay_calendar_periods(
    bilingual: TemporalParser, text: str, start: str, end: str, matcher: str
) -> None:
    result = bilingual.parse(text, now=W)
    assert (iso(result), result.matcher) == ((start, end), matcher)


@pytest.mark.parametrize("now", NOWS, ids=str)
@pytest.mark.parametrize("amount", [1, 5, 14])
def test_last_and_next_n_days_on_every_day(
    bilingual: TemporalParser, now: date, amount: int
) -> None:
    back = timedelta(days=amount)
    assert days(bilingual.parse(f"the last {amount} days", now=now)) == (now - back, now)
    assert days(bilingual.parse(f"in den letzten {amount} Tagen", now=now)) == (now - back, now)
    assert days(bilingual.parse(f"the next {amount} days", now=now)) == (now, now + back)
    assert days(bilingual.parse(f"in den nächsten {amount} Tagen", now=now)) == (now, now + back)


@pytest.mark.parametrize("now", NOWS, ids=str)
def test_rolling_weeks_and_months_on_every_day(bilingual: TemporalParser, now: date) -> None:
    assert days(bilingual.parse("the past two weeks", now=now)) == (now - timedelta(weeks=2), now)
    month = bilingual.parse("over the past month", now=now)
    assert month.end == now and month.start is not None
    # a month back: the same day of the previous month, or its last day when that is shorter
    assert month.start.month == (now.month - 2) % 12 + 1
    assert month.start.day == min(now.day, (now.replace(day=1) - timedelta(days=1)).day)


@pytest.mark.parametrize(
    ("text", "now", "start", "end"),
    [
        ("earlier this week", W, "2026-03-23", "2026-03-25"),
        ("later this week", W, "2026-03-25", "2026-03-29"),
        ("this week so far", W, "2026-03-23", "2026-03-25"),
        ("Rest der Woche", W, "2026-03-25", "2026-03-29"),
        ("earlier this month", W, "2026-03-01", "2026-03-25"),
        ("later this month", W, "2026-03-25", "2026-03-31"),
        ("the rest of the month", date(2024, 2, 10), "2024-02-10", "2024-02-29"),
        ("bisher in diesem Monat", W, "2026-03-01", "2026-03-25"),
        ("so far this year", W, "2026-01-01", "2026-03-25"),
        ("year to date", date(2026, 12, 31), "2026-01-01", "2026-12-31"),
        ("YTD", date(2027, 1, 1), "2027-01-01", "2027-01-01"),
        ("bisher in diesem Jahr", W, "2026-01-01", "2026-03-25"),
        ("this quarter so far", W, "2026-01-01", "2026-03-25"),
        ("later this year", date(2026, 12, 31), "2026-12-31", "2026-12-31"),
        ("earlier this week", date(2026, 6, 7), "2026-06-01", "2026-06-07"),
        ("later this week", date(2026, 6, 1), "2026-06-01", "2026-06-07"),
        # no side named: the tense decides
        ("im Laufe der Woche", W, "2026-03-25", "2026-03-29"),
        ("was war im Laufe der Woche", W, "2026-03-23", "2026-03-25"),
    ],
)
def test_parts_of_a_period(
    bilingual: TemporalParser, text: str, now: date, start: str, end: str
) -> None:
    result = bilingual.parse(text, now=now)
    assert iso(result) == (start, end)
    assert result.matcher is not None and result.matcher.endswith("part_of_period")


@pytest.mark.parametrize("now", NOWS, ids=str)
def test_parts_of_the_week_on_every_day(bilingual: TemporalParser, now: date) -> None:
    monday = now - timedelta(days=now.weekday())
    assert days(bilingual.parse("earlier this week", now=now)) == (monday, now)
    assert days(bilingual.parse("later this week", now=now)) == (now, monday + timedelta(days=6))
    assert days(bilingual.parse("so far this year", now=now)) == (now.replace(month=1, day=1), now)


@pytest.mark.parametrize(
    "text",
    ["in the past", "the rest of the team", "we spent a few days on it", "later, alligator",
     "the last days of Rome", "earlier versions of the API"],
)  # fmt: skip
def test_no_span_without_a_period(bilingual: TemporalParser, text: str) -> None:
    result = bilingual.parse(text, now=W)
    assert result.matcher is None or not result.matcher.endswith(("rolling_span", "part_of_period"))


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("two weekends ago", "2026-03-14", "2026-03-15"),
        ("vor zwei Wochenenden", "2026-03-14", "2026-03-15"),
        ("a weekend ago", "2026-03-21", "2026-03-22"),
    ],
)
def test_counted_weekends_back(bilingual: TemporalParser, text: str, start: str, end: str) -> None:
    assert iso(bilingual.parse(text, now=W)) == (start, end)
