"""Offsets from an anchor, weekdays and weekends by an anchor, the week of an anchor, and "around"
an anchor; pinned dates and invariants on every "now"."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from temporal_nows import NOWS, days, iso

from ctx.core.temporal import TemporalParser

W = date(2026, 3, 25)  # Wednesday
YE, SUN = date(2026, 12, 31), date(2026, 6, 7)


@pytest.mark.parametrize(
    ("text", "now", "start", "end", "rule"),
    [
        ("three days after Christmas", W, "2025-12-28", "2025-12-28", "offset"),
        ("three days after Christmas", YE, "2026-12-28", "2026-12-28", "offset"),
        ("a week from Monday", W, "2026-04-06", "2026-04-06", "offset"),
        ("a week from Monday", SUN, "2026-06-15", "2026-06-15", "offset"),
        ("zwei Tage vor Silvester", W, "2025-12-29", "2025-12-29", "offset"),
        ("the day after Thanksgiving", W, "2025-11-28", "2025-11-28", "offset"),
        ("two weeks before Easter", W, "2026-03-22", "2026-03-22", "offset"),
        ("drei Tage nach Ostern", W, "2026-04-09", "2026-04-09", "offset"),
        ("eine Woche nach dem 4. Mai", W, "2026-05-11", "2026-05-11", "offset"),
        ("2 days before May 7", W, "2026-05-05", "2026-05-05", "offset"),
        ("three days after 2026-03-01", W, "2026-03-04", "2026-03-04", "offset"),
        ("ten days before Thanksgiving 2026", W, "2026-11-16", "2026-11-16", "offset"),
        ("the week after Easter", W, "2026-04-06", "2026-04-12", "offset"),
        ("die Woche vor Weihnachten", W, "2025-12-17", "2025-12-23", "offset"),
        ("morgen in einer Woche", W, "2026-04-02", "2026-04-02", "offset"),
        ("gestern vor einer Woche", W, "2026-03-17", "2026-03-17", "offset"),
        ("two weeks from tomorrow", W, "2026-04-09", "2026-04-09", "offset"),
        ("heute in acht Tagen", W, "2026-04-01", "2026-04-01", "offset"),
        ("the Monday before Christmas", W, "2025-12-22", "2025-12-22", "weekday_by_anchor"),
        ("the last Friday before Christmas", W, "2025-12-19", "2025-12-19", "weekday_by_anchor"),
        ("the Sunday after Easter", W, "2026-04-12", "2026-04-12", "weekday_by_anchor"),
        ("am Wochenende nach Pfingsten", W, "2026-05-30", "2026-05-31", "weekday_by_anchor"),
        ("the weekend before Christmas", W, "2025-12-20", "2025-12-21", "weekday_by_anchor"),
        ("the Friday before last", W, "2026-03-13", "2026-03-13", "weekday_by_anchor"),
        ("Monday after next", W, "2026-04-06", "2026-04-06", "weekday_by_anchor"),
        ("Christmas week", W, "2025-12-22", "2025-12-28", "week_of"),
        ("Thanksgiving week", YE, "2026-11-23", "2026-11-29", "week_of"),
        ("the week of March 10", W, "2026-03-09", "2026-03-15", "week_of"),
        ("um Ostern herum", W, "2026-04-02", "2026-04-09", "around"),
        ("around Christmas", W, "2025-12-22", "2025-12-28", "around"),
        ("rund um Weihnachten", W, "2025-12-21", "2025-12-29", "around"),
        ("um Weihnachten", W, "2025-12-21", "2025-12-29", "around"),
        ("around May 7", W, "2026-05-04", "2026-05-10", "around"),
        ("um den 10. Mai herum", W, "2026-05-07", "2026-05-13", "around"),
        ("around March", date(2024, 2, 29), "2024-02-23", "2024-04-07", "around"),
    ],
)
def test_pinned(
    bilingual: TemporalParser, text: str, now: date, start: str, end: str, rule: str
) -> None:
    result = bilingual.parse(text, now=now)
    assert iso(result) == (start, end)
    assert result.matcher is not None and result.matcher.split(".")[1] == rule


@pytest.mark.parametrize("now", NOWS, ids=str)
@pytest.mark.parametrize("amount", [1, 3, 10])
def test_offsets_from_a_fixed_holiday_on_every_day(
    bilingual: TemporalParser, now: date, amount: int
) -> None:
    # Silvester of the year the anchor resolves to, moved by whole days each way
    anchor = bilingual.parse("Silvester", now=now).start
    assert anchor is not None and (anchor.month, anchor.day) == (12, 31)
    step = timedelta(days=amount)
    assert days(bilingual.parse(f"{amount} Tage vor Silvester", now=now)) == (anchor - step,) * 2
    assert days(bilingual.parse(f"{amount} days after New Year's Eve", now=now)) == (
        (anchor + step,) * 2
    )


@pytest.mark.parametrize("now", NOWS, ids=str)
def test_weekday_offsets_on_every_day(bilingual: TemporalParser, now: date) -> None:
    monday = bilingual.parse("next Monday", now=now).start
    assert monday is not None
    assert days(bilingual.parse("a week from Monday", now=now)) == (monday + timedelta(7),) * 2
    tomorrow = now + timedelta(days=1)
    assert days(bilingual.parse("morgen in einer Woche", now=now)) == (tomorrow + timedelta(7),) * 2
    before_last = bilingual.parse("the Friday before last", now=now).start
    last = bilingual.parse("last Friday", now=now).start
    assert before_last is not None and last is not None and before_last == last - timedelta(7)


@pytest.mark.parametrize(
    "text",
    ["after the meeting we went home", "nach dem Essen", "it is around the corner",
     "wir haben rund um das Thema Sicherheit diskutiert", "the days from Monday to Friday"],
)  # fmt: skip
def test_no_offset_without_an_anchor(bilingual: TemporalParser, text: str) -> None:
    result = bilingual.parse(text, now=W)
    rule = (result.matcher or ".").split(".")[1]
    assert rule not in ("offset", "around", "weekday_by_anchor", "week_of")
