"""Date extraction from block content."""

from __future__ import annotations

from datetime import date

import pytest

from ctx.core.temporal.extract import find_dates, iter_date_mentions


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Deploy on 2023-05-07.", [date(2023, 5, 7)]),
        ("Meeting 7 May 2023 with Anna", [date(2023, 5, 7)]),
        ("met on May 7, 2023", [date(2023, 5, 7)]),
        ("met on May 7th 2023", [date(2023, 5, 7)]),
        ("am 7. Mai 2023 besprochen", [date(2023, 5, 7)]),
        ("Termin: 07.05.2023", [date(2023, 5, 7)]),
        ("Termin: 7.5.2023", [date(2023, 5, 7)]),
        ("12th of March 2024", [date(2024, 3, 12)]),
        ("Sept. 3rd, 2021", [date(2021, 9, 3)]),
        ("3. März 2026", [date(2026, 3, 3)]),
        ("2026/03/27 export", [date(2026, 3, 27)]),
        ("log 2026-03-27T10:00:00Z", [date(2026, 3, 27)]),
        ("24. Dezember 2025 und 1. Januar 2026", [date(2025, 12, 24), date(2026, 1, 1)]),
    ],
)
def test_finds_written_dates(text: str, expected: list[date]) -> None:
    assert find_dates(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I may 3 times try",
        "version 1.2.3",
        "2023-02-30 is not a day",
        "31. April 2024",
        "05/07/2023",  # US or European: ambiguous, left alone
        "March 2024 without a day",
        "call 555-1234",
        "the March of Dimes",
    ],
)
def test_ignores_non_dates(text: str) -> None:
    assert find_dates(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024-02-29", [date(2024, 2, 29)]),
        ("2023-02-29", []),
        ("29. Februar 2028", [date(2028, 2, 29)]),
        ("Feb 29, 2100", []),  # 2100 is not a leap year
        ("29.02.2000", [date(2000, 2, 29)]),  # 2000 is
    ],
)
def test_leap_days(text: str, expected: list[date]) -> None:
    assert find_dates(text) == expected


def test_same_date_in_several_forms_is_returned_once() -> None:
    text = "2023-05-07, also written 7 May 2023 and 07.05.2023"
    assert find_dates(text) == [date(2023, 5, 7)]


def test_order_of_first_appearance() -> None:
    assert find_dates("2026-01-02 then 2025-12-31") == [date(2026, 1, 2), date(2025, 12, 31)]


def test_dates_without_year_need_a_default() -> None:
    assert find_dates("on May 7 we met") == []
    assert find_dates("on May 7 we met", default_year=2024) == [date(2024, 5, 7)]
    assert find_dates("am 29. Februar", default_year=2023) == []


def test_mentions_carry_positions() -> None:
    text = "x 7. Mai 2023 y"
    (mention,) = iter_date_mentions(text)
    assert text[mention.start : mention.end] == "7. Mai 2023"
    assert mention.date == date(2023, 5, 7)


def test_custom_month_table() -> None:
    assert find_dates("7 mayo 2023", months={"mayo": 5}) == [date(2023, 5, 7)]
    assert find_dates("7 mayo 2023") == []


def test_lowercase_ambiguous_month_without_year_is_ignored() -> None:
    assert list(iter_date_mentions("we may 4 go")) == []
    assert [m.month for m in iter_date_mentions("We met May 4")] == [5]
