"""The graph operations as every surface answers them (``ctx.core.graph.operations``): a block's
neighbourhood, the topic map, the daily digest, and Dream's figures, links, cycle and pace.

Each is called ``service(app, who, input)``. Titles only, never content, and only of blocks in
the key's read scopes; the digest is written to the key's home scope.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from ctx.core.errors import ValidationError
from ctx.core.graph.digest import daily_synthesis, topic_map
from ctx.core.graph.dream_counts import dream_stats
from ctx.core.graph.dream_cycle import run_cycle
from ctx.core.graph.ego_graph import ego
from ctx.core.graph.links import list_links, review_link
from ctx.core.graph.map_overview import overview
from ctx.core.graph.schemas import (
    DailyRequest,
    DreamRunRequest,
    EgoRequest,
    LinkReviewInput,
    LinksRequest,
    OverviewRequest,
    ThrottleRequest,
)
from ctx.core.runtime import set_setting

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App


def neighbourhood(app: App, who: Principal, request: EgoRequest) -> dict[str, Any]:
    return ego(app, who, request.id, depth=request.depth, limit=request.limit)


def clusters(app: App, who: Principal, request: OverviewRequest) -> dict[str, Any]:
    return overview(app, who, max_clusters=request.max_clusters, titles_per_cluster=request.titles)


def topics(app: App, who: Principal, _request: None) -> dict[str, Any]:
    return topic_map(app, who)


def write_daily_digest(app: App, who: Principal, request: DailyRequest) -> dict[str, Any]:
    """The digest of ``request.date`` (default today, UTC), its fields that have a value: a
    skipped day answers ``{"day", "skipped"}`` and nothing more."""
    result = daily_synthesis(app, who, request.date)
    return {key: value for key, value in result.items() if value is not None}


def dream_figures(app: App, who: Principal, _request: None) -> dict[str, Any]:
    return dream_stats(app, who)


def _block_id(value: str | None, field: str) -> None:
    if value is None:
        return
    try:
        uuid.UUID(value)
    except ValueError:
        raise ValidationError(f"{field} must be a block id", field=field) from None


def links(app: App, who: Principal, request: LinksRequest) -> dict[str, Any]:
    _block_id(request.block, "block")
    found = list_links(app, who, status=request.status, link_type=request.type,
                       block_id=request.block, limit=request.limit)  # fmt: skip
    return {"links": found, "count": len(found)}


def review(app: App, who: Principal, request: LinkReviewInput) -> dict[str, Any]:
    return review_link(app, who, request.link_id, request.action)


def dream_now(app: App, who: Principal, request: DreamRunRequest) -> dict[str, Any]:
    """One cycle on the given block (when due) or the next due block of a scope the key reads;
    ``nothing due`` when there is none."""
    _block_id(request.block_id, "block_id")
    result = run_cycle(app, block_id=request.block_id, scopes=list(who.read_scopes))
    return result.as_dict() if result else {"outcome": "nothing due", "block_id": request.block_id}


def set_throttle(app: App, who: Principal, request: ThrottleRequest) -> dict[str, Any]:
    set_setting(app, "dream.throttle", request.mode)
    return {"throttle": request.mode}
