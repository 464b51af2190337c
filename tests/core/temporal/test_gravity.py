"""Gravity math: the documented values of the linear and the cyclic path and the combined factor."""

from __future__ import annotations

import math
from datetime import date, datetime, timedelta

import pytest

from ctx.core.temporal.gravity import (
    BOOST_CAP,
    SIGMAS,
    GravityQuery,
    cyclic_distance,
    cyclic_gravity,
    days_from,
    dimensions_for,
    effective_power,
    gaussian_decay,
    gravity_factor,
    linear_gravity,
    max_date_gravity,
    query_phases,
)
from ctx.core.temporal.types import TemporalResult

TARGET = date(2026, 3, 24)  # a Tuesday


@pytest.mark.parametrize(("age_days", "power"), [(1, 1.49), (30, 1.24), (180, 0.95), (365, 0.86)])
def test_past_power_telescopes_with_age(age_days: int, power: float) -> None:
    assert effective_power(-age_days) == pytest.approx(power, abs=0.015)


def test_future_power_is_sharper() -> None:
    assert effective_power(3) == pytest.approx(1.8)
    assert effective_power(0) == pytest.approx(1.8)


def test_sigmas_are_the_documented_ones() -> None:
    assert SIGMAS == {
        "weekday": 0.07, "month": 0.10, "quarter": 0.12, "week": 0.08, "monthday": 0.10,
        "seasonal": 0.08, "daily": 0.08,
    }  # fmt: skip


def test_linear_gravity_single_date_values() -> None:
    assert linear_gravity([TARGET], TARGET) == pytest.approx(2**1.8)  # clamped to 0.5 days
    assert linear_gravity([TARGET - timedelta(days=1)], TARGET) == pytest.approx(1.0)
    two_back = 1 / 2 ** effective_power(-2)
    assert linear_gravity([TARGET - timedelta(days=2)], TARGET) == pytest.approx(two_back)
    assert linear_gravity([TARGET + timedelta(days=2)], TARGET) == pytest.approx(1 / 2**1.8)


def test_linear_gravity_sums_over_content_times() -> None:
    days = [TARGET - timedelta(days=1), TARGET + timedelta(days=1), TARGET]
    assert linear_gravity(days, TARGET) == pytest.approx(1 + 1 + 2**1.8)


def test_minimum_distance_guards_the_singularity() -> None:
    same_day = datetime(2026, 3, 24, 23, 59)
    assert math.isfinite(linear_gravity([same_day], TARGET))
    assert linear_gravity([same_day], TARGET) == pytest.approx(max_date_gravity())


@pytest.mark.parametrize(("offset", "counts"), [(14, True), (-14, True), (15, False), (-15, False)])
def test_cutoff_is_fourteen_days(offset: int, counts: bool) -> None:
    assert (linear_gravity([TARGET + timedelta(days=offset)], TARGET) > 0) is counts


def test_cutoff_for_ranges_is_sixty_days() -> None:
    end = TARGET + timedelta(days=10)
    inside = [end + timedelta(days=60)]
    outside = [end + timedelta(days=61)]
    assert linear_gravity(inside, TARGET, end, cutoff_days=60) > 0
    assert linear_gravity(outside, TARGET, end, cutoff_days=60) == 0


def test_dates_inside_a_range_count_as_distance_zero() -> None:
    end = TARGET + timedelta(days=6)
    assert linear_gravity([TARGET + timedelta(days=3)], TARGET, end) == pytest.approx(2**1.8)


@pytest.mark.parametrize(
    ("direction", "before", "after"),
    [("past", True, False), ("future", False, True), ("both", True, True)],
)
def test_direction_filter(direction: str, before: bool, after: bool) -> None:
    earlier, later = [TARGET - timedelta(days=2)], [TARGET + timedelta(days=2)]
    assert (linear_gravity(earlier, TARGET, direction=direction) > 0) is before
    assert (linear_gravity(later, TARGET, direction=direction) > 0) is after


