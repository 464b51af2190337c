"""Guard endpoints: the flags a key may review, their resolution, the Guard's figures, and (for
admins) cross-scope matches and the thresholds per type and generation."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from pydantic import Field

from ctx.core import guard
from ctx.core.embed import active_generation
from ctx.core.errors import NotFound, ValidationError
from ctx.core.validation import Strict
from ctx.ui.api.deps import AdminDep, AppDep, PrincipalDep
from ctx.ui.api.errors import BY_ID_RESPONSES, ERROR_RESPONSES

router = APIRouter(prefix="/api/guard", tags=["guard"], responses=ERROR_RESPONSES)


class ResolveRequest(Strict):
    id: str = Field(min_length=4, max_length=36, description="The flagged block (id or prefix).")
    resolution: Literal["keep_both", "archive", "merge"]
    which: Literal["block", "match"] = Field(
        default="block",
        description="archive: the one archived; merge: the one that stays.",
    )


class ThresholdsRequest(Strict):
    duplicate: float | None = Field(default=None, ge=0, le=1)
    review: float | None = Field(default=None, ge=0, le=1)
    block_type: str | None = Field(default=None, max_length=50, description="None: every type.")
    generation: int | None = Field(default=None, description="Default: the active one.")


@router.get("", name="guard_list")
def guard_list(
    app: AppDep,
    who: PrincipalDep,
    decision: Annotated[Literal["near_duplicate", "needs_review", "clean"] | None, Query()] = None,
    all: Annotated[bool, Query(description="Resolved flags too.")] = False,
    cross_scope: Annotated[bool, Query(description="Admins: matches across scopes.")] = False,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> dict[str, Any]:
    """Open Guard flags in the key's scopes (both blocks readable), newest first."""
    flags = guard.list_flags(app, who, decision=decision, include_resolved=all,
                             cross_scope=cross_scope, limit=limit)  # fmt: skip
    return {"flags": flags, "count": len(flags)}


@router.get("/stats", name="guard_stats")
def guard_stats(app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Blocks by Guard status, open flags, the last day's decisions."""
    return guard.guard_stats(app, who)


@router.post("/resolve", name="guard_resolve", responses=BY_ID_RESPONSES)
def guard_resolve(req: ResolveRequest, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Keep both, archive one, or merge one into the other (with provenance)."""
    return guard.resolve_flag(app, who, req.id, req.resolution, req.which)


@router.get("/thresholds", name="guard_thresholds")
def guard_thresholds(app: AppDep, who: AdminDep) -> dict[str, Any]:
    """The thresholds rows, and what each type uses in the active generation."""
    with app.connection() as conn:
        rows = guard.list_thresholds(conn)
        gen = active_generation(conn)
        used = (
            {
                name: guard.thresholds_for(app, conn, spec, gen).as_dict()
                for name, spec in sorted(app.block_types.items())
                if spec.guard_dedup
            }
            if gen
            else {}
        )
    return {"rows": rows, "active_generation": gen["id"] if gen else None, "in_use": used}


@router.post("/thresholds", name="guard_set_thresholds", responses=BY_ID_RESPONSES)
def guard_set_thresholds(req: ThresholdsRequest, app: AppDep, who: AdminDep) -> dict[str, Any]:
    """Set a type's (or every type's) thresholds in a generation; both null: remove the row."""
    with app.connection() as conn:
        generation = req.generation
        if generation is None:
            gen = active_generation(conn)
            if gen is None:
                raise NotFound("no active embedding generation", field="generation")
            generation = int(gen["id"])
        if req.duplicate is None and req.review is None:
            removed = guard.unset_thresholds(conn, generation, req.block_type)
            return {"removed": removed, "generation": generation, "block_type": req.block_type}
        if req.duplicate is None or req.review is None:
            raise ValidationError("give both duplicate and review (or neither to remove)")
        return guard.set_thresholds(conn, generation, req.duplicate, req.review, req.block_type)
