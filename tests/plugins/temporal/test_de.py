"""German rules: every matcher, negatives, every weekday as "now", month, year and leap boundaries."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from ctx.core import GERMAN_STOPWORDS
from ctx.core.runtime import PluginHost
from ctx.core.temporal import TemporalParser, TemporalResult, parser_from_host
from ctx.plugins.temporal.de import LEXICON

NOW = date(2026, 3, 25)  # Mittwoch
WEEK = [date(2026, 3, 23) + timedelta(days=i) for i in range(7)]
EDGES = [date(2026, 12, 31), date(2027, 1, 1), date(2024, 2, 29), date(2026, 2, 28),
         date(2026, 3, 1), date(2025, 12, 29)]  # fmt: skip
DAYS = ("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag")


@pytest.fixture(scope="module")
def parser() -> TemporalParser:
    host = PluginHost(("temporal-de",), load_entry_points=False)
    return parser_from_host(host)


def parse(parser: TemporalParser, text: str, now: date = NOW) -> TemporalResult:
    return parser.parse(text, now=now, lang="de")


def span(result: TemporalResult) -> tuple[str | None, str | None]:
    j = result.to_json()
    return j["start"], j["end"]


@pytest.mark.parametrize(
    ("text", "matcher", "start", "end", "direction"),
    [
        ("was war am 2026-03-27", "de.iso_date", "2026-03-27", "2026-03-27", "future"),
        ("2026-03-01 bis 2026-03-05", "de.iso_date", "2026-03-01", "2026-03-05", "past"),
        ("seit 2026-03-01", "de.iso_date", "2026-03-01", "2026-03-25", "past"),
        ("am 7. Mai 2023", "de.explicit_date", "2023-05-07", "2023-05-07", "past"),
        ("Termin am 07.05.2023", "de.explicit_date", "2023-05-07", "2023-05-07", "past"),
        ("von Montag bis Mittwoch", "de.range", "2026-03-30", "2026-04-01", "future"),
        ("was war von Montag bis Mittwoch", "de.range", "2026-03-23", "2026-03-25", "both"),
        ("letzten Montag bis Mittwoch", "de.range", "2026-03-23", "2026-03-25", "both"),
        ("von gestern bis übermorgen", "de.range", "2026-03-24", "2026-03-27", "both"),
        ("von März bis Mai", "de.range", "2026-03-01", "2026-05-31", "both"),
        ("zwischen Januar und Februar", "de.range", "2026-01-01", "2026-02-28", "past"),
        ("seit letzter Woche", "de.since_until", "2026-03-16", "2026-03-25", "past"),
        ("seit gestern", "de.since_until", "2026-03-24", "2026-03-25", "past"),
        ("seit Montag", "de.since_until", "2026-03-23", "2026-03-25", "past"),
        ("bis Freitag", "de.since_until", "2026-03-25", "2026-03-27", "future"),
        ("bis Ende Mai", "de.since_until", "2026-03-25", "2026-05-31", "future"),
        ("Anfang der Woche", "de.week_segment", "2026-03-23", "2026-03-24", "past"),
        ("Ende der Woche", "de.week_segment", "2026-03-27", "2026-03-29", "future"),
        ("Ende nächster Woche", "de.week_segment", "2026-04-03", "2026-04-05", "future"),
        ("Wochenmitte", "de.week_segment", "2026-03-24", "2026-03-26", "both"),
        ("Dienstag nächster Woche", "de.weekday_in_week", "2026-03-31", "2026-03-31", "future"),
        ("letzte Woche Freitag", "de.weekday_in_week", "2026-03-20", "2026-03-20", "past"),
        ("Dienstag in einer Woche", "de.weekday_in_week", "2026-04-07", "2026-04-07", "future"),
        ("letzte Woche", "de.relative_week", "2026-03-16", "2026-03-22", "past"),
        ("diese Woche", "de.relative_week", "2026-03-23", "2026-03-29", "both"),
        ("nächste Woche", "de.relative_week", "2026-03-30", "2026-04-05", "future"),
        ("übernächste Woche", "de.relative_week", "2026-04-06", "2026-04-12", "future"),
        ("vorletzte Woche", "de.relative_week", "2026-03-09", "2026-03-15", "past"),
        ("KW 12", "de.iso_week", "2026-03-16", "2026-03-22", "past"),
        ("KW12 2025", "de.iso_week", "2025-03-17", "2025-03-23", "past"),
        ("Weihnachten", "de.holiday", "2025-12-24", "2025-12-26", "past"),
        ("Ostern", "de.holiday", "2026-04-05", "2026-04-06", "future"),
        ("Karfreitag 2024", "de.holiday", "2024-03-29", "2024-03-29", "past"),
        ("Silvester", "de.holiday", "2025-12-31", "2025-12-31", "past"),
        ("Tag der Deutschen Einheit", "de.holiday", "2025-10-03", "2025-10-03", "past"),
        ("Weihnachten letztes Jahr", "de.holiday", "2025-12-24", "2025-12-26", "past"),
        ("Pfingsten", "de.holiday", "2026-05-24", "2026-05-25", "future"),
        ("Anfang März", "de.month_segment", "2026-03-01", "2026-03-10", "past"),
        ("Mitte April", "de.month_segment", "2026-04-11", "2026-04-20", "future"),
        ("Ende Februar 2024", "de.month_segment", "2024-02-21", "2024-02-29", "past"),
        ("Ende letzten Monats", "de.month_segment", "2026-02-21", "2026-02-28", "past"),
        ("Monatsende", "de.month_segment", "2026-03-21", "2026-03-31", "both"),
        ("Jahresende", "de.month_segment", "2026-12-01", "2026-12-31", "future"),
        ("im März", "de.month_name", "2026-03-01", "2026-03-31", "both"),
        ("im Mai", "de.month_name", "2026-05-01", "2026-05-31", "future"),
        ("was war im Dezember", "de.month_name", "2025-12-01", "2025-12-31", "past"),
        ("letzten Dezember", "de.month_name", "2025-12-01", "2025-12-31", "past"),
        ("August 2024", "de.month_name", "2024-08-01", "2024-08-31", "past"),
        ("letzten Monat", "de.relative_month", "2026-02-01", "2026-02-28", "past"),
        ("diesen Monat", "de.relative_month", "2026-03-01", "2026-03-31", "both"),
        ("nächsten Monat", "de.relative_month", "2026-04-01", "2026-04-30", "future"),
        ("Q1 Reviews", "de.quarter", "2026-01-01", "2026-03-31", "both"),
        ("im dritten Quartal 2025", "de.quarter", "2025-07-01", "2025-09-30", "past"),
        ("letztes Quartal", "de.quarter", "2025-10-01", "2025-12-31", "past"),
        ("letztes Jahr", "de.relative_year", "2025-01-01", "2025-12-31", "past"),
        ("nächstes Jahr", "de.relative_year", "2027-01-01", "2027-12-31", "future"),
        ("im Jahr 2024", "de.relative_year", "2024-01-01", "2024-12-31", "past"),
        ("vor 3 Tagen", "de.relative_days", "2026-03-22", "2026-03-22", "past"),
        ("vor einer Woche", "de.relative_days", "2026-03-18", "2026-03-18", "past"),
        ("in 3 Tagen", "de.relative_days", "2026-03-28", "2026-03-28", "future"),
        ("in zwei Wochen", "de.relative_days", "2026-04-08", "2026-04-08", "future"),
        ("vor zwei Monaten", "de.relative_days", "2026-01-25", "2026-01-25", "past"),
        ("heute Abend", "de.time_of_day", "2026-03-25", "2026-03-25", "both"),
        ("gestern Morgen", "de.time_of_day", "2026-03-24", "2026-03-24", "past"),
        ("morgen früh", "de.time_of_day", "2026-03-26", "2026-03-26", "future"),
        ("letzten Dienstag Abend", "de.time_of_day", "2026-03-24", "2026-03-24", "past"),
        ("am Wochenende", "de.weekend", "2026-03-28", "2026-03-29", "future"),
        ("letztes Wochenende", "de.weekend", "2026-03-21", "2026-03-22", "past"),
        ("was haben wir am Wochenende gemacht", "de.weekend", "2026-03-21", "2026-03-22", "past"),
        ("heute und morgen", "de.multi_keyword", "2026-03-25", "2026-03-26", "both"),
        ("gestern oder vorgestern", "de.multi_keyword", "2026-03-23", "2026-03-24", "past"),
        ("Montag oder Dienstag", "de.multi_keyword", "2026-03-30", "2026-03-31", "future"),
        ("am Dienstag", "de.weekday", "2026-03-31", "2026-03-31", "future"),
        ("was war am Dienstag", "de.weekday", "2026-03-24", "2026-03-24", "past"),
        ("was haben wir am Dienstag besprochen", "de.weekday", "2026-03-24", "2026-03-24", "past"),
        ("letzten Dienstag", "de.weekday", "2026-03-24", "2026-03-24", "past"),
        ("nächsten Freitag", "de.weekday", "2026-03-27", "2026-03-27", "future"),
        ("übernächsten Freitag", "de.weekday", "2026-04-03", "2026-04-03", "future"),
        ("was steht am Freitag an", "de.weekday", "2026-03-27", "2026-03-27", "future"),
        ("immer dienstags", "de.weekday", "2026-03-31", "2026-03-31", "future"),
        ("heute", "de.keyword", "2026-03-25", "2026-03-25", "both"),
        ("gestern", "de.keyword", "2026-03-24", "2026-03-24", "past"),
        ("morgen", "de.keyword", "2026-03-26", "2026-03-26", "future"),
        ("vorgestern", "de.keyword", "2026-03-23", "2026-03-23", "past"),
        ("übermorgen", "de.keyword", "2026-03-27", "2026-03-27", "future"),
        ("gesternn", "de.keyword", "2026-03-24", "2026-03-24", "past"),
        ("übermorgn", "de.keyword", "2026-03-27", "2026-03-27", "future"),
        ("vorgesten", "de.keyword", "2026-03-23", "2026-03-23", "past"),
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
        "guten Morgen zusammen",
        "die Leute vom Vertrieb",
        "Gesten und Mimik",
        "Morgan Stanley Bericht",
        "der Vorteil dieser Lösung",
        "bevor wir anfangen",
        "auf der Seite",
        "seit Jahren kaputt",
        "bis dann",
        "ende gut, alles gut",
        "der Mord am Orient-Express",
        "August der Starke",
    ],
)
def test_negatives_do_not_match(parser: TemporalParser, text: str) -> None:
    assert not parse(parser, text).matched


@pytest.mark.parametrize(
    ("text", "weights"),
    [
        ("morgens", {"daily": 1.0}),
        ("jeden Abend", {"daily": 1.0}),
        ("Dienstag Abend", {"linear": 0.4, "weekday": 0.3, "daily": 0.3}),
        ("dienstags abends", {"weekday": 0.5, "daily": 0.5}),
        ("am Wochenende", {"linear": 0.3, "weekday": 0.7}),
        ("Weihnachten", {"month": 0.5, "seasonal": 0.5}),
        ("Monatsende", {"linear": 0.4, "monthday": 0.6}),
        ("immer am Monatsende", {"monthday": 1.0}),
        ("seit März", {"linear": 0.8, "month": 0.2}),
        ("letzte Woche", {"linear": 0.7, "week": 0.3}),
    ],
)
def test_weights(parser: TemporalParser, text: str, weights: dict[str, float]) -> None:
    assert parse(parser, text).weights == pytest.approx(weights)


@pytest.mark.parametrize("now", WEEK, ids=lambda d: d.strftime("%a"))
@pytest.mark.parametrize("weekday", range(7))
def test_letzten_und_naechsten_wochentag(parser: TemporalParser, now: date, weekday: int) -> None:
    last = parse(parser, f"letzten {DAYS[weekday]}", now).start
    nxt = parse(parser, f"nächsten {DAYS[weekday]}", now).start
    bare_past = parse(parser, f"was war am {DAYS[weekday]}", now).start
    assert last is not None and nxt is not None
    assert last.weekday() == nxt.weekday() == weekday
    assert 1 <= (now - last).days <= 7 and 1 <= (nxt - now).days <= 7
    assert bare_past == last


@pytest.mark.parametrize("now", WEEK + EDGES, ids=str)
def test_relative_invariants_on_every_day(parser: TemporalParser, now: date) -> None:
    week = parse(parser, "diese Woche", now)
    assert week.start is not None and week.end is not None
    assert week.start.weekday() == 0 and week.start <= now <= week.end
    assert parse(parser, "nächste Woche", now).start == week.start + timedelta(days=7)
    assert parse(parser, "gestern", now).start == now - timedelta(days=1)
    assert parse(parser, "übermorgen", now).start == now + timedelta(days=2)
    last_weekend = parse(parser, "letztes Wochenende", now)
    assert last_weekend.end is not None and last_weekend.end < now
    assert last_weekend.start is not None and last_weekend.start.weekday() == 5
    assert (now - last_weekend.end).days <= 7
    since = parse(parser, "seit Montag", now)
    assert since.end == now and since.start is not None and since.start.weekday() == 0


@pytest.mark.parametrize(
    ("now", "text", "start", "end"),
    [
        (date(2026, 1, 1), "letzten Monat", "2025-12-01", "2025-12-31"),
        (date(2026, 1, 1), "gestern", "2025-12-31", "2025-12-31"),
        (date(2025, 12, 31), "morgen", "2026-01-01", "2026-01-01"),
        (date(2025, 12, 31), "nächste Woche", "2026-01-05", "2026-01-11"),
        (date(2024, 3, 1), "gestern", "2024-02-29", "2024-02-29"),
        (date(2024, 3, 10), "Ende letzten Monats", "2024-02-21", "2024-02-29"),
        (date(2025, 3, 10), "Ende letzten Monats", "2025-02-21", "2025-02-28"),
        (date(2024, 2, 28), "übermorgen", "2024-03-01", "2024-03-01"),
        (date(2024, 3, 31), "vor einem Monat", "2024-02-29", "2024-02-29"),
        (date(2026, 1, 3), "Weihnachten", "2025-12-24", "2025-12-26"),
        (date(2025, 12, 1), "Weihnachten", "2025-12-24", "2025-12-26"),
        (date(2025, 12, 25), "Weihnachten", "2025-12-24", "2025-12-26"),
        (date(2026, 1, 1), "letztes Jahr", "2025-01-01", "2025-12-31"),
        (date(2025, 12, 29), "KW 1", "2025-12-29", "2026-01-04"),
        (date(2026, 2, 1), "Anfang Dezember", "2025-12-01", "2025-12-10"),
    ],
)
def test_month_and_year_boundaries(
    parser: TemporalParser, now: date, text: str, start: str, end: str
) -> None:
    assert span(parse(parser, text, now)) == (start, end)


@pytest.mark.parametrize(
    ("now", "text", "start"),
    [
        (date(2026, 3, 28), "am Wochenende", "2026-03-28"),  # Saturday: this weekend
        (date(2026, 3, 29), "am Wochenende", "2026-03-28"),  # Sunday: this weekend
        (date(2026, 3, 28), "letztes Wochenende", "2026-03-21"),
        (date(2026, 3, 29), "nächstes Wochenende", "2026-04-04"),
        (date(2026, 3, 27), "nächstes Wochenende", "2026-03-28"),
    ],
)
def test_weekend_on_and_around_weekends(
    parser: TemporalParser, now: date, text: str, start: str
) -> None:
    assert span(parse(parser, text, now))[0] == start


@pytest.mark.parametrize(
    ("text", "start", "end"),
    [
        ("Was war am 24.11.?", "2025-11-24", "2025-11-24"),  # past tense: the last one
        ("Was steht am 3.4. an?", "2026-04-03", "2026-04-03"),  # "steht ... an": ahead
        ("Treffen vom 2.6. bis 6.6.", "2026-06-02", "2026-06-06"),
    ],
)
def test_day_and_month_without_a_year(
    parser: TemporalParser, text: str, start: str, end: str
) -> None:
    result = parser.parse(text, now=NOW)
    assert result.matched
    assert (result.start.isoformat(), result.end.isoformat()) == (start, end)  # type: ignore[union-attr]


def test_version_numbers_are_no_dates(parser: TemporalParser) -> None:
    assert not parser.parse("Upgrade auf Version 3.2. war schwierig", now=NOW).matched


def test_a_german_time_query_keeps_only_its_topic(parser: TemporalParser) -> None:
    """The German stopwords are one list (``ctx.core.GERMAN_STOPWORDS``): language detection
    reads it, and so does the topic text of a time query, which leaves all of them out."""
    assert LEXICON.stopwords >= GERMAN_STOPWORDS
    text = "Was wurde letzte Woche über die Datenbank noch entschieden?"
    assert parser.residual(text) == "datenbank entschieden"
