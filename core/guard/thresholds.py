"""Guard thresholds: per block type and per embedding generation.

Similarity scales differ by model: the seed's 0.98 / 0.92 were measured on a 1024-d model, while
with multilingual-e5-small unrelated notes already score about 0.8. So the thresholds a check uses
come, first found wins, from

1. a row of ``context_guard_thresholds`` for the block's type and the generation,
2. a row for the generation and every type (``block_type`` NULL),
3. the embedder's calibrated ``guard_thresholds`` (duplicate, review), measured on our labelled
   pair set (``bench/guard_pairs.py``),
4. the type's own ``guard_duplicate`` / ``guard_review`` columns (the seed's values; meant for
   embedders nobody calibrated).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ctx.core.embed import active_generation
from ctx.core.errors import NotFound, ValidationError
from ctx.core.validation import as_real

if TYPE_CHECKING:
    import psycopg

    from ctx.core.app import App
    from ctx.core.blocks import BlockTypeSpec


@dataclass(frozen=True)
class Thresholds:
    duplicate: float
    review: float
    source: str  # type+generation | generation | embedder | type

    def as_dict(self) -> dict[str, Any]:
        return {"duplicate": self.duplicate, "review": self.review, "source": self.source}


def thresholds_for(
    app: App, conn: psycopg.Connection[Any], spec: BlockTypeSpec, generation: dict[str, Any]
) -> Thresholds:
    """The thresholds a check of a block of type ``spec`` uses in ``generation``."""
    rows = conn.execute(
        "SELECT block_type, duplicate, review FROM context_guard_thresholds "
        "WHERE generation = %s AND (block_type = %s OR block_type IS NULL) "
        "ORDER BY block_type NULLS LAST LIMIT 1",
        (generation["id"], spec.name),
    ).fetchall()
    if rows:
        r = rows[0]
        where = "type+generation" if r["block_type"] else "generation"
        return Thresholds(float(r["duplicate"]), float(r["review"]), where)
    calibrated = getattr(app.embedders.for_generation(generation), "guard_thresholds", None)
    if calibrated:
        return Thresholds(float(calibrated[0]), float(calibrated[1]), "embedder")
    return Thresholds(float(spec.guard_duplicate), float(spec.guard_review), "type")


def _check(duplicate: float, review: float) -> None:
    for name, value in (("duplicate", duplicate), ("review", review)):
        if not 0.0 <= value <= 1.0:
            raise ValidationError(f"{name} must be between 0 and 1, not {value}", field=name)
    if review > duplicate:
        raise ValidationError(
            f"review ({review}) must not be above duplicate ({duplicate})", field="review"
        )


def set_thresholds(
    conn: psycopg.Connection[Any],
    generation: int,
    duplicate: float,
    review: float,
    block_type: str | None = None,
) -> dict[str, Any]:
    """Set (or replace) the thresholds of ``block_type`` (None: every type) in ``generation``."""
    _check(duplicate, review)
    duplicate, review = as_real(duplicate), as_real(review)  # the columns' precision
    if not conn.execute(
        "SELECT 1 FROM context_embedding_generations WHERE id = %s", (generation,)
    ).fetchone():
        raise NotFound(f"no embedding generation {generation}", field="generation")
    if (
        block_type is not None
        and not conn.execute(
            "SELECT 1 FROM context_block_types WHERE name = %s", (block_type,)
        ).fetchone()
    ):
        raise NotFound(f"no block type {block_type!r}", field="block_type")
    conn.execute(
        "INSERT INTO context_guard_thresholds (block_type, generation, duplicate, review) "
        "VALUES (%s, %s, %s, %s) ON CONFLICT (coalesce(block_type, ''), generation) "
        "DO UPDATE SET duplicate = EXCLUDED.duplicate, review = EXCLUDED.review, "
        "updated_at = now()",
        (block_type, generation, duplicate, review),
    )
    return {"block_type": block_type, "generation": generation, "duplicate": duplicate,
            "review": review}  # fmt: skip


def unset_thresholds(
    conn: psycopg.Connection[Any], generation: int, block_type: str | None = None
) -> bool:
    """Drop a thresholds row; True when one existed."""
    cur = conn.execute(
        "DELETE FROM context_guard_thresholds WHERE generation = %s "
        "AND coalesce(block_type, '') = coalesce(%s, '')",
        (generation, block_type),
    )
    return cur.rowcount > 0


def list_thresholds(conn: psycopg.Connection[Any]) -> list[dict[str, Any]]:
    rows = conn.execute(
        "SELECT block_type, generation, duplicate, review, updated_at "
        "FROM context_guard_thresholds ORDER BY generation, block_type NULLS FIRST"
    ).fetchall()
    return [dict(r) for r in rows]


def thresholds_in_use(app: App) -> dict[str, Any]:
    """The thresholds rows, the active generation, and what each dedup type uses in it."""
    with app.connection() as conn:
        rows = list_thresholds(conn)
        gen = active_generation(conn)
        used = (
            {
                name: thresholds_for(app, conn, spec, gen).as_dict()
                for name, spec in sorted(app.block_types.items())
                if spec.guard_dedup
            }
            if gen
            else {}
        )
    return {"rows": rows, "active_generation": gen["id"] if gen else None, "in_use": used}


def change_thresholds(
    app: App,
    *,
    duplicate: float | None,
    review: float | None,
    block_type: str | None = None,
    generation: int | None = None,
) -> dict[str, Any]:
    """Set a type's (or every type's) thresholds in ``generation`` (default: the active one);
    both None removes the row (``{"removed", "generation", "block_type"}``)."""
    with app.connection() as conn:
        if generation is None:
            gen = active_generation(conn)
            if gen is None:
                raise NotFound("no active embedding generation", field="generation")
            generation = int(gen["id"])
        if duplicate is None and review is None:
            removed = unset_thresholds(conn, generation, block_type)
            return {"removed": removed, "generation": generation, "block_type": block_type}
        if duplicate is None or review is None:
            raise ValidationError("give both duplicate and review (or neither to remove)")
        return set_thresholds(conn, generation, duplicate, review, block_type)
