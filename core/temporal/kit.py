"""The rule-writing kit: everything a plugin needs to add a temporal rule to the cascade.

A plugin imports it as ``from ctx.core import temporal_kit as kit`` and writes a rule as a function
of a ``RuleInput`` (the text, its language-free tokens, "now" and the lexicon) returning a
``TemporalResult`` or None; ``build_matchers(lexicon, [(name, priority, rule), ...])`` turns its
rules into matchers for one language. ``resolve_phrase`` reads an anchor phrase at a token (a day,
weekday, month, period or holiday); the calendar helpers do the arithmetic, weeks starting on
Monday.
"""

from ctx.core.temporal.calendar_spans import (
    HOLIDAYS,
    Span,
    add_months,
    annual_occurrence,
    holiday_span,
    iso_week_bounds,
    month_bounds,
    nearest_month,
    next_weekday,
    nth_weekday,
    previous_weekday,
    quarter_bounds,
    shift_month,
    week_bounds,
    weekday_on_or_after,
    weekday_on_or_before,
    year_bounds,
)
from ctx.core.temporal.extract import DateMention, date_mentions
from ctx.core.temporal.lexicon import Tok, month_licensed, raw_tokens
from ctx.core.temporal.rules import (
    Phrase,
    Rule,
    RuleInput,
    month_in,
    needs,
    shift,
    unit_span,
    weekday_date,
    weekend_span,
)
from ctx.core.temporal.rules import resolve as resolve_phrase
from ctx.core.temporal.types import Direction, TemporalResult, direction_between

__all__ = [
    "HOLIDAYS",
    "DateMention",
    "Direction",
    "Phrase",
    "Rule",
    "RuleInput",
    "Span",
    "TemporalResult",
    "Tok",
    "add_months",
    "annual_occurrence",
    "date_mentions",
    "direction_between",
    "holiday_span",
    "iso_week_bounds",
    "month_bounds",
    "month_in",
    "month_licensed",
    "nearest_month",
    "needs",
    "next_weekday",
    "nth_weekday",
    "previous_weekday",
    "quarter_bounds",
    "raw_tokens",
    "resolve_phrase",
    "shift",
    "shift_month",
    "unit_span",
    "week_bounds",
    "weekday_date",
    "weekday_on_or_after",
    "weekday_on_or_before",
    "weekend_span",
    "year_bounds",
]
