"""Movable and fixed holidays of the US and Germany, for any year: checked through the parser
against the ``holidays`` library's official calendars, pinned where no official calendar has the
day (Muttertag, Advent, Totensonntag), and by their defining weekday rules from 1900 to 2100."""

from __future__ import annotations

from datetime import date, timedelta

import holidays
import pytest
from temporal_nows import iso

from ctx.core.temporal import TemporalParser

W = date(2026, 3, 25)
YEARS = range(2022, 2101)

#: (our phrase, country, subdivision, the library's English name, first year of the rule)
OFFICIAL = [
    ("MLK Day", "US", None, "Martin Luther King Jr. Day", 1986),
    ("Presidents' Day", "US", None, "Washington's Birthday", 1971),
    ("Memorial Day", "US", None, "Memorial Day", 1971),
    ("Juneteenth", "US", None, "Juneteenth National Independence Day", 2021),
    ("Independence Day", "US", None, "Independence Day", 1900),
    ("Labor Day", "US", None, "Labor Day", 1900),
    ("Columbus Day", "US", None, "Columbus Day", 1971),
    ("Veterans Day", "US", None, "Veterans Day", 1978),
    ("Thanksgiving", "US", None, "Thanksgiving Day", 1942),
    ("Karfreitag", "DE", None, "Good Friday", 1900),
    ("Ostermontag", "DE", None, "Easter Monday", 1900),
    ("Christi Himmelfahrt", "DE", None, "Ascension Day", 1900),
    ("Pfingstmontag", "DE", None, "Pentecost Monday", 1900),
    ("Fronleichnam", "DE", "BY", "Corpus Christi", 1900),
    ("Heilige Drei Könige", "DE", "BY", "Epiphany", 1900),
    ("Allerheiligen", "DE", "BY", "All Saints' Day", 1900),
    ("Mariä Himmelfahrt", "DE", "SL", "Assumption Day", 1900),
    ("Reformationstag", "DE", "SN", "Reformation Day", 1900),
    ("Buß- und Bettag", "DE", "SN", "Repentance and Prayer Day", 1995),
    ("Ostersonntag", "DE", "BB", "Easter Sunday", 1900),
    ("Pfingstsonntag", "DE", "BB", "Pentecost", 1900),
    ("Frauentag", "DE", "BE", "Women's Day", 2019),
    ("Weltkindertag", "DE", "TH", "World Children's Day", 2019),
    ("Tag der Deutschen Einheit", "DE", None, "German Unity Day", 1990),
]


@pytest.mark.parametrize(
    ("phrase", "country", "subdiv", "name", "since"), OFFICIAL, ids=[o[0] for o in OFFICIAL]
)
def test_official_days_match_the_holidays_library(
    bilingual: TemporalParser, phrase: str, country: str, subdiv: str | None, name: str, since: int
) -> None:
    years = [y for y in YEARS if y >= since]
    official = holidays.country_holidays(country, subdiv=subdiv, years=years, language="en_US")
    expected = {day.year: day for day, label in official.items() if label == name}
    assert set(expected) == set(years), f"the library has no {name!r} in some years"
    for year in years:
        result = bilingual.parse(f"{phrase} {year}", now=W)
        assert result.start == expected[year], f"{phrase} {year}"


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("Muttertag 2024", "2024-05-12", "2024-05-12"),
        ("Mother's Day 2027", "2027-05-09", "2027-05-09"),
        ("Father's Day 2025", "2025-06-15", "2025-06-15"),
        ("Vatertag 2026", "2026-05-14", "2026-05-14"),
        ("erster Advent 2023", "2023-12-03", "2023-12-03"),
        ("erster Advent 2024", "2024-12-01", "2024-12-01"),
        ("1. Advent 2025", "2025-11-30", "2025-11-30"),
        ("vierter Advent 2026", "2026-12-20", "2026-12-20"),
        ("Totensonntag 2025", "2025-11-23", "2025-11-23"),
        ("Volkstrauertag 2025", "2025-11-16", "2025-11-16"),
        ("Erntedank 2025", "2025-10-05", "2025-10-05"),
        ("Weiberfastnacht 2025", "2025-02-27", "2025-02-27"),
        ("Rosenmontag 2025", "2025-03-03", "2025-03-03"),
        ("Faschingsdienstag 2026", "2026-02-17", "2026-02-17"),
        ("Election Day 2024", "2024-11-05", "2024-11-05"),
        ("Election Day 2028", "2028-11-07", "2028-11-07"),
        ("St. Patrick's Day 2026", "2026-03-17", "2026-03-17"),
        ("Karwoche 2025", "2025-04-13", "2025-04-19"),
        ("Osterwochenende 2026", "2026-04-03", "2026-04-06"),
        ("Adventszeit 2025", "2025-11-30", "2025-12-24"),
        ("Fastenzeit 2026", "2026-02-18", "2026-04-04"),
        ("thanksgiving weekend 2026", "2026-11-26", "2026-11-29"),
        ("Martinstag 2026", "2026-11-11", "2026-11-11"),
        ("zwischen den Jahren 2026", "2026-12-27", "2026-12-30"),
    ],
)
def test_observances_without_an_official_calendar(
    bilingual: TemporalParser, text: str, start: str, end: str
) -> None:
    assert iso(bilingual.parse(text, now=W)) == (start, end)


