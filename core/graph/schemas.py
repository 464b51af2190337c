"""The graph's request and answer models: a block's neighbourhood, the topic map, the daily
digest, and Dream's links to review, its cycle on demand and its pace. Only models: the
declarations (``ctx.core.graph.operations``) and thin clients import them without the services."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from ctx.core.blocks import BlockId, BlockRef
from ctx.core.validation import IsoDate, Strict

LinkStatus = Literal["active", "confirmed", "rejected"]
LinkType = Literal["supersedes", "causal", "factual", "topical", "recurrent", "translation"]

# -- the neighbourhood of a block ---------------------------------------------------------------


class EgoRequest(Strict):
    id: BlockRef = Field(max_length=36, description="Block id or prefix.")
    depth: int = Field(default=1, ge=1, le=3, description="Hops from the block.")
    limit: int = Field(default=200, ge=1, le=1000, description="Most nodes, nearest kept.")


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


# -- the topic map ------------------------------------------------------------------------------


class OverviewRequest(Strict):
    max_clusters: int = Field(default=50, ge=1, le=500, description="Most clusters.")
    titles: int = Field(default=5, ge=0, le=20, description="Titles per cluster.")


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


class TopicCategory(BaseModel):
    """How many blocks of the key's read scopes a category holds."""

    category: str
    blocks: int


class TopicMap(BaseModel):
    clusters: list[TopicCluster]
    categories: list[TopicCategory]
    blocks: int
    refreshed_at: datetime | None


# -- the daily digest ---------------------------------------------------------------------------


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


# -- Dream ----------------------------------------------------------------------------------------


class LinksRequest(Strict):
    status: LinkStatus | None = None
    type: LinkType | None = None
    block: BlockId | None = None
    limit: int = Field(default=50, ge=1, le=200)


class LinkReview(Strict):
    action: Literal["confirm", "delete"]


class LinkReviewInput(LinkReview):
    """A review and the link it is about (the path's ``link_id``)."""

    link_id: int


class DreamRunRequest(Strict):
    block_id: BlockId | None = Field(
        default=None, description="Dream this block (if due); default: the next due."
    )


class ThrottleRequest(Strict):
    mode: Literal["on", "throttled", "off"]
