"""Temporal FTS expansion: ISO days and month prefixes only, with the scale caps."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from ctx.core.temporal.fts import MAX_TERMS, fts_terms, temporal_fts_expansion, to_tsquery_or
from ctx.core.temporal.types import TemporalResult


def test_single_day() -> None:
    assert fts_terms([date(2026, 3, 23)]) == ["2026-03-23", "2026-03"]


def test_days_across_a_month_boundary() -> None:
    days = [date(2026, 3, 30), date(2026, 3, 31), date(2026, 4, 1)]
    assert fts_terms(days) == ["2026-03-30", "2026-03-31", "2026-04-01", "2026-03", "2026-04"]


def test_duplicates_and_order_are_normalised() -> None:
    assert fts_terms([date(2026, 1, 2), date(2026, 1, 1), date(2026, 1, 2)]) == [
        "2026-01-01",
        "2026-01-02",
        "2026-01",
    ]


def test_seven_days_are_expanded_one_by_one() -> None:
    week = [date(2026, 3, 16) + timedelta(days=i) for i in range(7)]
    terms = fts_terms(week)
    assert terms[:7] == [d.isoformat() for d in week]
    assert terms[7:] == ["2026-03"]


def test_more_than_seven_days_keep_first_last_and_months() -> None:
    days = [date(2026, 2, 20) + timedelta(days=i) for i in range(20)]
    assert fts_terms(days) == ["2026-02-20", "2026-03-11", "2026-02", "2026-03"]


def test_overall_cap_of_twenty_terms() -> None:
    days = [date(2020, 1, 1) + timedelta(days=i) for i in range(3 * 365)]
    terms = fts_terms(days)
    assert len(terms) == MAX_TERMS
    assert terms[:2] == ["2020-01-01", "2022-12-30"]


@pytest.mark.parametrize("term", ["2026-03-23", "2026-03"])
def test_only_iso_shaped_terms(term: str) -> None:
    terms = fts_terms([date(2026, 3, 23)])
    assert term in terms
    assert all(t[:4].isdigit() and t[4] == "-" for t in terms)
    assert not any(name in " ".join(terms).lower() for name in ("monday", "march", "märz"))


def test_or_query_quotes_each_term() -> None:
    assert to_tsquery_or(["2026-03-23", "2026-03"]) == '"2026-03-23" OR "2026-03"'
    assert to_tsquery_or([]) == ""


def test_expansion_of_a_result() -> None:
    result = TemporalResult.span(date(2026, 3, 16), date(2026, 3, 22), "past", {"linear": 1.0})
    terms, query = temporal_fts_expansion(result)
    assert terms[0] == "2026-03-16" and terms[-1] == "2026-03"
    assert len(terms) == 8
    assert query.count(" OR ") == 7


def test_expansion_of_a_multi_date_result() -> None:
    result = TemporalResult.multi([date(2026, 3, 25), date(2026, 3, 26)], "both", {"linear": 1})
    assert temporal_fts_expansion(result)[0] == ["2026-03-25", "2026-03-26", "2026-03"]


def test_no_match_no_terms() -> None:
    assert temporal_fts_expansion(TemporalResult.nothing()) == ([], "")