@pytest.mark.parametrize("year", range(1900, 2101, 7))
def test_defining_weekday_rules_hold_for_two_centuries(
    bilingual: TemporalParser, year: int
) -> None:
    def day(text: str) -> date:
        found = bilingual.parse(f"{text} {year}", now=W).start
        assert found is not None, text
        return found

    advent = day("erster Advent")
    assert advent.weekday() == 6 and date(year, 11, 27) <= advent <= date(year, 12, 3)
    assert day("Buß- und Bettag") == advent - timedelta(days=11)
    assert day("Totensonntag") == advent - timedelta(days=7)
    assert day("Volkstrauertag") == advent - timedelta(days=14)
    thanksgiving = day("Thanksgiving")
    assert thanksgiving.weekday() == 3 and 22 <= thanksgiving.day <= 28
    memorial = day("Memorial Day")
    assert memorial.weekday() == 0 and memorial.month == 5 and memorial.day >= 25
    labor = day("Labor Day")
    assert labor.weekday() == 0 and labor.month == 9 and labor.day <= 7
    mothers = day("Muttertag")
    assert mothers.weekday() == 6 and mothers.month == 5 and 8 <= mothers.day <= 14
    easter = day("Ostersonntag")
    assert easter.weekday() == 6 and date(year, 3, 22) <= easter <= date(year, 4, 25)
    assert day("Fronleichnam") == easter + timedelta(days=60)
    assert day("Weiberfastnacht") == easter - timedelta(days=52)


@pytest.mark.parametrize(
    ("text", "now", "start"),
    [
        ("Memorial Day", date(2026, 6, 7), "2026-05-25"),  # 13 days ago beats a year ahead
        ("Memorial Day", W, "2026-05-25"),
        ("what did we do on Labor Day", W, "2025-09-01"),  # the past tense picks the last one
        ("Labor Day", W, "2026-09-07"),
        ("Buß- und Bettag", date(2026, 11, 18), "2026-11-18"),  # today is that day
        ("Thanksgiving", date(2026, 12, 31), "2026-11-26"),
        ("Fronleichnam", date(2026, 6, 7), "2026-06-04"),
    ],
)
def test_a_holiday_without_a_year_is_the_one_meant(
    bilingual: TemporalParser, text: str, now: date, start: str
) -> None:
    assert bilingual.parse(text, now=now).to_json()["start"] == start


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("Wie war die Weihnachtsfeier 2024?", "2024-12-24", "2024-12-26"),
        ("der Osterurlaub letztes Jahr", "2025-04-20", "2025-04-21"),
        ("die Silvesterparty 2025", "2025-12-31", "2025-12-31"),
        ("Pfingstferien 2027", "2027-05-16", "2027-05-17"),
    ],
)
def test_german_compounds_name_their_holiday(
    bilingual: TemporalParser, text: str, start: str, end: str
) -> None:
    result = bilingual.parse(text, now=W)
    assert iso(result) == (start, end)
    # the compound stays a topic: the text channels still search "weihnachtsfeier"
    assert (
        bilingual.residual(text)
        .split()[-1]
        .startswith(("weihnachts", "oster", "silvester", "pfingst"))
    )


@pytest.mark.parametrize(
    "text", ["Österreich im Sommer", "Osterei", "Osterinsel", "Pfingstrosen im Garten",
             "Osterglocken blühen"]
)  # fmt: skip
def test_words_that_only_look_like_compounds(bilingual: TemporalParser, text: str) -> None:
    # "Österreich" is no Easter, a tail too short is no compound ("Osterei"), and the Easter
    # Island, peonies and daffodils are plants and places
    assert bilingual.parse(text, now=W).matcher is None
