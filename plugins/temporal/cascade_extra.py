"""The second round of temporal rules, each with its place in the core's cascade.

Both language plugins register these next to the core's rules (``build_matchers(LEXICON,
RULES)``); a rule only fires where its language's lexicon has the words (a language without
"half" words never reaches ``month_half``). The priorities put each rule before the core rule
that would read less of the same phrase: offsets and "around" before the anchors they move, day
spans before single written dates, month parts before "last week"/"im Monat", rolling spans
before "last month", ISO weeks before the core's "KW 12".
"""

from __future__ import annotations

from ctx.core import RuleEntry
from ctx.plugins.temporal import anchors, day_spans, iso_weeks, month_parts, rolling

RULES: tuple[RuleEntry, ...] = (
    ("around", 85, anchors.around),
    ("weekday_by_anchor", 87, anchors.weekday_by_anchor),
    ("week_of", 88, anchors.week_of),
    ("offset", 90, anchors.offset),
    ("day_span", 105, day_spans.day_span),
    ("part_of_period", 395, rolling.part_of_period),
    ("month_stretch", 415, month_parts.month_stretch),
    ("ordinal_weekday", 420, month_parts.ordinal_weekday),
    ("month_half", 425, month_parts.month_half),
    ("month_weekend", 430, month_parts.month_weekend),
    ("month_week", 435, month_parts.month_week),
    ("month_day", 440, month_parts.month_day),
    ("rolling_span", 470, rolling.rolling_span),
    ("iso_week", 480, iso_weeks.iso_week),
    ("bare_day", 1150, day_spans.bare_day_rule),
)
