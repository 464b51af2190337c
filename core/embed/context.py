"""Context vectors: what the dense channel searches.

A block's context vector is its own embedding plus ``embed.context_weight`` times the embeddings
of up to ``embed.context_window`` neighbours on each side, normalised. Neighbours are the blocks
of the same scope and category in the order they were written, as long as consecutive ones were
written within ``embed.context_gap_s`` seconds of each other: the turns of one conversation, the
chunks of one document, the notes of one sitting. A turn that answers "yes, the blue one" is then
found by a question about what the previous turn asked. No model is called: the vectors are mixed
from embeddings already stored.

Context vectors are recomputed around every block the embed job writes, and around the place a
block leaves or takes (deleted, archived, unarchived, moved to another scope or category): a
trigger on ``context_blocks`` queues an ``embed_context`` job in the same transaction. Writers of
one sequence take an advisory lock, so two embed jobs never leave each other's blocks out. The
raw embedding stays in ``embedding`` for everything that compares blocks with each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import pairwise
from typing import TYPE_CHECKING, Any

import numpy as np

from ctx.core.embed.wire import as_array, binary_vectors, halfvec
from ctx.core.runtime import Job, JobHandler, enqueue

if TYPE_CHECKING:
    import psycopg

    from ctx.core.app import App

KIND = "embed_context"


@dataclass(frozen=True)
class Blend:
    weight: float
    window: int
    gap: timedelta

    @property
    def off(self) -> bool:
        return self.weight <= 0 or self.window <= 0


def blend_of(app: App) -> Blend:
    s = app.settings
    return Blend(
        float(s["embed.context_weight"]),
        int(s["embed.context_window"]),
        timedelta(seconds=float(s["embed.context_gap_s"])),
    )


def parse_vector(value: Any) -> np.ndarray:
    """A stored vector (binary ``HalfVector`` or text literal) as float32."""
    return as_array(value)


# A sequence's members: live blocks of one scope and category with an embedding in the
# generation, of a type the vectors see (context_type_reach: an excluded block must not shape what
# its neighbours are found for). Served by context_blocks_sequence.
_MEMBER = """
  FROM context_blocks b
  JOIN context_block_embeddings e ON e.block_id = b.id AND e.generation = %(gen)s
  JOIN context_type_reach t ON t.name = b.block_type AND t.vectors = 'all'
 WHERE b.scope = %(scope)s AND b.category = %(category)s AND NOT b.is_archived
"""

# The rows around one anchor in writing order: `reach` before it, and from it on `reach + 1`
# (the anchor itself when it is still there).
_AROUND = f"""
SELECT * FROM (
    (SELECT b.id::text AS id, b.created_at, e.embedding AS emb {_MEMBER}
        AND (b.created_at, b.id) < (%(at)s, %(anchor)s::uuid)
      ORDER BY b.created_at DESC, b.id DESC LIMIT %(reach)s)
    UNION ALL
    (SELECT b.id::text, b.created_at, e.embedding {_MEMBER}
        AND (b.created_at, b.id) >= (%(at)s, %(anchor)s::uuid)
      ORDER BY b.created_at, b.id LIMIT %(reach)s + 1)
) s ORDER BY created_at, id
"""
_FIRST_PAGE = f"""
SELECT b.id::text AS id, b.created_at, e.embedding AS emb {_MEMBER}
 ORDER BY b.created_at, b.id LIMIT %(page)s
"""
_NEXT_PAGE = f"""
SELECT b.id::text AS id, b.created_at, e.embedding AS emb {_MEMBER}
   AND (b.created_at, b.id) > (%(at)s, %(id)s::uuid)
 ORDER BY b.created_at, b.id LIMIT %(page)s
