"""Temporal gravity: how much a block's dates pull it towards the time a query refers to.

Two paths, both pure functions:

- linear: blocks are masses on the time line; gravity = sum over the block's dates of
  ``1 / dist ** power`` (days, at least 0.5 days; 1.5 by default). Future dates use a 1.2x sharper
  power; past ones a power lowered by ``1 / (1 + 0.3 ln(1 + age / 30))`` so older memories pull
  from further away (age 30 d: 1.24, age 365 d: 0.85). Dates beyond the cutoff (14 days, 60 for
  ranges) or on the wrong side for the query's direction do not count.
- cyclic: every cycle (weekday, month, ...) is a dimension with a phase in [0, 1); a block scores
  per dimension the best Gaussian match ``exp(-d² / 2σ²)`` of its dates against the query's, and
  the dimensions are summed by the query's weights.

``gravity_factor`` turns both into one multiplicative boost between 1.0 and 1 + the cap (the
seed's 0.30 here; the query path passes ``query.gravity_boost``).
"""

from __future__ import annotations

import calendar
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime

from ctx.core.temporal.types import CYCLIC_DIMENSIONS, TemporalResult

BASE_POWER = 1.5
MIN_DISTANCE_DAYS = 0.5
FUTURE_SHARPNESS = 1.2
TELESCOPING = 0.3
CUTOFF_DAYS = 14
RANGE_CUTOFF_DAYS = 60
BOOST_CAP = 0.30

SIGMAS: Mapping[str, float] = {
    "weekday": 0.07,
    "month": 0.10,
    "quarter": 0.12,
    "week": 0.08,
    "monthday": 0.10,
    "seasonal": 0.08,
    "daily": 0.08,
}

BlockDimensions = Iterable[Mapping[str, float]]


def _day(value: date) -> date:
    return value.date() if isinstance(value, datetime) else value


def effective_power(signed_days: float, power: float = BASE_POWER) -> float:
    """The exponent for a date ``signed_days`` from the target (negative: in the past)."""
    if signed_days >= 0:
        return power * FUTURE_SHARPNESS
    return power / (1 + TELESCOPING * math.log1p(-signed_days / 30))


def signed_distance(day: date, start: date, end: date | None = None) -> int:
    """Days from the span ``start..end`` to ``day``: 0 inside, negative before, positive after."""
    end = end or start
    if day < start:
        return (day - start).days
    if day > end:
        return (day - end).days
    return 0


def linear_gravity(
    content_times: Iterable[date],
    target: date,
    target_end: date | None = None,
    *,
    direction: str = "both",
    cutoff_days: float | None = CUTOFF_DAYS,
    power: float = BASE_POWER,
) -> float:
    """Sum of ``1 / dist ** p`` over ``content_times`` relative to the target day or span.

    Datetimes count by their day. ``direction`` "past" drops dates after the target, "future"
    dates before it; ``cutoff_days`` None disables the distance cutoff.
    """
    total = 0.0
    for value in content_times:
        signed = signed_distance(_day(value), target, target_end)
        if (direction == "past" and signed > 0) or (direction == "future" and signed < 0):
            continue
        if cutoff_days is not None and abs(signed) > cutoff_days:
            continue
        distance = max(abs(signed), MIN_DISTANCE_DAYS)
        total += 1 / distance ** effective_power(signed, power)
    return total


def max_date_gravity(power: float = BASE_POWER) -> float:
    """The strongest pull one date can have (on the target day): the linear path's full mark."""
    return 1 / MIN_DISTANCE_DAYS ** (power * FUTURE_SHARPNESS)


def cyclic_distance(a: float, b: float) -> float:
    """Distance of two phases on the unit circle, in [0, 0.5]: Monday to Sunday is 1/7."""
    d = abs(a - b) % 1.0
    return min(d, 1.0 - d)


def gaussian_decay(distance: float, sigma: float) -> float:
    if sigma <= 0:
        return 0.0
    return math.exp(-(distance**2) / (2 * sigma**2))