def test_no_content_no_gravity() -> None:
    assert linear_gravity([], TARGET) == 0


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [(0, 6 / 7, 1 / 7), (0.1, 0.3, 0.2), (0.9, 0.1, 0.2), (0.0, 0.5, 0.5), (0.25, 0.25, 0.0)],
)
def test_cyclic_distance_wraps(a: float, b: float, expected: float) -> None:
    assert cyclic_distance(a, b) == pytest.approx(expected)


def test_monday_to_tuesday_and_wednesday() -> None:
    monday, tuesday, wednesday = (dimensions_for(date(2026, 3, d))["weekday"] for d in (23, 24, 25))
    assert gaussian_decay(cyclic_distance(monday, tuesday), 0.07) == pytest.approx(0.13, abs=0.01)
    assert gaussian_decay(cyclic_distance(monday, wednesday), 0.07) < 1e-3
    assert gaussian_decay(0, 0.07) == 1.0
    assert gaussian_decay(0.1, 0) == 0.0


def test_dimensions_for_a_date() -> None:
    phases = dimensions_for(date(2026, 3, 31))  # Tuesday, March, Q1, ISO week 14
    assert phases["weekday"] == pytest.approx(1 / 7)
    assert phases["month"] == pytest.approx(2 / 12)
    assert phases["quarter"] == 0.0
    assert phases["week"] == pytest.approx(13 / 53)  # 2026 has 53 ISO weeks
    assert phases["monthday"] == pytest.approx(30 / 31)
    assert phases["seasonal"] == pytest.approx(89 / 365)
    assert "daily" not in phases


@pytest.mark.parametrize(
    "day",
    [date(2024, 2, 29), date(2024, 12, 31), date(2020, 12, 31), date(2026, 12, 28),
     date(2027, 1, 1), date(2026, 1, 31), date(2026, 2, 28)],
)  # fmt: skip
def test_phases_stay_below_one(day: date) -> None:
    assert all(0 <= p < 1 for p in dimensions_for(day).values())


def test_daily_phase_from_a_datetime() -> None:
    assert dimensions_for(datetime(2026, 3, 31, 18, 30))["daily"] == pytest.approx(18.5 / 24)


def test_month_ends_sit_close_together() -> None:
    feb, mar = dimensions_for(date(2026, 2, 28)), dimensions_for(date(2026, 3, 31))
    assert cyclic_distance(feb["monthday"], mar["monthday"]) < 0.01


def test_cyclic_gravity_takes_the_best_anchor_not_the_sum() -> None:
    phases = query_phases(TemporalResult.single(TARGET, "past", {"weekday": 1.0}))
    one = [dimensions_for(date(2025, 1, 7))]  # a Tuesday
    many = one * 5 + [dimensions_for(date(2025, 1, 8))]
    assert cyclic_gravity({"weekday": 1.0}, phases, one) == pytest.approx(1.0)
    assert cyclic_gravity({"weekday": 1.0}, phases, many) == pytest.approx(1.0)


def test_cyclic_gravity_weighted_sum_and_missing_dimensions() -> None:
    phases = {"weekday": [1 / 7], "month": [0.0]}
    block = [{"weekday": 1 / 7}]  # no month dimension stored
    assert cyclic_gravity({"weekday": 0.4, "month": 0.6}, phases, block) == pytest.approx(0.4)
    assert cyclic_gravity({"linear": 1.0}, phases, block) == 0.0
    assert cyclic_gravity({"weekday": 1.0}, phases, []) == 0.0


def test_factor_is_capped_and_neutral_without_dates() -> None:
    result = TemporalResult.single(TARGET, "past", {"linear": 0.6, "weekday": 0.4})
    query = GravityQuery.from_result(result)
    assert query.factor([TARGET]) == pytest.approx(1 + BOOST_CAP)
    assert query.factor([TARGET] * 10) == pytest.approx(1 + BOOST_CAP)
    assert query.factor([]) == 1.0
    assert query.factor([date(2020, 1, 1)], dimensions=[]) == 1.0


def test_unmatched_result_is_neutral() -> None:
    assert gravity_factor(TemporalResult.nothing(), [TARGET]) == 1.0


