"""The query request: what a caller of the query path may ask for."""

from __future__ import annotations

import uuid
from datetime import date

from pydantic import Field, field_validator

from ctx.core.blocks import required_text
from ctx.core.validation import Strict


class QueryRequest(Strict):
    query: str = Field(min_length=1, max_length=2000)
    limit: int | None = Field(default=None, ge=1, le=20)
    category: str | None = None
    tags: list[str] = Field(default_factory=list)
    exclude_ids: list[str] = Field(default_factory=list, max_length=500)
    exclude_types: list[str] = Field(default_factory=list)
    scopes: list[str] | None = None
    explain: bool = False
    now: date | None = Field(
        default=None, description="Reference day for relative times (default: today)."
    )

    @field_validator("query")
    @classmethod
    def _query(cls, v: str) -> str:
        return required_text(v, "query")

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
