"""Dream endpoints: its figures, the links to review (confirm, delete), and for admins one cycle
on demand and the throttle."""

from __future__ import annotations

import uuid
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from pydantic import Field

from ctx.core import graph
from ctx.core.errors import ValidationError
from ctx.core.runtime import set_setting
from ctx.core.validation import Strict
from ctx.ui.api.deps import AdminDep, AppDep, PrincipalDep
from ctx.ui.api.errors import BY_ID_RESPONSES, ERROR_RESPONSES

router = APIRouter(prefix="/api/dream", tags=["dream"], responses=ERROR_RESPONSES)


class LinkReview(Strict):
    action: Literal["confirm", "delete"]


class RunRequest(Strict):
    block_id: str | None = Field(
        default=None,
        min_length=36,
        max_length=36,
        description="Dream this block (if due); default: the next due.",
    )


class ThrottleRequest(Strict):
    mode: Literal["on", "throttled", "off"]


@router.get("/stats", name="dream_stats")
def dream_stats(app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Links by type and status in the key's scopes; for admins the queue and the pace."""
    return graph.dream_stats(app, who)


@router.get("/links", name="dream_links")
def dream_links(
    app: AppDep,
    who: PrincipalDep,
    status: Annotated[Literal["active", "confirmed", "rejected"] | None, Query()] = None,
    type: Annotated[
        Literal["supersedes", "causal", "factual", "topical", "recurrent"] | None, Query()
    ] = None,
    block: Annotated[str | None, Query(min_length=36, max_length=36)] = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> dict[str, Any]:
    """Links whose both ends the key can read, newest first (titles only)."""
    if block is not None:
        try:
            uuid.UUID(block)
        except ValueError:
            raise ValidationError("block must be a block id", field="block") from None
    links = graph.list_links(app, who, status=status, link_type=type, block_id=block, limit=limit)
    return {"links": links, "count": len(links)}


@router.post("/links/{link_id}", name="dream_review_link", responses=BY_ID_RESPONSES)
def dream_review_link(
    link_id: int, req: LinkReview, app: AppDep, who: PrincipalDep
) -> dict[str, Any]:
    """Confirm a link, or delete it (kept as rejected, so Dream does not make it again)."""
    return graph.review_link(app, who, link_id, req.action)


@router.post("/run", name="dream_run")
def dream_run(req: RunRequest, app: AppDep, who: AdminDep) -> dict[str, Any]:
    """Run one cycle now on the next due block of a scope the key reads (or the given block,
    when it is due) and return what it did (``nothing due`` when no block is)."""
    if req.block_id is not None:
        try:
            uuid.UUID(req.block_id)
        except ValueError:
            raise ValidationError("block_id must be a block id", field="block_id") from None
    result = graph.run_cycle(app, block_id=req.block_id, scopes=list(who.read_scopes))
    return result.as_dict() if result else {"outcome": "nothing due", "block_id": req.block_id}


@router.post("/throttle", name="dream_throttle")
def dream_throttle(req: ThrottleRequest, app: AppDep, who: AdminDep) -> dict[str, Any]:
    """Set Dream's pace: on, throttled (a pause after each model call) or off."""
    set_setting(app, "dream.throttle", req.mode)
    return {"throttle": req.mode}
