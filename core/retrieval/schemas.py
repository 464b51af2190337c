"""The query request (what a caller of the query path may ask for), its answer, and the query
tool's arguments."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ctx.core.access import ScopeName
from ctx.core.blocks import MAX_TAGS, BlockId, QueryText, Tags
from ctx.core.validation import IsoDate, Strict


class QueryRequest(Strict):
    query: QueryText
    limit: int | None = Field(default=None, ge=1, le=20)
    category: str | None = None
    tags: Tags = Field(default_factory=list)
    exclude_ids: list[BlockId] = Field(default_factory=list, max_length=500)
    exclude_types: list[str] = Field(default_factory=list)
    scopes: list[ScopeName] | None = None
    private_category: str | None = Field(
        default=None,
        max_length=100,
        description="Also find the private records (a governed thread's events) of this "
        "category; without it they are found only when `category` names theirs.",
    )
    explain: bool = False
    rerank: bool | None = Field(
        default=None, description="Rerank the top candidates (default: the query.rerank setting)."
    )
    now: IsoDate | None = Field(
        default=None, description="Reference day for relative times (default: today)."
    )
    synthesize: bool | Literal["auto"] = Field(
        default=False,
        description="Answer from the sources with a synthesis backend (true), or only when one "
        "exists (auto); false returns sources only.",
    )

    @field_validator("exclude_ids")
    @classmethod
    def _ids(cls, v: list[str]) -> list[str]:
        out = []
        for item in v:
            try:
                out.append(str(uuid.UUID(item)))
            except ValueError:
                raise ValueError(f"exclude_ids: {item!r} is not a block id") from None
        return out


class Source(BaseModel):
    model_config = ConfigDict(extra="allow")  # stages may add fields to a source

    id: str
    title: str
    category: str
    scope: str
    block_type: str
    tags: list[str]
    occurred_at: datetime | None
    updated_at: datetime
    snippet: str | None
    score: float
    channels: dict[str, Any] | None = Field(
        default=None, description="With explain: each channel's rank and raw score, then factors."
    )
    superseded_by: list[str] | None = Field(
        default=None, description="Newer blocks that supersede this one (Dream's links)."
    )
    version: int | None = Field(
        default=None,
        description="For a query naming a past time, when the block changed since: the number "
        "of the version shown (what the block said then; see GET /api/blocks/{id}/versions).",
    )
    valid_from: datetime | None = Field(
        default=None, description="With version: when that version became current."
    )
    valid_to: datetime | None = Field(
        default=None, description="With version: when a write replaced it."
    )


class Citation(BaseModel):
    n: int
    id: str
    title: str


class StageTrace(BaseModel):
    name: str
    ms: float
    in_: int = Field(alias="in")
    out: int
    notes: dict[str, Any] | None = None


class QueryResponse(BaseModel):
    """The answer of the query path. Stages may add fields (an answer, citations)."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    query: str
    confidence: Literal["confident", "low_confidence", "no_relevant_blocks_found"]
    sources: list[Source]
    language: dict[str, Any]
    temporal: dict[str, Any]
    warnings: list[str]
    candidates: int
    took_ms: float
    stages: list[StageTrace] | None = Field(default=None, description="With explain only.")
    answer: str | None = Field(
        default=None, description="With synthesize: the answer, citing sources as [n]."
    )
    citations: list[Citation] | None = Field(
        default=None, description="With synthesize: each cited number and its block."
    )
    synthesis: dict[str, Any] | None = Field(
        default=None,
        description="With synthesize: backend, model, latency, sources sent and withheld; or why "
        "there is no answer (skipped, failed).",
    )


_SCOPES = "Only these of your readable scopes (default: all of them)."
_CATEGORY = "Only blocks of this category."
_TAGS = "Only blocks carrying all of these tags."


class QueryInput(Strict):
    query: QueryText = Field(
        description="A question or topic in natural language (English or German); time words "
        "such as 'last week' or 'im März' narrow and weight results by date."
    )
    limit: int | None = Field(
        default=None, ge=1, le=20, description="How many sources at most (default 5)."
    )
    category: str | None = Field(default=None, max_length=100, description=_CATEGORY)
    tags: Tags = Field(default_factory=list, max_length=MAX_TAGS, description=_TAGS)
    scopes: list[str] | None = Field(default=None, max_length=50, description=_SCOPES)
    answer: bool = Field(
        default=True,
        description="Also answer the question from the sources, citing them as [n], when the "
        "server has a synthesis model (false: sources only, faster).",
    )
