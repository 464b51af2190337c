"""What the temporal rule tests share: the "nows" the second-round rules are pinned on (every
weekday, month and year ends, leap days) and small views of a result."""

from __future__ import annotations

from datetime import date, timedelta

from ctx.core.temporal import TemporalResult

WEEK = [date(2026, 3, 23) + timedelta(days=i) for i in range(7)]  # Monday .. Sunday
EDGES = [
    date(2026, 1, 31), date(2026, 2, 28), date(2026, 3, 1), date(2026, 4, 30),
    date(2026, 12, 31), date(2027, 1, 1), date(2024, 2, 29), date(2024, 3, 1),
    date(2023, 2, 28), date(2025, 12, 29),
]  # fmt: skip
NOWS = WEEK + EDGES


def days(result: TemporalResult) -> tuple[date | None, date | None]:
    return result.start, result.end


def iso(result: TemporalResult) -> tuple[str | None, str | None]:
    j = result.to_json()
    return j["start"], j["end"]


def ymd(text: str) -> date:
    return date.fromisoformat(text)
