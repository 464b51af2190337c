"""English rules: every matcher, negatives, every weekday as "now", month, year and leap boundaries."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from ctx.core.runtime import PluginHost
from ctx.core.temporal import TemporalParser, TemporalResult, parser_from_host

NOW = date(2026, 3, 25)  # Wednesday
WEEK = [date(2026, 3, 23) + timedelta(days=i) for i in range(7)]  # Monday .. Sunday
EDGES = [date(2026, 12, 31), date(2027, 1, 1), date(2024, 2, 29), date(2026, 2, 28),
         date(2026, 3, 1), date(2025, 12, 29)]  # fmt: skip


@pytest.fixture(scope="module")
def parser() -> TemporalParser:
    host = PluginHost(("temporal-en",), load_entry_points=False)
    return parser_from_host(host)


def parse(parser: TemporalParser, text: str, now: date = NOW) -> TemporalResult:
    return parser.parse(text, now=now, lang="en")


def span(result: TemporalResult) -> tuple[str | None, str | None]:
    j = result.to_json()
    return j["start"], j["end"]


@pytest.mark.parametrize(
    ("text", "matcher", "start", "end", "direction"),
    [
        ("what happened on 2026-03-20", "en.iso_date", "2026-03-20", "2026-03-20", "past"),
        ("2026-03-01 to 2026-03-05", "en.iso_date", "2026-03-01", "2026-03-05", "past"),
        ("between 2026-03-20 and 2026-04-02", "en.iso_date", "2026-03-20", "2026-04-02", "both"),
        ("since 2026-03-01", "en.iso_date", "2026-03-01", "2026-03-25", "past"),
        ("until 2026-04-10", "en.iso_date", "2026-03-25", "2026-04-10", "future"),
        ("meeting on May 7, 2023", "en.explicit_date", "2023-05-07", "2023-05-07", "past"),
        ("what is planned for May 7", "en.explicit_date", "2026-05-07", "2026-05-07", "future"),
        ("from Monday to Wednesday", "en.range", "2026-03-30", "2026-04-01", "future"),
        ("what did we do from Monday to Wednesday", "en.range", "2026-03-23", "2026-03-25", "both"),
        ("Monday through Friday", "en.range", "2026-03-30", "2026-04-03", "future"),
        ("from March to May", "en.range", "2026-03-01", "2026-05-31", "both"),
        ("between yesterday and tomorrow", "en.range", "2026-03-24", "2026-03-26", "both"),
        ("since last week", "en.since_until", "2026-03-16", "2026-03-25", "past"),
        ("since March", "en.since_until", "2026-03-01", "2026-03-25", "past"),
        ("until Friday", "en.since_until", "2026-03-25", "2026-03-27", "future"),
        ("early this week", "en.week_segment", "2026-03-23", "2026-03-24", "past"),
        ("end of next week", "en.week_segment", "2026-04-03", "2026-04-05", "future"),
        ("midweek", "en.week_segment", "2026-03-24", "2026-03-26", "both"),
        ("Tuesday next week", "en.weekday_in_week", "2026-03-31", "2026-03-31", "future"),
        ("last week Friday", "en.weekday_in_week", "2026-03-20", "2026-03-20", "past"),
        ("Tuesday in a week", "en.weekday_in_week", "2026-04-07", "2026-04-07", "future"),
        ("last week", "en.relative_week", "2026-03-16", "2026-03-22", "past"),
        ("this week", "en.relative_week", "2026-03-23", "2026-03-29", "both"),
        ("next week", "en.relative_week", "2026-03-30", "2026-04-05", "future"),
        ("the week after next", "en.relative_week", "2026-04-06", "2026-04-12", "future"),
        ("the week before last", "en.relative_week", "2026-03-09", "2026-03-15", "past"),
        ("calendar week 12", "en.iso_week", "2026-03-16", "2026-03-22", "past"),
        ("Christmas", "en.holiday", "2025-12-25", "2025-12-25", "past"),
        ("next Easter", "en.holiday", "2026-04-05", "2026-04-05", "future"),
        ("Christmas Eve 2024", "en.holiday", "2024-12-24", "2024-12-24", "past"),
        ("Thanksgiving", "en.holiday", "2025-11-27", "2025-11-27", "past"),
        ("New Year's Eve", "en.holiday", "2025-12-31", "2025-12-31", "past"),
        ("end of last month", "en.month_segment", "2026-02-21", "2026-02-28", "past"),
        ("early March", "en.month_segment", "2026-03-01", "2026-03-10", "past"),
        ("mid-April 2025", "en.month_segment", "2025-04-11", "2025-04-20", "past"),
        ("end of the year", "en.month_segment", "2026-12-01", "2026-12-31", "future"),
        ("in May", "en.month_name", "2026-05-01", "2026-05-31", "future"),
        ("in March", "en.month_name", "2026-03-01", "2026-03-31", "both"),
        ("what did we do in January", "en.month_name", "2026-01-01", "2026-01-31", "past"),
        ("last December", "en.month_name", "2025-12-01", "2025-12-31", "past"),
        ("March 2024", "en.month_name", "2024-03-01", "2024-03-31", "past"),
        ("last month", "en.relative_month", "2026-02-01", "2026-02-28", "past"),
        ("next month", "en.relative_month", "2026-04-01", "2026-04-30", "future"),
        ("Q3 2025", "en.quarter", "2025-07-01", "2025-09-30", "past"),
        ("last quarter", "en.quarter", "2025-10-01", "2025-12-31", "past"),
        ("second quarter", "en.quarter", "2026-04-01", "2026-06-30", "future"),
        ("last year", "en.relative_year", "2025-01-01", "2025-12-31", "past"),
        ("in 2024", "en.relative_year", "2024-01-01", "2024-12-31", "past"),
        ("3 days ago", "en.relative_days", "2026-03-22", "2026-03-22", "past"),
        ("a week ago", "en.relative_days", "2026-03-18", "2026-03-18", "past"),
        ("in two weeks", "en.relative_days", "2026-04-08", "2026-04-08", "future"),
        ("a month from now", "en.relative_days", "2026-04-25", "2026-04-25", "future"),
        ("yesterday evening", "en.time_of_day", "2026-03-24", "2026-03-24", "past"),
        ("tonight", "en.time_of_day", "2026-03-25", "2026-03-25", "both"),
        ("last night", "en.time_of_day", "2026-03-24", "2026-03-24", "past"),
        ("next weekend", "en.weekend", "2026-03-28", "2026-03-29", "future"),
        ("what did we do at the weekend", "en.weekend", "2026-03-21", "2026-03-22", "past"),
        ("today and tomorrow", "en.multi_keyword", "2026-03-25", "2026-03-26", "both"),
        ("Monday or Wednesday", "en.multi_keyword", "2026-03-30", "2026-04-01", "future"),
        ("last Tuesday", "en.weekday", "2026-03-24", "2026-03-24", "past"),
        ("next Tuesday", "en.weekday", "2026-03-31", "2026-03-31", "future"),
        ("what did we decide on Friday", "en.weekday", "2026-03-20", "2026-03-20", "past"),
        ("what is planned on Friday", "en.weekday", "2026-03-27", "2026-03-27", "future"),
        ("today", "en.keyword", "2026-03-25", "2026-03-25", "both"),
        ("yesterday", "en.keyword", "2026-03-24", "2026-03-24", "past"),
        ("the day after tomorrow", "en.keyword", "2026-03-27", "2026-03-27", "future"),
        ("yesterdy", "en.keyword", "2026-03-24", "2026-03-24", "past"),
        ("tomorow", "en.keyword", "2026-03-26", "2026-03-26", "future"),
        ("what did we do yestreday", "en.keyword", "2026-03-24", "2026-03-24", "past"),
    ],
)
def test_rules(
    parser: TemporalParser, text: str, matcher: str, start: str, end: str, direction: str
) -> None:
    result = parse(parser, text)
    assert result.matcher == matcher
    assert span(result) == (start, end)
    assert result.direction == direction


@pytest.mark.parametrize(
    "text",
    [
        "I may go to the store",
        "the March of Dimes",
        "we march on",
        "a second opinion",
        "the Sunday Times editorial",
        "my man Friday",
        "good morning team",
        "August Landmesser biography",
        "tomorrowland tickets",
        "in a second",
        "how do I configure embeddings",
        "the end of the story",
        "you may 3 times retry",
        "context nextjs",
    ],
)
def test_negatives_do_not_match(parser: TemporalParser, text: str) -> None:
    assert not parse(parser, text).matched


def test_time_of_day_alone_is_purely_cyclic(parser: TemporalParser) -> None:
    result = parse(parser, "every evening")
    assert result.matcher == "en.time_of_day"
    assert result.weights == {"daily": 1.0}
    assert result.hour == 19 and result.start is None


@pytest.mark.parametrize("now", WEEK, ids=lambda d: d.strftime("%a"))
@pytest.mark.parametrize("weekday", range(7))
def test_last_and_next_weekday_on_every_day(
    parser: TemporalParser, now: date, weekday: int
) -> None:
    name = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")[weekday]
    last = parse(parser, f"last {name}", now).start
    nxt = parse(parser, f"next {name}", now).start
    assert last is not None and nxt is not None
    assert last.weekday() == nxt.weekday() == weekday
    assert 1 <= (now - last).days <= 7
    assert 1 <= (nxt - now).days <= 7


@pytest.mark.parametrize("now", WEEK + EDGES, ids=str)
def test_relative_invariants_on_every_day(parser: TemporalParser, now: date) -> None:
    week = parse(parser, "this week", now)
    assert week.start is not None and week.end is not None
    assert week.start.weekday() == 0 and week.start <= now <= week.end
    assert (week.end - week.start).days == 6
    last_week = parse(parser, "last week", now)
    assert last_week.start == week.start - timedelta(days=7)
    assert parse(parser, "yesterday", now).start == now - timedelta(days=1)
    assert parse(parser, "tomorrow", now).start == now + timedelta(days=1)
    weekend = parse(parser, "this weekend", now)
    assert weekend.start is not None and weekend.end is not None
    assert (weekend.start.weekday(), weekend.end.weekday()) == (5, 6)
    assert now <= weekend.end and (weekend.start - now).days <= 6
    month = parse(parser, "this month", now)
    assert month.start == now.replace(day=1)
    assert month.end is not None and (month.end + timedelta(days=1)).day == 1


@pytest.mark.parametrize(
    ("now", "text", "start", "end"),
    [
        (date(2026, 1, 1), "last month", "2025-12-01", "2025-12-31"),
        (date(2026, 1, 1), "yesterday", "2025-12-31", "2025-12-31"),
        (date(2025, 12, 31), "tomorrow", "2026-01-01", "2026-01-01"),
        (date(2025, 12, 31), "next month", "2026-01-01", "2026-01-31"),
        (date(2026, 1, 1), "last week", "2025-12-22", "2025-12-28"),
        (date(2024, 3, 1), "yesterday", "2024-02-29", "2024-02-29"),
        (date(2024, 3, 15), "last month", "2024-02-01", "2024-02-29"),
        (date(2025, 3, 15), "last month", "2025-02-01", "2025-02-28"),
        (date(2024, 3, 29), "a month ago", "2024-02-29", "2024-02-29"),
        (date(2024, 2, 29), "in a year", "2025-02-28", "2025-02-28"),
        (date(2024, 2, 29), "tomorrow", "2024-03-01", "2024-03-01"),
        (date(2026, 1, 10), "what happened in December", "2025-12-01", "2025-12-31"),
        (date(2025, 12, 20), "what is planned in January", "2026-01-01", "2026-01-31"),
        (date(2026, 1, 2), "last quarter", "2025-10-01", "2025-12-31"),
        (date(2026, 1, 2), "Christmas", "2025-12-25", "2025-12-25"),
        (date(2026, 1, 1), "calendar week 1", "2025-12-29", "2026-01-04"),
    ],
)
def test_month_and_year_boundaries(
    parser: TemporalParser, now: date, text: str, start: str, end: str
) -> None:
    assert span(parse(parser, text, now)) == (start, end)


def test_feb_29_without_year_resolves_to_a_leap_year(parser: TemporalParser) -> None:
    assert parse(parser, "what happened on Feb 29", date(2026, 3, 25)).start == date(2024, 2, 29)
