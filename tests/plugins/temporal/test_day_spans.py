"""Spans between two days of the calendar and since/until a day, and ISO weeks by number."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from temporal_nows import NOWS, iso

from ctx.core.temporal import TemporalParser

W = date(2026, 3, 25)  # Wednesday
YE, NY, LEAP, SUN = date(2026, 12, 31), date(2027, 1, 1), date(2024, 2, 29), date(2026, 6, 7)


@pytest.mark.parametrize(
    ("text", "now", "start", "end"),
    [
        ("from the 4th to the 9th of May", W, "2026-05-04", "2026-05-09"),
        ("vom 2. bis 6. Juni", W, "2026-06-02", "2026-06-06"),
        ("May 4 to 9", W, "2026-05-04", "2026-05-09"),
        ("the offsite is May 4-9", YE, "2027-05-04", "2027-05-09"),
        ("4.-9. Juni", W, "2026-06-04", "2026-06-09"),
        ("vom 28. Mai bis 3. Juni", W, "2026-05-28", "2026-06-03"),
        ("from May 28 to June 3", W, "2026-05-28", "2026-06-03"),
        ("between the 4th and 9th of May", W, "2026-05-04", "2026-05-09"),
        ("zwischen dem 10. und 20. Februar 2025", W, "2025-02-10", "2025-02-20"),
        ("June 2-6, 2027", W, "2027-06-02", "2027-06-06"),
        ("vom 3.5. bis 7.5.", W, "2026-05-03", "2026-05-07"),
        ("from December 27 to January 3", W, "2025-12-27", "2026-01-03"),
        ("vom 28. Dezember bis 2. Januar", YE, "2026-12-28", "2027-01-02"),
        ("from Feb 27 to Mar 2", LEAP, "2024-02-27", "2024-03-02"),
        ("seit dem 7. Mai", W, "2025-05-07", "2026-03-25"),
        ("since the 1st of March", W, "2026-03-01", "2026-03-25"),
        ("until May 7", W, "2026-03-25", "2026-05-07"),
        ("bis zum 7. Mai", SUN, "2026-06-07", "2027-05-07"),
    ],
)
def test_day_spans(bilingual: TemporalParser, text: str, now: date, start: str, end: str) -> None:
    result = bilingual.parse(text, now=now)
    assert iso(result) == (start, end)
    assert result.is_range  # a span, not the two days at its ends


@pytest.mark.parametrize("now", NOWS, ids=str)
def test_a_span_without_a_year_is_the_nearer_one(bilingual: TemporalParser, now: date) -> None:
    result = bilingual.parse("vom 10. bis 12. Juli", now=now)
    assert result.start is not None and result.end is not None
    assert (result.start.month, result.start.day, result.end.day) == (7, 10, 12)
    other = [date(result.start.year + k, 7, 10) for k in (-1, 1)]
    distance = abs((result.start - now).days)
    assert all(distance <= abs((d - now).days) + 2 for d in other)


@pytest.mark.parametrize(
    ("text", "now", "start", "end"),
    [
        ("week 12", W, "2026-03-16", "2026-03-22"),
        ("what happened in week 12", W, "2026-03-16", "2026-03-22"),
        ("Woche 12", W, "2026-03-16", "2026-03-22"),
        ("KW 12/2027", W, "2027-03-22", "2027-03-28"),
        ("12. KW", W, "2026-03-16", "2026-03-22"),
        ("in der 12. KW", LEAP, "2024-03-18", "2024-03-24"),
        ("KW 12-14", W, "2026-03-16", "2026-04-05"),
        ("KW 12 bis 14", W, "2026-03-16", "2026-04-05"),
        ("2027-W12", W, "2027-03-22", "2027-03-28"),
        ("2025-W01", SUN, "2024-12-30", "2025-01-05"),
        ("in KW 2", YE, "2027-01-11", "2027-01-17"),
        ("calendar week 1", YE, "2027-01-04", "2027-01-10"),
        ("week 53", NY, "2026-12-28", "2027-01-03"),
        ("week 53 of 2026", W, "2026-12-28", "2027-01-03"),
        ("KW 1/2026", YE, "2025-12-29", "2026-01-04"),
        ("in der 40. Kalenderwoche", W, "2025-09-29", "2025-10-05"),
    ],
)
def test_iso_weeks(bilingual: TemporalParser, text: str, now: date, start: str, end: str) -> None:
    result = bilingual.parse(text, now=now)
    assert iso(result) == (start, end)
    assert result.matcher is not None and result.matcher.endswith("iso_week")


@pytest.mark.parametrize("now", NOWS, ids=str)
@pytest.mark.parametrize("week", [1, 12, 26, 52])
def test_every_iso_week_is_a_monday_to_sunday_week(
    bilingual: TemporalParser, now: date, week: int
) -> None:
    result = bilingual.parse(f"KW {week}", now=now)
    assert result.start is not None and result.end is not None
    assert result.start.weekday() == 0 and result.end - result.start == timedelta(days=6)
    assert result.start.isocalendar()[1] == week
    # the nearer of this ISO year's and the neighbours' week: never more than ~half a year off
    assert abs((result.start - now).days) <= 190


@pytest.mark.parametrize(
    "text",
    ["week 3 of the project", "Woche 3 des Projekts", "2 weeks 3 days", "a week-long workshop"],
)
def test_no_iso_week_in_other_numbers(bilingual: TemporalParser, text: str) -> None:
    result = bilingual.parse(text, now=W)
    assert result.matcher is None or not result.matcher.endswith("iso_week")


@pytest.mark.parametrize(
    ("text", "now", "start", "end"),
    [
        ("anything from the 3rd?", W, "2026-03-03", "2026-03-03"),
        ("what did we decide on the 28th", W, "2026-02-28", "2026-02-28"),  # past, still ahead
        ("what is planned for the 2nd", W, "2026-04-02", "2026-04-02"),  # future, already gone
        ("was war am 3.?", W, "2026-03-03", "2026-03-03"),
        ("the 15th through the 20th", W, "2026-03-15", "2026-03-20"),
        ("since the 3rd", W, "2026-03-03", "2026-03-25"),
        ("28.5.-3.6.", W, "2026-05-28", "2026-06-03"),
        ("vom 27.12.-2.1.", W, "2025-12-27", "2026-01-02"),
        ("3.5. bis 7.5.2027", W, "2027-05-03", "2027-05-07"),
        ("zwischen dem 15. und 20. August", W, "2026-08-15", "2026-08-20"),
        ("diese KW", W, "2026-03-23", "2026-03-29"),
        ("nächste KW Planung", YE, "2027-01-04", "2027-01-10"),
        ("in KW 7 und 8", W, "2026-02-09", "2026-02-22"),
    ],
)
def test_bare_days_numeric_ranges_and_relative_weeks(
    bilingual: TemporalParser, text: str, now: date, start: str, end: str
) -> None:
    assert iso(bilingual.parse(text, now=now)) == (start, end)


@pytest.mark.parametrize(
    "text",
    ["the 3rd attempt failed", "Version 3.2.-4.1. changelog", "3.2.-4.1.", "the 2nd option",
     "am 3. Versuch gescheitert"],
)  # fmt: skip
def test_numbers_that_count_things_are_no_days(bilingual: TemporalParser, text: str) -> None:
    assert bilingual.parse(text, now=W).matcher is None


@pytest.mark.parametrize("now", NOWS, ids=str)
def test_a_bare_day_is_in_this_month_unless_the_tense_moves_it(
    bilingual: TemporalParser, now: date
) -> None:
    neutral = bilingual.parse("the 1st", now=now).start
    assert neutral == now.replace(day=1)
    past = bilingual.parse("what did we decide on the 28th", now=now).start
    assert past is not None and past.day == 28 and past <= now
    assert (now - past).days < 31
