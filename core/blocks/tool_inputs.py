"""The arguments of the block tools (MCP): flat objects whose field descriptions tell an agent
what to send. Each field obeys the same rule as the REST request it maps to (shared field types)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

from ctx.core.blocks.schemas import (
    MAX_TAGS,
    BlockRef,
    BlockTypeName,
    Category,
    Content,
    QueryText,
    Sensitivity,
    StoredTime,
    Tags,
    Title,
)
from ctx.core.validation import IsoDate, Strict

_SCOPES = "Only these of your readable scopes (default: all of them)."
_CATEGORY = "Only blocks of this category."
_TAGS = "Only blocks carrying all of these tags."
OneScope = Annotated[
    str | None, Field(max_length=50, description="One of your readable scopes (default all).")
]


class StoreInput(Strict):
    title: Title = Field(
        description="A specific, searchable one-line title; storing the same category and title "
        "again updates that block instead of adding a new one."
    )
    content: Content = Field(
        description="The knowledge itself, self-contained: someone reading only this block "
        "must understand it. Markdown is fine."
    )
    category: Category = Field(
        default="general",
        description="A short lowercase area such as 'decision', 'howto', 'project-x', "
        "'agent-briefing'; reuse existing categories (see the stats tool).",
    )
    tags: Tags = Field(default_factory=list, max_length=MAX_TAGS, description="Keywords.")
    block_type: BlockTypeName = Field(
        default="knowledge", description="The block type (default 'knowledge')."
    )
    sensitivity: Sensitivity | None = Field(
        default=None,
        description="Who may see it: public, internal, personal or credentials (default: the "
        "type's default). Models behind less trusted backends never receive higher levels.",
    )
    occurred_at: StoredTime | None = Field(
        default=None, description="When the described event happened, ISO 8601."
    )
    # "metadata" on the wire, as in the REST API.
    meta: dict[str, Any] = Field(
        default_factory=dict, alias="metadata", description="Free-form JSON metadata."
    )


class SearchInput(Strict):
    query: QueryText = Field(
        description='Words to find (full text, English and German stemming; "quoted phrase", '
        "OR and -word work). Cheaper than query: no model runs."
    )
    limit: int | None = Field(default=None, ge=1, le=50, description="At most (default 10).")
    category: str | None = Field(default=None, max_length=100, description=_CATEGORY)
    tags: Tags = Field(default_factory=list, max_length=MAX_TAGS, description=_TAGS)
    scopes: list[str] | None = Field(default=None, max_length=50, description=_SCOPES)


class GetInput(Strict):
    id: BlockRef = Field(description="A block id, or a unique prefix of at least 4 characters.")
    version: int | None = Field(
        default=None,
        ge=1,
        le=2_147_483_647,
        description="That version of the block (see the versions tool); default the current one.",
    )
    at: StoredTime | None = Field(
        default=None,
        description="The version that was current at this time, ISO 8601 (not with version).",
    )


class RecentInput(Strict):
    limit: int = Field(default=10, ge=1, le=50, description="How many blocks (default 10).")
    category: str | None = Field(default=None, max_length=100, description=_CATEGORY)
    scope: OneScope = None


class DeleteInput(Strict):
    id: BlockRef = Field(
        description="The block to delete (id or unique prefix); only blocks of your home scope."
    )


class TimelineInput(Strict):
    when: str | None = Field(
        default=None,
        min_length=1,
        max_length=200,
        description="A time expression: 'last week', 'yesterday', 'March 2026', 'letzten "
        "Montag', '2026-03-24'. Give this or start (and end).",
    )
    start: IsoDate | None = Field(default=None, description="First day, YYYY-MM-DD.")
    end: IsoDate | None = Field(default=None, description="Last day, YYYY-MM-DD (default start).")
    limit: int = Field(default=20, ge=1, le=100, description="At most (default 20).")
    category: str | None = Field(default=None, max_length=100, description=_CATEGORY)
    scopes: list[str] | None = Field(default=None, max_length=50, description=_SCOPES)


class StatsInput(Strict):
    scope: OneScope = None
