"""The timeline: blocks of a time window, newest first.

A block belongs to a day when its own date (``occurred_at``, else when it was written) falls on it,
or when its content mentions that day (the temporal extraction's rows). Days are UTC days.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any

from ctx.core.errors import ValidationError

if TYPE_CHECKING:
    from ctx.core.app import App

MAX_DAYS = 366 * 20
#: A block's own day: when it happened, else when it was written (UTC).
OWN_DAY = "(coalesce(b.occurred_at, b.created_at) AT TIME ZONE 'UTC')::date"


def timeline_window(
    app: App, when: str | None, start: date | None, end: date | None
) -> tuple[date, date]:
    """The inclusive window of a time expression, or of ``start``/``end``."""
    if when is not None:
        result = app.temporal_parser.parse(when, now=datetime.now(UTC).date())
        days = sorted(result.dates)
        first = days[0] if days else result.start
        last = days[-1] if days else result.end
        if not result.matched or first is None:
            raise ValidationError(
                f"could not read a time from {when!r}; try 'last week', 'yesterday', "
                "'March 2026', '2026-03-24', or give start and end",
                field="when",
            )
        start, end = first, last or first
    assert start is not None
    end = end or start
    if end < start:
        raise ValidationError("end must not be before start", field="end")
    if (end - start).days > MAX_DAYS:
        raise ValidationError("the window may span at most 20 years", field="end")
    return start, end


def timeline_blocks(
    app: App,
    scopes: list[str],
    start: date,
    end: date,
    *,
    limit: int,
    category: str | None,
) -> list[dict[str, Any]]:
    """Blocks of ``scopes`` dated within the window, each with its latest day in it."""
    with app.connection() as conn:
        rows = conn.execute(
            f"""
            WITH bounds AS (
                SELECT (%(start)s::date)::timestamp AT TIME ZONE 'UTC' AS lo,
                       (%(end)s::date + 1)::timestamp AT TIME ZONE 'UTC' AS hi
            ), days AS (
                SELECT t.block_id AS id, t.source_date AS day
                  FROM context_temporal t
                 WHERE t.source_date BETWEEN %(start)s AND %(end)s
                UNION ALL
                SELECT b.id, {OWN_DAY}
                  FROM context_blocks b, bounds
                 WHERE b.scope = ANY(%(scopes)s)
                   AND coalesce(b.occurred_at, b.created_at) >= bounds.lo
                   AND coalesce(b.occurred_at, b.created_at) < bounds.hi
            )
            SELECT b.id, b.title, b.category, b.scope, max(d.day) AS day
              FROM days d JOIN context_blocks b ON b.id = d.id
             WHERE b.scope = ANY(%(scopes)s)
               AND NOT b.is_archived
               AND (%(category)s::text IS NULL OR b.category = %(category)s)
             GROUP BY b.id
             ORDER BY day DESC, b.updated_at DESC, b.id
             LIMIT %(limit)s
            """,
            {
                "start": start,
                "end": end,
                "scopes": scopes,
                "category": category,
                "limit": limit,
            },
        ).fetchall()
    return [{**r, "id": str(r["id"])} for r in rows]


def block_days(app: App, ids: list[str]) -> dict[str, dict[str, Any]]:
    """Per block of ``ids``: its title and the days it belongs to (the timeline's rule: its own
    day, and the days its content mentions), oldest first."""
    if not ids:
        return {}
    with app.connection() as conn:
        rows = conn.execute(
            f"""
            SELECT b.id::text AS id, b.title,
                   array(SELECT {OWN_DAY}
                         UNION SELECT t.source_date FROM context_temporal t
                                WHERE t.block_id = b.id
                         ORDER BY 1) AS days
              FROM context_blocks b
             WHERE b.id = ANY(%s::uuid[])
            """,
            (ids,),
        ).fetchall()
    return {r["id"]: {"title": r["title"], "days": list(r["days"])} for r in rows}