"""
LOCK_CLASS = 0x63747876  # "ctxv": advisory locks of context-vector sequences


def lock_sequences(
    conn: psycopg.Connection[Any], generation: int, places: set[tuple[str, str]]
) -> None:
    """Serialise the writers of each (scope, category) sequence of ``generation`` for the rest of
    the transaction, in one order (no deadlock). A writer that waited then reads what the other
    committed, so neither leaves a blend without the other's block."""
    for scope, category in sorted(places):
        conn.execute(
            "SELECT pg_advisory_xact_lock(%s, hashtext(%s))",
            (LOCK_CLASS, f"{generation}/{scope}/{category}"),
        )


def _blend_segment(rows: list[dict[str, Any]], targets: set[int], blend: Blend) -> dict[str, Any]:
    """Context vectors of the rows at positions ``targets`` of one contiguous segment."""
    vecs = [parse_vector(r["emb"]) for r in rows]
    # run[i]: index of the run (consecutive rows within the gap) row i belongs to
    run = [0]
    for prev, cur in pairwise(rows):
        run.append(run[-1] + (cur["created_at"] - prev["created_at"] > blend.gap))
    out: dict[str, Any] = {}
    for i in targets:
        acc = vecs[i].copy()
        for j in range(max(0, i - blend.window), min(len(rows), i + blend.window + 1)):
            if j != i and run[j] == run[i]:
                acc += blend.weight * vecs[j]
        norm = float(np.linalg.norm(acc))
        out[rows[i]["id"]] = halfvec(acc / norm if norm else vecs[i])
    return out


def refresh_around(
    conn: psycopg.Connection[Any],
    blend: Blend,
    generation: int,
    anchors: list[tuple[str, str, datetime, str, bool]],
) -> int:
    """Recompute the context vectors near each anchor ``(scope, category, created_at, id,
    present)``: a block just embedded (``present``) or the place a removed block left. Returns
    the vectors written."""
    updates: dict[str, Any] = {}
    reach = 2 * blend.window
    binary_vectors(conn)
    lock_sequences(conn, generation, {(a[0], a[1]) for a in anchors})
    for scope, category, at, anchor, present in anchors:
        if blend.off:
            if present:
                conn.execute(
                    "UPDATE context_block_embeddings SET context = embedding "
                    "WHERE generation = %s AND block_id = %s",
                    (generation, anchor),
                )
            continue
        rows = conn.execute(
            _AROUND,
            {
                "gen": generation,
                "scope": scope,
                "category": category,
                "at": at,
                "anchor": anchor,
                "reach": reach,
            },
            binary=True,
        ).fetchall()
        if not rows:
            continue
        # The anchor's position, or where it was: the first row at or after it.
        pos = next(
            (i for i, r in enumerate(rows) if (r["created_at"], r["id"]) >= (at, anchor)), len(rows)
        )
        if present and (pos == len(rows) or rows[pos]["id"] != anchor):
            continue  # not embedded in this generation (yet)
        lo = pos - blend.window
        hi = pos + blend.window if present else pos + blend.window - 1
        # A block near two anchors gets the same vector from either segment: blend it once.
        targets = {
            i for i in range(max(0, lo), min(len(rows), hi + 1)) if rows[i]["id"] not in updates
        }
        if targets:
            updates.update(_blend_segment(rows, targets, blend))
    if updates:
        with conn.cursor() as cur:
            cur.executemany(
                "UPDATE context_block_embeddings SET context = %s::halfvec "
                "WHERE generation = %s AND block_id = %s::uuid",
                [(vec, generation, block_id) for block_id, vec in sorted(updates.items())],
            )
    return len(updates)


_PAGE = 1000