def test_pure_cyclic_query_ignores_distance() -> None:
    result = TemporalResult.single(TARGET, "future", {"weekday": 1.0})
    far_tuesday = date(2019, 6, 4)
    assert gravity_factor(result, [far_tuesday]) == pytest.approx(1.30)
    adjacent = gravity_factor(result, [date(2019, 6, 5)])
    assert adjacent == pytest.approx(1 + 0.30 * gaussian_decay(1 / 7, 0.07))
    assert gravity_factor(result, [date(2019, 6, 6)]) == pytest.approx(1.0, abs=1e-4)


def test_mixed_weights_scale_each_path() -> None:
    result = TemporalResult.single(TARGET, "past", {"linear": 0.6, "weekday": 0.4})
    tuesday_far_away = date(2025, 1, 7)  # outside the linear cutoff
    assert gravity_factor(result, [tuesday_far_away]) == pytest.approx(1 + 0.30 * 0.4)
    wednesday_far_away = date(2025, 1, 8)
    value = gravity_factor(result, [wednesday_far_away])
    assert value == pytest.approx(1 + 0.30 * 0.4 * gaussian_decay(1 / 7, 0.07))


def test_stored_dimensions_are_used_when_given() -> None:
    result = TemporalResult.single(TARGET, "past", {"weekday": 1.0})
    assert gravity_factor(result, [], dimensions=[{"weekday": 1 / 7}]) == pytest.approx(1.3)


def test_range_query_boosts_blocks_inside() -> None:
    result = TemporalResult.span(date(2026, 3, 16), date(2026, 3, 22), "past", {"linear": 1.0})
    inside = gravity_factor(result, [date(2026, 3, 18)])
    near = gravity_factor(result, [date(2026, 3, 12)])
    after = gravity_factor(result, [date(2026, 3, 25)])  # a "past" query ignores later dates
    assert inside == pytest.approx(1.3)
    assert 1.0 < near < inside
    assert after == 1.0


def test_multi_date_query_uses_the_nearest_target() -> None:
    result = TemporalResult.multi([date(2026, 3, 1), TARGET], "past", {"linear": 1.0})
    assert gravity_factor(result, [TARGET]) == pytest.approx(1.3)
    assert gravity_factor(result, [date(2026, 3, 1)]) == pytest.approx(1.3)


def test_time_of_day_query_uses_the_daily_dimension() -> None:
    result = TemporalResult(matched=True, direction="both", weights={"daily": 1.0}, hour=19.0)
    evening = datetime(2025, 5, 5, 19, 0)
    morning = datetime(2025, 5, 5, 8, 0)
    assert gravity_factor(result, [evening]) == pytest.approx(1.3)
    assert gravity_factor(result, [morning]) == pytest.approx(1.0, abs=1e-3)


def test_weekend_query_matches_saturday_and_sunday() -> None:
    result = TemporalResult.span(date(2026, 3, 28), date(2026, 3, 29), "future", {"weekday": 1.0})
    for day in (date(2024, 6, 1), date(2024, 6, 2)):  # a Saturday, a Sunday
        assert gravity_factor(result, [day]) == pytest.approx(1.3)
    assert gravity_factor(result, [date(2024, 6, 5)]) == pytest.approx(1.0, abs=1e-3)


def test_days_from_the_named_time() -> None:
    day = TemporalResult.single(TARGET, "past", {"linear": 1.0})
    assert days_from(day, TARGET) == 0
    assert days_from(day, TARGET + timedelta(days=2)) == 2
    assert days_from(day, datetime(2026, 3, 20, 23, 0)) == -4  # a datetime counts by its day
    week = TemporalResult.span(date(2026, 3, 16), date(2026, 3, 22), "past", {"linear": 1.0})
    assert days_from(week, date(2026, 3, 18)) == 0
    assert days_from(week, date(2026, 3, 13)) == -3
    two = TemporalResult.multi([TARGET, TARGET + timedelta(days=10)], "both", {"linear": 1.0})
    assert days_from(two, TARGET + timedelta(days=8)) == -2  # the nearer of the two
    assert days_from(TemporalResult.nothing(), TARGET) is None
