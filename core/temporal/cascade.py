"""The rule cascade: every built-in rule with its priority, most specific first.

The order follows the seed's cascade (ISO dates → ranges → since/until → week segments → relative
weeks → relative months → weekday within a week → relative days → holidays → month segments → time
of day → weekend → several keywords → weekday by tense → plain keywords), with one principle applied
where two rules overlap: the rule that reads more of the phrase runs first. So "Dienstag nächster
Woche" (weekday within a week) runs before "nächste Woche", and "Ende letzten Monats",
"Weihnachten letztes Jahr" and "März 2024" run before "letzten Monat" and "letztes Jahr".
"""

from __future__ import annotations

from ctx.core.temporal import rules_dates as d
from ctx.core.temporal import rules_days as y
from ctx.core.temporal.lexicon import Lexicon
from ctx.core.temporal.rules import Rule, RuleMatcher

#: (rule name, priority, rule). Gaps leave room for plugin rules in between.
CASCADE: tuple[tuple[str, int, Rule], ...] = (
    ("iso_date", 100, d.iso_date),
    ("explicit_date", 110, d.explicit_date),
    ("range", 200, d.range_phrase),
    ("since_until", 300, d.since_until),
    ("week_segment", 400, d.week_segment),
    ("weekday_in_week", 450, d.weekday_in_week),
    ("relative_week", 500, d.relative_week),
    ("holiday", 540, d.holiday),
    ("month_segment", 560, d.month_segment),
    ("month_name", 580, d.month_name),
    ("relative_month", 600, d.relative_month),
    ("quarter", 620, d.quarter),
    ("relative_year", 650, d.relative_year),
    ("relative_days", 700, y.relative_days),
    ("time_of_day", 830, y.time_of_day),
    ("weekend", 900, y.weekend),
    ("multi_keyword", 1000, y.multi_keyword),
    ("weekday", 1100, y.weekday),
    ("keyword", 1200, y.keyword),
)


def build_matchers(lexicon: Lexicon) -> list[RuleMatcher]:
    """The whole cascade for one language, named ``<language>.<rule>`` ("de.weekday")."""
    return [
        RuleMatcher(f"{lexicon.language}.{name}", priority, lexicon.language, lexicon, rule)
        for name, priority, rule in CASCADE
    ]