def refresh_sequence(
    conn: psycopg.Connection[Any], blend: Blend, generation: int, scope: str, category: str
) -> int:
    """Recompute every context vector of one (scope, category) sequence, a page at a time."""
    lock_sequences(conn, generation, {(scope, category)})
    binary_vectors(conn)
    written = 0
    rows: list[dict[str, Any]] = []  # loaded rows; the first `done` have their vector written
    done = 0
    after: tuple[datetime, str] | None = None
    while True:
        params = {"gen": generation, "scope": scope, "category": category, "page": _PAGE}
        if after:
            params.update(at=after[0], id=after[1])
        page = conn.execute(_NEXT_PAGE if after else _FIRST_PAGE, params, binary=True).fetchall()
        more = len(page) == _PAGE
        rows += page
        # A row's vector is final once its right-hand neighbours are loaded.
        end = max(done, len(rows) - blend.window) if more else len(rows)
        if end > done:
            targets = set(range(done, end))
            if blend.off:
                vectors = {rows[i]["id"]: rows[i]["emb"] for i in targets}
            else:
                vectors = _blend_segment(rows, targets, blend)
            with conn.cursor() as cur:
                cur.executemany(
                    "UPDATE context_block_embeddings SET context = %s::halfvec "
                    "WHERE generation = %s AND block_id = %s::uuid",
                    [(vec, generation, block_id) for block_id, vec in vectors.items()],
                )
            written += len(vectors)
        if not more:
            return written
        after = (page[-1]["created_at"], page[-1]["id"])
        keep = max(0, end - blend.window)  # left-hand neighbours of the next row to compute
        rows, done = rows[keep:], end - keep


def refresh_blocks(
    app: App, conn: psycopg.Connection[Any], generation: int, block_ids: list[str]
) -> int:
    """After the embed job wrote ``block_ids`` into ``generation``: their context vectors and
    their neighbours'."""
    rows = conn.execute(
        "SELECT id::text AS id, scope, category, created_at FROM context_blocks "
        "WHERE id = ANY(%s::uuid[]) AND NOT is_archived",
        (block_ids,),
    ).fetchall()
    anchors = [(r["scope"], r["category"], r["created_at"], r["id"], True) for r in rows]
    return refresh_around(conn, blend_of(app), generation, anchors)


def queue_reblend(app: App, scope: str | None = None) -> int:
    """Queue a whole-sequence recount for every (scope, category) (of ``scope``): after a change
    of ``embed.context_*``, existing vectors take the new blend. Returns the jobs queued."""
    with app.connection() as conn:
        rows = conn.execute(
            "SELECT DISTINCT scope, category FROM context_blocks "
            "WHERE %(scope)s::text IS NULL OR scope = %(scope)s ORDER BY 1, 2",
            {"scope": scope},
        ).fetchall()
        for r in rows:
            enqueue(
                conn,
                KIND,
                {"scope": r["scope"], "category": r["category"]},
                dedupe_key=f"context:{r['scope']}:{r['category']}",
            )
    return len(rows)


def handle_context_jobs(app: App, jobs: list[Job]) -> None:
    blend = blend_of(app)
    with app.connection() as conn:
        gens = [
            int(r["id"])
            for r in conn.execute(
                "SELECT id FROM context_embedding_generations WHERE status IN ('active', 'building')"
            ).fetchall()
        ]
        for job in jobs:
            p = job.payload
            if "at" not in p:  # a whole sequence (the migration that introduced the vectors)
                for gen in gens:
                    refresh_sequence(conn, blend, gen, str(p["scope"]), str(p["category"]))
                continue
            at = datetime.fromisoformat(str(p["at"]))
            for gen in gens:
                # The block itself when it is (back) in this place, else the gap it left.
                present = (
                    conn.execute(
                        "SELECT 1 FROM context_blocks b JOIN context_block_embeddings e "
                        "ON e.block_id = b.id AND e.generation = %s "
                        "WHERE b.id = %s::uuid AND NOT b.is_archived AND b.scope = %s "
                        "AND b.category = %s",
                        (gen, p["id"], p["scope"], p["category"]),
                    ).fetchone()
                    is not None
                )
                refresh_around(
                    conn, blend, gen, [(p["scope"], p["category"], at, p["id"], present)]
                )


# One job per transaction: a whole-sequence job (after the migration) may be long.
CONTEXT_JOBS = JobHandler(
    KIND, handle_context_jobs, batch_size=1, description="recompute context vectors"
)
