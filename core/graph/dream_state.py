"""Which block Dream works on next, and what it remembers about each block.

A block is due when its cooldown has passed (``due_at``); blocks never checked come first, then the
longest overdue. A cycle claims its block by writing its lease id into the state row in one
statement over ``FOR UPDATE SKIP LOCKED``, so two workers (threads or processes) never take the
same block; a claim whose lease is gone (the process died) or that is older than ``STALE_AFTER``
is free again.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ctx.core.runtime import owner_gone

if TYPE_CHECKING:
    import psycopg

STALE_AFTER = "2 hours"  # longer than any cycle may run (dream.cycle_timeout_s <= 7200 s)
FAILURES_BEFORE_INERT = 3

_CLAIM = f"""
UPDATE context_dream_state s SET claimed_by = %(owner)s, claimed_at = now()
 WHERE s.block_id = (
       SELECT d.block_id FROM context_dream_state d
         JOIN context_blocks b ON b.id = d.block_id
         JOIN context_block_types t ON t.name = b.block_type AND t.dream_linkable
        WHERE NOT b.is_archived AND d.due_at <= now()
          AND (%(block)s::uuid IS NULL OR d.block_id = %(block)s::uuid)
          AND (%(scopes)s::text[] IS NULL OR b.scope = ANY(%(scopes)s::text[]))
          AND (d.claimed_by IS NULL OR d.claimed_at < now() - interval '{STALE_AFTER}'
               OR {owner_gone("d.claimed_by")})
        ORDER BY (d.checked_at IS NULL) DESC, d.due_at, d.block_id
        LIMIT 1 FOR UPDATE OF d SKIP LOCKED)
RETURNING s.block_id::text AS block_id, s.keywords, s.keywords_hash, s.errors
"""


@dataclass
class Claimed:
    """A block a cycle holds: its row and what Dream remembers of it."""

    id: str
    scope: str
    category: str
    title: str
    content: str
    sensitivity: str
    content_hash: str
    created_at: datetime
    keywords: list[str] | None
    keywords_hash: str | None
    errors: int


def claim_block(
    conn: psycopg.Connection[Any],
    owner: int,
    block_id: str | None = None,
    scopes: list[str] | None = None,
) -> Claimed | None:
    """Claim the next due block (or ``block_id`` if it is due and free; within ``scopes`` when
    given) for lease ``owner``."""
    row = conn.execute(_CLAIM, {"owner": owner, "block": block_id, "scopes": scopes}).fetchone()
    if row is None:
        return None
    b = conn.execute(
        "SELECT scope, category, title, content, sensitivity, content_hash, created_at "
        "FROM context_blocks WHERE id = %s",
        (row["block_id"],),
    ).fetchone()
    assert b is not None
    return Claimed(row["block_id"], b["scope"], b["category"], b["title"], b["content"],
                   b["sensitivity"], b["content_hash"], b["created_at"], row["keywords"],
                   row["keywords_hash"], int(row["errors"]))  # fmt: skip


def store_keywords(
    conn: psycopg.Connection[Any], block_id: str, keywords: list[str], content_hash: str
) -> None:
    conn.execute(
        "UPDATE context_dream_state SET keywords = %s, keywords_hash = %s WHERE block_id = %s",
        (keywords, content_hash, block_id),
    )


def release(
    conn: psycopg.Connection[Any],
    block_id: str,
    owner: int,
    *,
    outcome: str,
    links: int,
    cooldown_s: float,
    error: str | None = None,
    content_hash: str | None = None,
) -> None:
    """End a cycle: the block is due again after ``cooldown_s`` (at once when its content
    changed during the cycle: ``content_hash`` is what the cycle read); failures are counted."""
    conn.execute(
        """
        UPDATE context_dream_state
           SET claimed_by = NULL, claimed_at = NULL, checked_at = now(),
               due_at = CASE WHEN %(hash)s::text IS NOT NULL AND %(hash)s::text IS DISTINCT FROM
                                  (SELECT b.content_hash FROM context_blocks b
                                    WHERE b.id = %(id)s)
                             THEN now() ELSE now() + make_interval(secs => %(cooldown)s) END,
               cycles = cycles + 1, links_made = links_made + %(links)s,
               errors = CASE WHEN %(error)s::text IS NULL THEN 0 ELSE errors + 1 END,
               last_outcome = %(outcome)s, last_error = %(error)s
         WHERE block_id = %(id)s AND claimed_by = %(owner)s
        """,
        {
            "cooldown": cooldown_s,
            "links": links,
            "error": error,
            "outcome": outcome,
            "id": block_id,
            "owner": owner,
            "hash": content_hash,
        },
    )


def due_counts(conn: psycopg.Connection[Any]) -> dict[str, int]:
    """How many linkable blocks were never checked, are due, are cooling down, are claimed."""
    row = conn.execute(
        """
        SELECT count(*) FILTER (WHERE d.checked_at IS NULL) AS unchecked,
               count(*) FILTER (WHERE d.due_at <= now()) AS due,
               count(*) FILTER (WHERE d.due_at > now()) AS cooling,
               count(*) FILTER (WHERE d.claimed_by IS NOT NULL) AS claimed,
               coalesce(sum(d.cycles), 0) AS cycles, coalesce(sum(d.errors), 0) AS failing
          FROM context_dream_state d
          JOIN context_blocks b ON b.id = d.block_id
          JOIN context_block_types t ON t.name = b.block_type AND t.dream_linkable
         WHERE NOT b.is_archived
        """
    ).fetchone()
    return {k: int(v) for k, v in dict(row or {}).items()}
