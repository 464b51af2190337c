"""A question that names a time: its topic's blocks first within that time, and, when no block
lies in the time, the topic's blocks nearest to it.

Two mistakes this module stops. Gravity pulls whatever is dated near the named time, so "what
did we plan two weeks ago?" put "Coffee machine repaired" (dated that day, not a word of the
question) above "Sprint 46 planning" (three days earlier): within the period gravity reaches, a
block whose only match is its date is placed below the blocks that hold the question's words.
And "what did we decide last Tuesday?" in a store with nothing dated that Tuesday came back
empty, although a decision written two days later answered the rest of it: when no candidate
lies in the named time, the topic's best blocks come back nearest first, the answer says so
("nothing dated Tue 1 Dec; nearest: ...") and the class is ``low_confidence``.

A block lies in a time when one of its days does (``blocks.block_days``: its own day, else when
it was written, and the days its content names), the timeline's rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from ctx.core.blocks import block_days
from ctx.core.retrieval.candidates import Candidate
from ctx.core.retrieval.rescore import question_hits
from ctx.core.temporal import date_query, days_from

if TYPE_CHECKING:
    from ctx.core.retrieval.pipeline import QueryRun


def names_days(q: QueryRun) -> bool:
    """Whether the query names days on the time line (a purely cyclic time, "every Tuesday",
    names none: nothing lies in it or near it)."""
    return date_query(q.temporal) is not None


def topic_first(q: QueryRun, candidates: list[Candidate], pulled: set[str]) -> list[Candidate]:
    """Within the period gravity reached (``pulled``), no block that holds none of the
    question's words (time words out) stays above one that holds some: its score is lowered to
    the lowest of theirs, and the tie goes to the topic. Nothing changes when the question is
    only its time ("what happened yesterday?") or no pulled block holds its words."""
    if not pulled:
        return candidates
    ids = [c.block_id for c in candidates if c.block_id in pulled]
    on_topic = _on_topic(q, ids)
    if not on_topic or on_topic >= set(ids):
        return candidates
    floor = min(c.score for c in candidates if c.block_id in on_topic)
    lowered = 0
    for c in candidates:
        if c.block_id in pulled and c.block_id not in on_topic and c.score > floor:
            c.rescore("off_topic", floor / c.score)
            lowered += 1
    q.note(off_topic_lowered=lowered)
    return sorted(candidates, key=lambda c: (-c.score, c.block_id not in on_topic))


def _on_topic(q: QueryRun, ids: list[str]) -> set[str]:
    """Those of ``ids`` that hold at least one of the question's words (time words out)."""
    return {b for hits in question_hits(q, ids) for b, words in hits.found_in.items() if words}


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
    """The head with the topic's blocks (those holding the question's words; all when none
    does) first, nearest to the named time first (ties keep their order), and the note that says
    nothing lies in it and which of them is nearest."""
    on_topic = _on_topic(q, [c.block_id for c in head]) or {c.block_id for c in head}
    far = 10**6  # a block whose place is unknown (deleted meanwhile) goes last

    def distance(c: Candidate) -> int:
        return abs(placed[c.block_id].distance) if c.block_id in placed else far

    ordered = sorted((c for c in head if c.block_id in on_topic), key=distance)
    ordered += [c for c in head if c.block_id not in on_topic]
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
