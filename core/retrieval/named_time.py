"""A question that names days: the topic's block of that period above a block whose only match
is its date, and, when no block lies in those days, the topic's blocks nearest to them first.

Gravity pulls whatever is dated near the named time: "what did we plan two weeks ago?" put
"Coffee machine repaired" (dated that day, pulled six-fold) above "Sprint 46 planning" (three
days earlier, the question's word and meaning): ``topic_over_date`` holds it below. And "what did
we decide last Tuesday?" in a store with nothing dated that Tuesday came back empty, although a
decision written two days later answered the rest of it: when no candidate lies in the named
time, the blocks the topic's evidence keeps come back nearest to the time first, the answer says
so ("nothing dated Tue 1 Dec; nearest: ...") and the class is ``low_confidence``.

A block lies in a time when one of its days does (``blocks.block_days``: its own day, else when
it was written, and the days its content names), the timeline's rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from ctx.core.blocks import block_days
from ctx.core.retrieval.candidates import Candidate
from ctx.core.temporal import date_query, days_from

if TYPE_CHECKING:
    from ctx.core.retrieval.pipeline import QueryRun


def names_days(q: QueryRun) -> bool:
    """Whether the query names days on the time line (a purely cyclic time, "every Tuesday",
    names none: nothing lies in it or near it)."""
    return date_query(q.temporal) is not None


@dataclass(frozen=True)
class Place:
    """Where a block lies relative to the named time: its day nearest to it and how far that is
    (signed days, 0: in it)."""

    title: str
    day: date
    distance: int


def places(q: QueryRun, candidates: list[Candidate]) -> dict[str, Place]:
    """Each candidate's place relative to the time the query names (call only when it names
    days: ``names_days``)."""
    out: dict[str, Place] = {}
    for block_id, row in block_days(q.app, [c.block_id for c in candidates]).items():
        placed = [(d, days_from(q.temporal, d)) for d in row["days"]]
        day, distance = min(
            ((d, n) for d, n in placed if n is not None), key=lambda p: abs(p[1]), default=(None, 0)
        )
        if day is not None:
            out[block_id] = Place(row["title"], day, distance)
    return out


def nearest_first(
    q: QueryRun, head: list[Candidate], placed: dict[str, Place]
) -> tuple[list[Candidate], str]:
    """The head nearest to the named time first (ties keep their order), and the note that says
    nothing lies in it and which block is nearest."""
    far = 10**6  # a block whose place is unknown (deleted meanwhile) goes last
    ordered = sorted(
        head, key=lambda c: abs(placed[c.block_id].distance) if c.block_id in placed else far
    )
    note = f"nothing dated {describe_time(q)}"
    if ordered and (first := placed.get(ordered[0].block_id)) is not None:
        note += f"; nearest: {first.title} ({_day(first.day, q)})"
    return ordered, note


def describe_time(q: QueryRun) -> str:
    """The named time in words: "Tue 1 Dec", "Mon 23 Nov - Sun 29 Nov", the year added when it
    is not the current one."""
    r = q.temporal
    if r.dates:
        shown = [_day(d, q) for d in r.dates[:3]]
        return ", ".join(shown) + (", ..." if len(r.dates) > 3 else "")
    assert r.start is not None and r.end is not None  # names_days
    if r.start == r.end:
        return _day(r.start, q)
    return f"{_day(r.start, q)} - {_day(r.end, q)}"


def _day(day: date, q: QueryRun) -> str:
    now = q.request.now or date.today()
    text = f"{day:%a} {day.day} {day:%b}"
    return text if day.year == now.year else f"{text} {day.year}"


TEXT_CHANNELS = ("fts_en", "fts_de", "trigram")
SAME_PERIOD_DAYS = 7  # "the same period": within a week of the named time


def topic_over_date(q: QueryRun, candidates: list[Candidate]) -> list[Candidate]:
    """No block whose only match is its date stays above a block of the same period that is
    ahead of it on the topic: found by a text channel (it holds the question's words) where it
    is not, and nearer by meaning. Gravity pulls "Coffee machine repaired" (dated the day "two
    weeks ago" names) six-fold; "Sprint 46 planning", three days earlier, holds the question's
    word and its meaning, and stays first. A block of the named day that is as near by meaning
    as the topic's wordier ones ("Sprint demo" for "what's planned for tomorrow?") keeps what
    gravity gave it."""
    placed = places(q, candidates)
    leaders = [
        c
        for c in candidates
        if _by_text(c)
        and c.block_id in placed
        and abs(placed[c.block_id].distance) <= SAME_PERIOD_DAYS
    ]
    held: set[str] = set()
    for c in candidates:
        if _by_text(c) or (own := c.channel_scores.get("dense")) is None:
            continue
        ahead = [y.score for y in leaders if (y.channel_scores.get("dense") or 0.0) > own]
        if ahead and c.score > min(ahead):
            c.rescore("topic_ahead", min(ahead) / c.score)
            held.add(c.block_id)
    if held:
        q.note(held_below_topic=len(held))
    return sorted(candidates, key=lambda c: (-c.score, c.block_id in held))


def _by_text(c: Candidate) -> bool:
    return any(c.ranks.get(ch) is not None for ch in TEXT_CHANNELS)