def dimensions_for(value: date) -> dict[str, float]:
    """The phase in [0, 1) of a date in every cycle; ``daily`` only for a datetime.

    weekday: Monday 0 .. Sunday 6/7; month: January 0 .. December 11/12; quarter: 0, 1/4, ...;
    week: (ISO week - 1) / weeks in that ISO year; monthday: (day - 1) / days in the month, so
    the last day of every month sits just below 1; seasonal: (day of year - 1) / days in the year;
    daily: hours since midnight / 24.
    """
    day = _day(value)
    iso_year, iso_week, _ = day.isocalendar()
    weeks_in_year = date(iso_year, 12, 28).isocalendar()[1]
    days_in_year = 366 if calendar.isleap(day.year) else 365
    phases = {
        "weekday": day.weekday() / 7,
        "month": (day.month - 1) / 12,
        "quarter": ((day.month - 1) // 3) / 4,
        "week": (iso_week - 1) / weeks_in_year,
        "monthday": (day.day - 1) / calendar.monthrange(day.year, day.month)[1],
        "seasonal": (day.timetuple().tm_yday - 1) / days_in_year,
    }
    if isinstance(value, datetime):
        phases["daily"] = (value.hour + value.minute / 60 + value.second / 3600) / 24
    return phases


def cyclic_gravity(
    weights: Mapping[str, float],
    query_phases: Mapping[str, Sequence[float]],
    block_dimensions: BlockDimensions,
) -> float:
    """Weighted sum over the cyclic dimensions of the block's best match to any query phase.

    ``block_dimensions`` holds one phase mapping per block date (``dimensions_for``). A dimension
    the block lacks adds nothing; the result lies in [0, sum of the cyclic weights].
    """
    rows = list(block_dimensions)
    total = 0.0
    for dim, weight in weights.items():
        sigma = SIGMAS.get(dim)
        wanted = query_phases.get(dim)
        if sigma is None or weight <= 0 or not wanted:
            continue
        best = 0.0
        for row in rows:
            phase = row.get(dim)
            if phase is None:
                continue
            for q in wanted:
                best = max(best, gaussian_decay(cyclic_distance(q, phase), sigma))
        total += weight * best
    return total


def query_phases(result: TemporalResult) -> dict[str, list[float]]:
    """The distinct phases per cyclic dimension of the days (and hour) a result refers to."""
    phases: dict[str, set[float]] = {dim: set() for dim in CYCLIC_DIMENSIONS}
    for day in result.days():
        for dim, phase in dimensions_for(day).items():
            phases[dim].add(phase)
    if result.hour is not None:
        phases["daily"].add((result.hour % 24) / 24)
    return {dim: sorted(values) for dim, values in phases.items() if values}


def time_targets(result: TemporalResult) -> list[tuple[date, date]]:
    """The spans on the time line a result names: each of its days, or its one span."""
    if result.dates:
        return [(d, d) for d in result.dates]
    if result.start is not None and result.end is not None:
        return [(result.start, result.end)]
    return []


def days_from(result: TemporalResult, day: date) -> int | None:
    """How many days ``day`` lies from the time ``result`` names, signed (negative: before it;
    0: in it); None when the result names no time on the time line."""
    targets = time_targets(result)
    if not result.matched or not targets:
        return None
    return min((signed_distance(_day(day), *t) for t in targets), key=abs)


@dataclass(frozen=True)
class GravityQuery:
    """A parse result prepared once, then applied to many candidate blocks."""

    result: TemporalResult
    phases: Mapping[str, Sequence[float]]
    boost_cap: float = BOOST_CAP
    power: float = BASE_POWER

    @classmethod
    def from_result(
        cls, result: TemporalResult, *, boost_cap: float = BOOST_CAP, power: float = BASE_POWER
    ) -> GravityQuery:
        return cls(result, query_phases(result), boost_cap, power)

    def linear_score(self, content_times: Iterable[date]) -> float:
        """The linear pull in [0, 1]: gravity over the single-date maximum, saturated at 1."""
        r = self.result
        targets = time_targets(r)
        if not targets:
            return 0.0
        cutoff = RANGE_CUTOFF_DAYS if r.is_range else CUTOFF_DAYS
        direction = r.direction or "both"
        gravity = 0.0
        for value in content_times:
            day = _day(value)
            start, end = min(targets, key=lambda t: abs(signed_distance(day, *t)))
            gravity += linear_gravity(
                [day], start, end, direction=direction, cutoff_days=cutoff, power=self.power
            )
        return min(gravity / max_date_gravity(self.power), 1.0)

    def factor(
        self,
        content_times: Iterable[date] = (),
        dimensions: BlockDimensions | None = None,
    ) -> float:
        """The multiplicative boost for one block, 1.0 (no pull) .. 1 + ``boost_cap``.

        ``dimensions`` are the block's stored phases, one mapping per date; when None they are
        computed from ``content_times``. Each path counts with its weight; the weights are
        normalised, so the factor never exceeds the cap.
        """
        times = list(content_times)
        weights = {k: v for k, v in self.result.weights.items() if v > 0}
        total_weight = sum(weights.values())
        if not self.result.matched or not total_weight:
            return 1.0
        score = 0.0
        linear = weights.get("linear", 0.0)
        if linear and times:
            score += linear * self.linear_score(times)
        if any(dim in SIGMAS for dim in weights):
            rows = [dimensions_for(t) for t in times] if dimensions is None else list(dimensions)
            score += cyclic_gravity(weights, self.phases, rows)
        return 1.0 + self.boost_cap * min(score / total_weight, 1.0)


def gravity_factor(
    result: TemporalResult,
    content_times: Iterable[date] = (),
    dimensions: BlockDimensions | None = None,
    *,
    boost_cap: float = BOOST_CAP,
) -> float:
    """One-off form of ``GravityQuery.factor``; prepare a ``GravityQuery`` for many blocks."""
    return GravityQuery.from_result(result, boost_cap=boost_cap).factor(content_times, dimensions)
