"""Graph and digest endpoints: a block's neighbourhood, the topic map, the daily digest.

Titles only, never content, and only of blocks in the key's read scopes; the digest is written
to the key's home scope.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel

from ctx.core import graph
from ctx.core.validation import IsoDate, Strict
from ctx.ui.api.deps import AppDep, PrincipalDep
from ctx.ui.api.errors import BY_ID_RESPONSES, ERROR_RESPONSES

router = APIRouter(prefix="/api", tags=["graph"], responses=ERROR_RESPONSES)


class EgoNode(BaseModel):
    id: str
    title: str
    category: str
    block_type: str
    depth: int


class EgoEdge(BaseModel):
    source: str
    target: str
    type: str
    confidence: float
    status: str


class EgoResponse(BaseModel):
    focus: str
    depth: int
    nodes: list[EgoNode]
    edges: list[EgoEdge]
    truncated: bool


class ClusterTitle(BaseModel):
    id: str
    title: str
    degree: float


class Cluster(BaseModel):
    id: int
    scope: str
    size: int
    links: int
    titles: list[ClusterTitle]


class ClusterEdge(BaseModel):
    source: int
    target: int
    links: int
    weight: float


class OverviewTotals(BaseModel):
    clusters: int
    shown: int
    blocks: int
    links: int
    edges: int


class OverviewResponse(BaseModel):
    clusters: list[Cluster]
    edges: list[ClusterEdge]
    totals: OverviewTotals
    refreshed_at: datetime | None


class TopicCluster(BaseModel):
    id: int
    scope: str
    size: int
    titles: list[str]


class CategoryCount(BaseModel):
    category: str
    blocks: int


class TopicMap(BaseModel):
    clusters: list[TopicCluster]
    categories: list[CategoryCount]
    blocks: int
    refreshed_at: datetime | None


class DailyRequest(Strict):
    date: IsoDate | None = None


class Citation(BaseModel):
    n: int
    id: str
    title: str


class DailyDigest(BaseModel):
    """A stored digest, or ``skipped`` (with why) when none was written."""

    day: str
    skipped: str | None = None
    id: str | None = None
    action: str | None = None
    title: str | None = None
    content: str | None = None
    citations: list[Citation] | None = None
    removed_citations: list[int] | None = None
    sources_written: int | None = None
    sources_sent: int | None = None
    withheld: int | None = None
    backend: str | None = None
    model: str | None = None


@router.get("/graph/ego", name="graph-ego", response_model=EgoResponse, responses=BY_ID_RESPONSES)
def graph_ego(
    app: AppDep,
    who: PrincipalDep,
    id: Annotated[str, Query(min_length=1, max_length=36, description="Block id or prefix.")],
    depth: Annotated[int, Query(ge=1, le=3, description="Hops from the block.")] = 1,
    limit: Annotated[int, Query(ge=1, le=1000, description="Most nodes, nearest kept.")] = 200,
) -> dict[str, Any]:
    """The block's neighbourhood along live links: nodes (titles only) and edges, both ends of
    each in the key's read scopes."""
    return graph.ego(app, who, id, depth=depth, limit=limit)


@router.get("/graph/overview", name="graph-overview", response_model=OverviewResponse)
def graph_overview(
    app: AppDep,
    who: PrincipalDep,
    max_clusters: Annotated[int, Query(ge=1, le=500, description="Most clusters.")] = 50,
    titles: Annotated[int, Query(ge=0, le=20, description="Titles per cluster.")] = 5,
) -> dict[str, Any]:
    """The topic map: clusters of linked blocks in the key's read scopes (ids numbered per
    answer, largest first), their top titles and the links between clusters."""
    return graph.overview(app, who, max_clusters=max_clusters, titles_per_cluster=titles)


@router.get("/digest", name="digest", response_model=TopicMap)
def digest(app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """The topic map's clusters with titles and sizes, and block counts per category."""
    return graph.topic_map(app, who)


@router.post(
    "/synthesize/daily",
    name="synthesize-daily",
    response_model=DailyDigest,
    response_model_exclude_none=True,
)
def synthesize_daily(
    app: AppDep, who: PrincipalDep, body: DailyRequest | None = None
) -> dict[str, Any]:
    """Summarise the blocks written on ``date`` (default today, UTC) in the key's home scope
    through the digest role, and store it as the block ``Digest YYYY-MM-DD`` (a re-run updates
    it). ``skipped`` says why nothing was written."""
    return graph.daily_synthesis(app, who, body.date if body else None)
