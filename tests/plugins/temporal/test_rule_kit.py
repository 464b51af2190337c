"""A third-party temporal rule through the public API: ``temporal_kit`` to write it,
``build_matchers(lexicon, rules)`` to place it in the cascade, ``needs`` to skip texts it cannot
read. The built-in second-round rules are written the same way."""

from __future__ import annotations

from datetime import date

import pytest
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


@pytest.mark.parametrize(
    "text",
    [
        # durations, counts and names that look like the second round's forms
        "a week later we met again", "Eine Woche später war alles gut", "I slept around 8 hours",
        "It takes around 3 days to ship", "Ich zähle bis 10.", "Der Film ist ab 18.",
        "I finished 3rd.", "my 21st", "The 15th to the 20th century", "The W2 form is due",
        "Step 3 may take a while", "Option 2 may be better", "The h1 heading is too big",
        "H1 B visa", "the last 7 days of his life", "Die letzten Tage von Pompeji",
        "the advent of smartphones", "I had a martini", "Osterinsel", "Pfingstrosen im Garten",
        "2027-W53", "Version 3.2.-4.1. changelog", "half of the budget went to marketing",
        "die Hälfte der Tickets ist erledigt", "after lunch we talked about the roadmap",
        "wir haben rund um das Thema Sicherheit diskutiert", "the rest of the slides",
    ],
)  # fmt: skip
def test_look_alikes_name_no_time(text: str) -> None:
    parser = parser_from_host(host_with(builtins=("temporal-en", "temporal-de")))
    assert parser.parse(text, now=W).matcher is None
