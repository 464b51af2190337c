"""The timeline tool: windows from time expressions or dates, own dates and mentioned dates,
newest first, the caller's scopes only."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

from ctx.core import App
from ctx.core.access import authenticate
from ctx.core.runtime import drain
from ctx.core.tools import call_tool


def _who(app: App, token: str) -> Any:
    with app.connection() as conn:
        return authenticate(conn, token)


def _store(app: App, who: Any, title: str, content: str, **extra: Any) -> str:
    out = call_tool(app, who, "store", {"title": title, "content": content, **extra})
    assert out.error is None, out.error
    return str(out.result["id"])


def _timeline(app: App, who: Any, **args: Any) -> Any:
    return call_tool(app, who, "timeline", args)


def test_own_dates_and_mentioned_dates_fall_in_their_windows(app: App, keys: Any) -> None:
    who = _who(app, keys.make("a"))
    march = _store(app, who, "Release 2.0", "Shipped.", occurred_at="2026-03-24T10:00:00Z")
    mention = _store(app, who, "Retro notes", "The outage on 2026-03-10 came from a full disk.")
    _store(app, who, "April plan", "Next steps.", occurred_at="2026-04-02T09:00:00Z")
    drain(app, "temporal")  # dates mentioned in content are indexed by the extraction job
    out = _timeline(app, who, start="2026-03-01", end="2026-03-31")
    assert out.error is None
    assert out.result["window"] == {"start": "2026-03-01", "end": "2026-03-31"}
    assert [(r["id"], r["date"]) for r in out.result["results"]] == [
        (march, "2026-03-24"),
        (mention, "2026-03-10"),
    ]  # newest first
    one_day = _timeline(app, who, start="2026-03-10")
    assert [r["id"] for r in one_day.result["results"]] == [mention]


def test_time_expressions_resolve_against_today(app: App, keys: Any) -> None:
    who = _who(app, keys.make("a"))
    today = datetime.now(UTC).date()
    last_week_day = today - timedelta(days=today.weekday() + 3)  # a day of last week
    old = _store(
        app,
        who,
        "Last week's standup",
        "Decided to freeze.",
        occurred_at=f"{last_week_day.isoformat()}T12:00:00Z",
    )
    new = _store(app, who, "Today's note", "Unfrozen.")
    week = _timeline(app, who, when="last week")
    assert week.error is None
    start = date.fromisoformat(week.result["window"]["start"])
    assert start <= last_week_day <= date.fromisoformat(week.result["window"]["end"])
    assert [r["id"] for r in week.result["results"]] == [old]
    assert [r["id"] for r in _timeline(app, who, when="today").result["results"]] == [new]


def test_windows_are_checked_and_scopes_respected(app: App, keys: Any) -> None:
    a, b = _who(app, keys.make("a")), _who(app, keys.make("b"))
    _store(app, a, "A's note", "x", occurred_at="2026-03-24T10:00:00Z")
    assert _timeline(app, b, start="2026-03-01", end="2026-03-31").result["results"] == []
    assert (
        "end must not be before start"
        in _timeline(app, a, start="2026-03-02", end="2026-03-01").error
    )
    assert "at most 20 years" in _timeline(app, a, start="1900-01-01", end="2026-01-01").error
    assert "not both" in _timeline(app, a, when="today", start="2026-03-01").error
    assert "YYYY-MM-DD" in _timeline(app, a, start="24.03.2026").error
    assert "cannot read scope" in _timeline(app, a, when="today", scopes=["b"]).error
