"""A third-party temporal rule through the public API: ``temporal_kit`` to write it,
``build_matchers(lexicon, rules)`` to place it in the cascade, ``needs`` to skip texts it cannot
read. The built-in second-round rules are written the same way."""

from __future__ import annotations

from datetime import date

from plugin_kit import host_with, registers

from ctx.core import Lexicon, build_matchers
from ctx.core import temporal_kit as kit
from ctx.core.temporal import parser_from_host

W = date(2026, 3, 25)
calls: list[str] = []


@kit.needs("payday")
def payday(inp: kit.RuleInput) -> kit.TemporalResult | None:
    """ "payday": the last weekday of this month (a team's own calendar word)."""
    calls.append(inp.text)
    last = kit.month_bounds(inp.now.year, inp.now.month)[1]
    while last.weekday() >= 5:
        last = date.fromordinal(last.toordinal() - 1)
    return kit.TemporalResult.single(
        last, kit.direction_between(last, last, inp.now), {"linear": 1}
    )


LEXICON = Lexicon(language="en", words={"payday": (("payday", None),)})


def test_a_plugin_rule_runs_at_its_priority_and_only_where_it_can_read() -> None:
    matchers = build_matchers(LEXICON, [("payday", 95, payday)])
    host = host_with(
        ("payroll", registers("register_temporal_matchers", *matchers)), builtins=("temporal-en",)
    )
    parser = parser_from_host(host)
    assert "en.payday" in [m.name for m in parser.matchers]
    calls.clear()
    result = parser.parse("what is due on payday", now=W)
    assert (result.matcher, result.to_json()["start"]) == ("en.payday", "2026-03-31")
    # priority 95 runs before the built-in ISO dates (100): the plugin's reading wins
    assert parser.parse("payday 2026-03-01", now=W).matcher == "en.payday"
    # a text without the word never reaches the rule
    calls.clear()
    assert parser.parse("last week", now=W).matcher == "en.relative_week"
    assert calls == []


def test_the_built_in_second_round_rules_share_the_cascade() -> None:
    matchers = build_matchers(LEXICON, [("payday", 95, payday)])
    host = host_with(
        ("payroll", registers("register_temporal_matchers", *matchers)), builtins=("temporal-en",)
    )
    parser = parser_from_host(host)
    # the built-in second-round rules (plugin code on the same kit) sit in the same cascade
    names = {m.name for m in parser.matchers}
    assert {"en.offset", "en.rolling_span", "en.iso_week", "en.month_half"} <= names
    assert parser.parse("three days after Christmas", now=W).to_json()["start"] == "2025-12-28"
