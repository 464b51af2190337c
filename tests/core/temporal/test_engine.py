"""The parser engine: cascade order, plugin registration, recurrence, intent and the result shape."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest

from ctx.core import PluginError, hookimpl
from ctx.core.runtime import PluginHost
from ctx.core.temporal.engine import (
    TemporalParser,
    has_temporal_intent,
    parser_from_host,
    upgrade_recurrence,
)
from ctx.core.temporal.fuzzy import edit_distance, is_typo_of
from ctx.core.temporal.types import (
    FALLBACK_SKIPPED,
    ParseContext,
    TemporalMatcher,
    TemporalResult,
)

NOW = date(2026, 3, 25)  # a Wednesday


class Fixed:
    """A matcher that always answers with one day, or never when ``day`` is None."""

    def __init__(self, name: str, priority: int, day: date | None, language: str = "xx"):
        self.name, self.priority, self.language, self.day = name, priority, language, day
        self.calls = 0

    def match(self, text: str, ctx: ParseContext) -> TemporalResult | None:
        self.calls += 1
        if self.day is None:
            return None
        return TemporalResult.single(self.day, "past", {"linear": 0.6, "weekday": 0.4})


@pytest.fixture(scope="module")
def parser() -> TemporalParser:
    host = PluginHost(("temporal-en", "temporal-de"), load_entry_points=False)
    return parser_from_host(host)


def test_fixed_is_a_temporal_matcher() -> None:
    assert isinstance(Fixed("a", 1, None), TemporalMatcher)


def test_lowest_priority_runs_first_and_stops_the_cascade() -> None:
    late = Fixed("late", 900, date(2026, 1, 2))
    early = Fixed("early", 100, date(2026, 1, 1))
    silent = Fixed("silent", 50, None)
    result = TemporalParser([late, early, silent]).parse("x", now=NOW)
    assert result.matcher == "early"
    assert result.start == date(2026, 1, 1)
    assert silent.calls == 1 and late.calls == 0


def test_equal_priorities_keep_registration_order() -> None:
    first, second = Fixed("first", 10, date(2026, 1, 1)), Fixed("second", 10, date(2026, 1, 2))
    assert TemporalParser([first, second]).parse("x", now=NOW).matcher == "first"


def test_duplicate_names_in_constructor_raise() -> None:
    with pytest.raises(PluginError, match="'same'"):
        TemporalParser([Fixed("same", 1, None), Fixed("same", 2, None)])


def test_object_without_match_is_rejected() -> None:
    class Broken:
        name, priority, language = "broken", 1, "xx"

    with pytest.raises(PluginError, match="match"):
        TemporalParser([Broken()])


class _PluginA:
    @hookimpl
    def register_temporal_matchers(self, register: Any) -> None:
        register(Fixed("clash", 10, NOW))


class _PluginB:
    @hookimpl
    def register_temporal_matchers(self, register: Any) -> None:
        register(Fixed("clash", 20, NOW))


def test_duplicate_matcher_names_from_plugins_name_both_plugins() -> None:
    host = PluginHost((), load_entry_points=False)
    host.register(_PluginA(), "plugin-a")
    host.register(_PluginB(), "plugin-b")
    with pytest.raises(PluginError) as err:
        parser_from_host(host)
    assert "plugin-a" in err.value.message and "plugin-b" in err.value.message


def test_a_plugin_can_add_a_matcher_that_runs_before_the_builtins() -> None:
    class Fiscal:
        name, priority, language = "acme.fiscal_year", 50, "en"

        def match(self, text: str, ctx: ParseContext) -> TemporalResult | None:
            if "fy26" not in text.lower():
                return None
            return TemporalResult.span(date(2025, 7, 1), date(2026, 6, 30), "both", {"linear": 1})

    class FiscalPlugin:
        @hookimpl
        def register_temporal_matchers(self, register: Any) -> None:
            register(Fiscal())

    host = PluginHost(("temporal-en",), load_entry_points=False)
    host.register(FiscalPlugin(), "acme")
    parser = parser_from_host(host)
    assert parser.parse("budget FY26 yesterday", now=NOW).matcher == "acme.fiscal_year"
    assert parser.parse("budget yesterday", now=NOW).matcher == "en.keyword"


def test_builtin_plugins_register_both_languages(parser: TemporalParser) -> None:
    names = {m.name for m in parser.matchers}
    assert {"en.iso_date", "de.iso_date", "en.keyword", "de.keyword"} <= names
    assert sorted(parser.languages) == ["de", "en"]


@pytest.mark.parametrize(
    ("text", "matcher"),
    [
        ("seit 2026-03-01", "de.iso_date"),  # ISO beats since/until
        ("letzten Montag bis Mittwoch", "de.range"),  # range beats weekday
        ("last Monday to Wednesday", "en.range"),
        ("seit letzter Woche", "de.since_until"),  # since beats relative week
        ("Ende nächster Woche", "de.week_segment"),  # segment beats relative week
        ("Dienstag nächster Woche", "de.weekday_in_week"),  # weekday in week beats week
        ("Tuesday next week", "en.weekday_in_week"),
        ("Ende letzten Monats", "de.month_segment"),  # segment beats relative month
        ("Weihnachten letztes Jahr", "de.holiday"),  # holiday beats relative year
        ("März letztes Jahr", "de.month_name"),
        ("gestern Abend", "de.time_of_day"),  # time of day beats keyword
        ("heute und morgen", "de.multi_keyword"),  # several keywords beat one
        ("last weekend", "en.weekend"),
        ("am 7. Mai 2023 und gestern", "de.explicit_date"),
    ],
)
def test_more_specific_rule_wins(parser: TemporalParser, text: str, matcher: str) -> None:
    assert parser.parse(text, now=NOW).matcher == matcher


@pytest.mark.parametrize(
    ("text", "weights"),
    [
        ("am 2026-03-27", {"linear": 1.0}),
        ("am Dienstag", {"linear": 0.6, "weekday": 0.4}),
        ("immer dienstags", {"weekday": 1.0}),
        ("Q1 Reviews", {"quarter": 1.0}),
        ("im März", {"linear": 0.5, "month": 0.5}),
        ("every Monday", {"weekday": 1.0}),
        ("jeden März", {"month": 1.0}),
        ("on Mondays", {"weekday": 1.0}),
    ],
)
def test_documented_dimension_weights(
    parser: TemporalParser, text: str, weights: dict[str, float]
) -> None:
    assert parser.parse(text, now=NOW).weights == pytest.approx(weights)


def test_recurrence_marks_the_result(parser: TemporalParser) -> None:
    assert parser.parse("immer dienstags", now=NOW).recurring
    assert not parser.parse("am Dienstag", now=NOW).recurring


def test_recurrence_leaves_purely_linear_results_alone(parser: TemporalParser) -> None:
    result = parser.parse("jeden Tag seit 2026-03-01", now=NOW)
    assert result.weights == {"linear": 1.0}
    assert not result.recurring


def test_upgrade_recurrence_rescales_cyclic_weights() -> None:
    result = TemporalResult.single(NOW, "both", {"linear": 0.4, "weekday": 0.3, "daily": 0.3})
    upgraded = upgrade_recurrence(result)
    assert upgraded.weights == pytest.approx({"weekday": 0.5, "daily": 0.5})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("was war am 2026-03-27", True),
        ("what happened recently", True),
        ("neulich beim Kunden", True),
        ("Vorteil bevor Seite", False),  # no substring matches: vor, seit
        ("the context of the nextjs app", False),
        ("Bison", False),
        ("", False),
    ],
)
def test_intent_detection(parser: TemporalParser, text: str, expected: bool) -> None:
    assert parser.has_intent(text) is expected


def test_has_temporal_intent_function_takes_its_own_words() -> None:
    assert has_temporal_intent("wann genau", {"wann"})
    assert not has_temporal_intent("wannabe", {"wann"})
    assert has_temporal_intent("ref 2025-01-02", set())


def test_intent_without_rule_says_fallback_is_skipped(parser: TemporalParser) -> None:
    result = parser.parse("what did we decide recently", now=NOW)
    assert not result.matched and result.intent
    assert result.fallback == FALLBACK_SKIPPED


def test_no_intent_no_fallback(parser: TemporalParser) -> None:
    result = parser.parse("how do I configure the embedder", now=NOW)
    assert not result.matched and not result.intent and result.fallback is None


def test_fallback_callable_is_used_when_rules_fail() -> None:
    def backend(text: str, ctx: ParseContext) -> TemporalResult | None:
        return TemporalResult.single(ctx.now - timedelta(days=10), "past", {"linear": 1.0})

    host = PluginHost(("temporal-en",), load_entry_points=False)
    parser = parser_from_host(host, fallback=backend)
    result = parser.parse("what happened recently", now=NOW)
    assert result.matched and result.matcher == "fallback"
    assert result.start == date(2026, 3, 15)


def test_to_json_has_exactly_the_documented_keys(parser: TemporalParser) -> None:
    payload = parser.parse("heute und morgen", now=NOW).to_json()
    assert list(payload) == ["matched", "matcher", "start", "end", "dates", "direction", "weights"]
    assert payload["dates"] == ["2026-03-25", "2026-03-26"]
    empty = parser.parse("nothing temporal here", now=NOW).to_json()
    assert empty == {
        "matched": False,
        "matcher": None,
        "start": None,
        "end": None,
        "dates": [],
        "direction": None,
        "weights": {},
    }


def test_range_json_has_no_dates_list(parser: TemporalParser) -> None:
    payload = parser.parse("last week", now=NOW).to_json()
    assert payload["start"] == "2026-03-16" and payload["end"] == "2026-03-22"
    assert payload["dates"] == []


def test_now_defaults_to_today(parser: TemporalParser) -> None:
    assert parser.parse("today").start == date.today()


def test_empty_text_does_not_match(parser: TemporalParser) -> None:
    assert not parser.parse("   ", now=NOW).matched


def test_language_hint_restricts_the_cascade(parser: TemporalParser) -> None:
    assert parser.parse("yesterday", now=NOW, lang="de").matched is False
    assert parser.parse("yesterday", now=NOW, lang="en").matcher == "en.keyword"
    assert parser.parse("gestern", now=NOW, lang="de").matcher == "de.keyword"


def test_language_guess_prefers_the_querys_language(parser: TemporalParser) -> None:
    assert parser.rank_languages("was haben wir am Montag gemacht")[0] == "de"
    assert parser.rank_languages("what did we do on the weekend")[0] == "en"


@pytest.mark.parametrize(
    ("a", "b", "distance"),
    [("", "", 0), ("abc", "", 3), ("kitten", "sitting", 3), ("tomorow", "tomorrow", 1),
     ("yesterdya", "yesterday", 1), ("gestern", "gestenr", 1), ("heute", "leute", 1)],
)  # fmt: skip
def test_edit_distance(a: str, b: str, distance: int) -> None:
    assert edit_distance(a, b) == distance


@pytest.mark.parametrize(
    ("token", "target", "expected"),
    [
        ("yesterdy", "yesterday", True),
        ("yestreday", "yesterday", True),
        ("tomorow", "tomorrow", True),
        ("gestren", "gestern", True),
        ("western", "gestern", False),  # first letter must match
        ("leute", "heute", False),  # five letters: exact only
        ("haute", "heute", False),
        ("tomorrowland", "tomorrow", False),
    ],
)
def test_is_typo_of(token: str, target: str, expected: bool) -> None:
    assert is_typo_of(token, target) is expected
