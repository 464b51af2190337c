"""The ``versions`` stage (before ``sources``): a query that names a past time sees each block as
it was then.

When the query names days on the time line and a candidate's current version began after the
last of them, while a version kept of it (``blocks.versions``) was current at the end of that
time, the source stands for that version: its title, category, tags, type and own date, and its
content in the snippet and in the answer (``QueryRun.versions``), with ``version``,
``valid_from`` and ``valid_to`` on the source; ``updated_at`` is when that version was written.
A block created after the named time stays as it is. One statement looks up every candidate.

The channels search the current versions only: an old version's words do not find its block
(searching past versions' text is not done), and the reranker, which runs before, reads the
current content.
"""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import TYPE_CHECKING

from ctx.core.blocks import SENSITIVITIES, versions_at
from ctx.core.retrieval.named_time import names_days
from ctx.core.retrieval.pipeline import QueryStage

if TYPE_CHECKING:
    from ctx.core.retrieval.candidates import Candidate
    from ctx.core.retrieval.pipeline import QueryRun

#: What a past version puts on its source in place of the block's current value.
SHOWN = ("title", "category", "tags", "block_type", "occurred_at")


def named_end(q: QueryRun) -> datetime | None:
    """The end of the time the query names (the end of its last day, UTC), or None when it
    names no days on the time line."""
    if not names_days(q) or q.temporal.end is None:
        return None
    return datetime.combine(q.temporal.end + timedelta(days=1), time.min, tzinfo=UTC)


def versions(q: QueryRun, candidates: list[Candidate]) -> list[Candidate]:
    """Sources of a query naming a past time show the version current then, where the block
    changed since and keeps that version."""
    end = named_end(q)
    if not candidates or end is None:
        return candidates
    found = q.read(lambda conn: versions_at(conn, [c.block_id for c in candidates], end))
    for block_id, version in found.items():
        fields = {k: version[k] for k in SHOWN}
        fields["tags"] = list(fields["tags"])
        fields |= {"version": version["version"], "valid_from": version["valid_from"],
                   "valid_to": version["valid_to"], "updated_at": version["valid_from"]}  # fmt: skip
        q.source_fields.setdefault(block_id, {}).update(fields)
        q.versions[block_id] = {
            "content": version["content"],
            "sensitivity": version["sensitivity"],
        }
    q.note(past_versions=len(found), as_of=end.isoformat())
    return candidates


def stricter(a: str, b: str) -> str:
    """The stricter of two sensitivities: a past version reaches a model only where both it and
    the block as it is now may go."""
    return max(a, b, key=SENSITIVITIES.index)


VERSIONS_STAGE = QueryStage(
    "versions", versions, before="sources", description=versions.__doc__ or ""
)
