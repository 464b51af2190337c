"""The shapes the temporal parser passes around: the parse context, the result and the matcher.

A matcher is any object with ``name``, ``priority``, ``language`` and ``match(text, ctx)``; the
built-in ones come from the ``temporal-en`` and ``temporal-de`` plugins through the
``register_temporal_matchers`` hook. Optional attributes a matcher may carry, read with
``getattr`` by the engine:

- ``intent_words``: words that show a query is about time (feeds ``has_temporal_intent``);
- ``recurrence_words``: words that turn a match into a recurring, purely cyclic one;
- ``vocabulary``: words typical of the matcher's language, used to guess the language of a query;
- ``time_words``: the words that name times, without the function words;
- ``function_words``: the language's function words ("the", "was"), which ``residual`` drops
  (default: the whole ``vocabulary``);
- ``topic_words``: time words that are topics too (holiday names): ``residual`` keeps them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from typing import Any, Literal, Protocol, runtime_checkable

Direction = Literal["past", "future", "both"]

#: Every dimension a result may weight. ``linear`` is distance on the time line; the rest are cycles.
DIMENSIONS: tuple[str, ...] = (
    "linear",
    "weekday",
    "month",
    "quarter",
    "week",
    "monthday",
    "seasonal",
    "daily",
)
CYCLIC_DIMENSIONS: tuple[str, ...] = DIMENSIONS[1:]

#: What ``TemporalResult.fallback`` says when rules found nothing but the query is about time.
FALLBACK_SKIPPED = "skipped: no translate backend"


@dataclass(frozen=True)
class ParseContext:
    """What a matcher knows besides the text: the reference day and an optional language hint."""

    now: date
    lang: str | None = None


@dataclass
class TemporalResult:
    """The outcome of one parse.

    ``start`` and ``end`` are inclusive. ``dates`` lists the days of a single-day or multi-day
    result (``["2026-03-24"]``, or today and tomorrow); it stays empty for a contiguous range, which
    ``start`` and ``end`` describe. ``direction`` says where the referenced time lies relative to
    ``now``. ``weights`` spreads the temporal signal across ``DIMENSIONS``.
    """

    matched: bool = False
    matcher: str | None = None
    start: date | None = None
    end: date | None = None
    dates: list[date] = field(default_factory=list)
    direction: Direction | None = None
    weights: dict[str, float] = field(default_factory=dict)
    #: Hour of day (0-24) for time-of-day queries; drives the ``daily`` dimension.
    hour: float | None = None
    #: True when a recurrence word ("every", "immer", "dienstags") made the match purely cyclic.
    recurring: bool = False
    #: True when the text carries temporal intent words (set by the engine for every parse).
    intent: bool = False
    #: Why no LLM fallback ran, when rules found nothing but intent was present.
    fallback: str | None = None

    # -- constructors used by matchers ---------------------------------------------------------

    @classmethod
    def single(
        cls, day: date, direction: Direction, weights: dict[str, float], **extra: Any
    ) -> TemporalResult:
        return cls(
            matched=True,
            start=day,
            end=day,
            dates=[day],
            direction=direction,
            weights=dict(weights),
            **extra,
        )

    @classmethod
    def span(
        cls, start: date, end: date, direction: Direction, weights: dict[str, float], **extra: Any
    ) -> TemporalResult:
        if end < start:
            start, end = end, start
        if start == end:
            return cls.single(start, direction, weights, **extra)
        return cls(
            matched=True, start=start, end=end, direction=direction, weights=dict(weights), **extra
        )

    @classmethod
    def multi(
        cls, days: list[date], direction: Direction, weights: dict[str, float], **extra: Any
    ) -> TemporalResult:
        unique = sorted(set(days))
        return cls(
            matched=True,
            start=unique[0],
            end=unique[-1],
            dates=unique,
            direction=direction,
            weights=dict(weights),
            **extra,
        )

    @classmethod
    def nothing(cls) -> TemporalResult:
        return cls()

    # -- views ---------------------------------------------------------------------------------

    @property
    def is_range(self) -> bool:
        """True for a contiguous span of more than one day."""
        return (
            self.start is not None
            and self.end is not None
            and self.start != self.end
            and not self.dates
        )

    def days(self, limit: int = 366) -> list[date]:
        """Every day the result refers to, in order: ``dates``, or the span day by day."""
        if self.dates:
            return list(self.dates[:limit])
        if self.start is None or self.end is None:
            return []
        count = min((self.end - self.start).days + 1, limit)
        return [self.start + timedelta(days=i) for i in range(count)]

    def with_updates(self, **changes: Any) -> TemporalResult:
        return replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        """The stable wire shape: exactly these seven keys, dates as ISO strings, null when absent."""
        return {
            "matched": self.matched,
            "matcher": self.matcher,
            "start": self.start.isoformat() if self.start else None,
            "end": self.end.isoformat() if self.end else None,
            "dates": [d.isoformat() for d in self.dates],
            "direction": self.direction,
            "weights": {k: round(v, 6) for k, v in self.weights.items()},
        }


def resolved_window(temporal: Mapping[str, Any]) -> str | None:
    """The time a query resolved to, in words, from its wire shape (``to_json``): the days when
    there are a few ("2026-03-24, 2026-03-25"), else the range ("2026-11-23 – 2026-11-29");
    None when the query named no time. The web workbench and ``ctx query`` both show it."""
    if not temporal.get("matched") or not temporal.get("start"):
        return None
    dates = temporal.get("dates") or []
    if dates and len(dates) <= 7:
        return ", ".join(dates)
    start, end = temporal["start"], temporal.get("end")
    return str(start) if not end or end == start else f"{start} – {end}"


def direction_between(start: date, end: date, now: date) -> Direction:
    """Where ``start..end`` lies relative to ``now``: wholly before, wholly after, or across it."""
    if end < now:
        return "past"
    if start > now:
        return "future"
    return "both"


@runtime_checkable
class TemporalMatcher(Protocol):
    """One rule of the deterministic parser.

    ``priority`` orders the cascade (lower runs first: the most specific rules). ``language`` is an
    ISO 639-1 code, or ``"*"`` for rules that need no words. ``match`` returns a result with
    ``matched=True`` when the rule applies and ``None`` otherwise; the engine fills in ``matcher``.
    """

    name: str
    priority: int
    language: str

    def match(self, text: str, ctx: ParseContext) -> TemporalResult | None: ...
