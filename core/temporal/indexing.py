"""Temporal extraction: a background job per block, and the query's inline catch-up.

Extraction turns a block's own date, the dates in its content and (``temporal.relative_dates``)
the days its relative expressions name into content times: rows of ``context_temporal`` (one
per date and cyclic dimension), date tokens for the date channel of ``ctx_rrf`` and the block's
mass factor.
"""

from __future__ import annotations

import math
import re
from datetime import date
from typing import TYPE_CHECKING, Any

from ctx.core.runtime import Job, JobHandler, claim_for_scopes, finish
from ctx.core.temporal.extract import find_dates
from ctx.core.temporal.fts import fts_terms
from ctx.core.temporal.gravity import dimensions_for

if TYPE_CHECKING:
    import psycopg

    from ctx.core.app import App
    from ctx.core.temporal.engine import TemporalParser

KIND = "temporal"
MAX_CONTENT_TIMES = 64  # a block listing hundreds of dates is a table, not an event
#: Relative expressions are read sentence by sentence, at most this many sentences a block, and
#: kept when they name at most this many days ("last weekend" yes, "last year" no).
MAX_RELATIVE_SENTENCES = 32
MAX_RELATIVE_DAYS = 7
#: Rules whose reading is no relative expression: written dates (``find_dates`` reads them, with
#: the block's year) and week numbers ("Week 5 was the hardest" in a training log counts weeks).
NOT_RELATIVE = frozenset({"iso_date", "explicit_date", "day_span", "iso_week"})
#: a sentence ends at ! ? ; or at a full stop after a letter that no digit follows ("Am 20.
#: Dezember" and "Dec. 20" stay whole), or at a line break
_SENTENCES = re.compile(r"(?<=[!?;])\s+|(?<=[^\W\d]\.)\s+(?!\d)|\n+")
DATE_TERM_RE = re.compile(r"^\d{4}-\d{2}(-\d{2})?$")


def date_token(term: str) -> str:
    """'2026-03-23' -> 'd20260323', '2026-03' -> 'm202603': one token each in the 'simple' config."""
    if not DATE_TERM_RE.match(term):
        raise ValueError(f"not an ISO day or month: {term!r}")
    return ("d" if len(term) == 10 else "m") + term.replace("-", "")


def content_times(own: date | None, content: str) -> list[tuple[date, str]]:
    """The block's own date first, then dates written in its content (year taken from the own date)."""
    times: list[tuple[date, str]] = []
    if own is not None:
        times.append((own, "own"))
    for day in find_dates(content, default_year=own.year if own else None):
        if all(day != t for t, _ in times):
            times.append((day, "content"))
    return times[:MAX_CONTENT_TIMES]


def relative_times(parser: TemporalParser, own: date, content: str) -> list[date]:
    """The days that relative expressions in ``content`` name, read as of the block's own date:
    "I went to the support group yesterday" in a turn of 2023-05-08 names 2023-05-07, "we ship
    next Friday" the Friday after it. Explicit dates are ``find_dates``' job; expressions wider
    than a week, recurring ones ("every Monday") and purely cyclic ones are left out."""
    days: list[date] = []
    for sentence in _SENTENCES.split(content)[:MAX_RELATIVE_SENTENCES]:
        if not sentence.strip():
            continue
        result = parser.parse(sentence, now=own)
        if not result.matched or result.recurring or result.start is None or result.end is None:
            continue
        if (result.matcher or "").rpartition(".")[2] in NOT_RELATIVE:
            continue
        if result.weights.get("linear", 0.0) <= 0 or (result.end - result.start).days >= (
            MAX_RELATIVE_DAYS
        ):
            continue
        days.extend(d for d in result.days(MAX_RELATIVE_DAYS) if d not in days)
    return days


def extract_block(
    conn: psycopg.Connection[Any], block_id: str, parser: TemporalParser | None = None
) -> int:
    """(Re)compute one block's temporal rows; return its number of content times. With a
    ``parser``, relative expressions of a dated block add content times of their own (source
    ``relative``); they feed the date channel and gravity but not the block's mass, which
    counts the dates the block states."""
    row = conn.execute(
        "SELECT b.id, b.content, b.occurred_at, t.temporal_extract FROM context_blocks b "
        "JOIN context_block_types t ON t.name = b.block_type WHERE b.id = %s",
        (block_id,),
    ).fetchone()
    if row is None:
        return 0
    conn.execute("DELETE FROM context_temporal WHERE block_id = %s", (block_id,))
    if not row["temporal_extract"]:
        conn.execute(
            "UPDATE context_blocks SET ts_dates = NULL, time_mass = 1 WHERE id = %s", (block_id,)
        )
        return 0
    own = row["occurred_at"].date() if row["occurred_at"] else None
    times = content_times(own, row["content"])
    stated = len(times)
    if parser is not None and own is not None:
        seen = {d for d, _ in times}
        room = MAX_CONTENT_TIMES - len(times)
        extra = [d for d in relative_times(parser, own, row["content"]) if d not in seen]
        times += [(d, "relative") for d in extra[:room]]
    values = [
        (block_id, day, source, dim, float(value))
        for day, source in times
        for dim, value in dimensions_for(day).items()
    ]
    if values:
        with conn.cursor() as cur:
            cur.executemany(
                "INSERT INTO context_temporal (block_id, source_date, source, dimension, value) "
                "VALUES (%s, %s, %s, %s, %s) ON CONFLICT DO NOTHING",
                values,
            )
    tokens = " ".join(
        date_token(t) for t in fts_terms([d for d, _ in times], max_days=10**6, max_terms=10**6)
    )
    mass = 1.0 / math.sqrt(stated) if stated else 1.0
    conn.execute(
        "UPDATE context_blocks SET ts_dates = CASE WHEN %s = '' THEN NULL "
        "ELSE to_tsvector('simple', %s) END, time_mass = %s WHERE id = %s",
        (tokens, tokens, mass, block_id),
    )
    return len(times)


def relative_parser(app: App) -> TemporalParser | None:
    """The parser that reads relative expressions in blocks, or None when
    ``temporal.relative_dates`` is off."""
    return app.temporal_parser if app.settings["temporal.relative_dates"] else None


def handle_temporal_jobs(app: App, jobs: list[Job]) -> None:
    parser = relative_parser(app)
    with app.connection() as conn:
        for job in jobs:
            extract_block(conn, str(job.payload["block_id"]), parser)


TEMPORAL_JOBS = JobHandler(
    KIND, handle_temporal_jobs, batch_size=64, description="extract the dates of changed blocks"
)


def extract_pending(app: App, scopes: list[str], batch: int = 256) -> int:
    """The query's inline path: extract the caller's pending blocks before dates are used.

    Claim, work and finish share one transaction: if this process dies midway nothing was
    claimed, so no lease is needed."""
    with app.connection() as conn:
        claimed = claim_for_scopes(
            conn, KIND, scopes, batch, max_attempts=int(app.settings["jobs.max_attempts"])
        )
        parser = relative_parser(app)
        for job in claimed:
            extract_block(conn, str(job.payload["block_id"]), parser)
        finish(conn, [j.id for j in claimed])
    return len(claimed)
