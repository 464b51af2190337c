"""The rule cascade: every built-in rule with its priority, most specific first.

The order follows the seed's cascade (ISO dates → ranges → since/until → week segments → relative
weeks → relative months → weekday within a week → relative days → holidays → month segments → time
of day → weekend → several keywords → weekday by tense → plain keywords), with one principle applied
where two rules overlap: the rule that reads more of the phrase runs first. So "Dienstag nächster
Woche" (weekday within a week) runs before "nächste Woche", and "Ende letzten Monats",
"Weihnachten letztes Jahr" and "März 2024" run before "letzten Monat" and "letztes Jahr".
"""

from __future__ import annotations

from collections.abc import Iterable

from ctx.core.temporal import rules_dates, rules_days
from ctx.core.temporal.lexicon import Lexicon
from ctx.core.temporal.rules import Rule, RuleMatcher

#: (rule name, priority, rule): one entry of a cascade.
RuleEntry = tuple[str, int, Rule]

#: (rule name, priority, rule). Gaps leave room for plugin rules in between.
CASCADE: tuple[RuleEntry, ...] = (
    ("iso_date", 100, rules_dates.iso_date),
    ("explicit_date", 110, rules_dates.explicit_date),
    ("range", 200, rules_dates.range_phrase),
    ("since_until", 300, rules_dates.since_until),
    ("week_segment", 400, rules_dates.week_segment),
    ("weekday_in_week", 450, rules_dates.weekday_in_week),
    ("relative_week", 500, rules_dates.relative_week),
    ("holiday", 540, rules_dates.holiday),
    ("month_segment", 560, rules_dates.month_segment),
    ("month_name", 580, rules_dates.month_name),
    ("relative_month", 600, rules_dates.relative_month),
    ("quarter", 620, rules_dates.quarter),
    ("relative_year", 650, rules_dates.relative_year),
    ("relative_days", 700, rules_days.relative_days),
    ("time_of_day", 830, rules_days.time_of_day),
    ("weekend", 900, rules_days.weekend),
    ("multi_keyword", 1000, rules_days.multi_keyword),
    ("weekday", 1100, rules_days.weekday),
    ("keyword", 1200, rules_days.keyword),
)


def build_matchers(lexicon: Lexicon, rules: Iterable[RuleEntry] = CASCADE) -> list[RuleMatcher]:
    """One matcher per rule for one language, named ``<language>.<rule>`` ("de.weekday");
    ``rules`` defaults to the built-in cascade. A plugin passes its own entries to add rules
    written against ``RuleInput`` (see ``ctx.core.temporal.rules``) at their own priorities."""
    return [
        RuleMatcher(f"{lexicon.language}.{name}", priority, lexicon.language, lexicon, rule)
        for name, priority, rule in rules
    ]
