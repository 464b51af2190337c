"""Typed metadata of issue and comment blocks, validated on every write of those types."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import pydantic
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from ctx.core import ValidationError

State = Literal["open", "closed"]
StateReason = Literal["completed", "not_planned", "duplicate", "reopened"]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]


class IssueMeta(BaseModel):
    """What ``metadata`` of an ``issue`` block holds; the forge fields are set by the sync."""

    model_config = ConfigDict(extra="forbid", strict=True)

    number: int = Field(ge=1)
    state: State = "open"
    state_reason: StateReason | None = None
    labels: list[Name] = Field(default_factory=list, max_length=50)
    assignees: list[Name] = Field(default_factory=list, max_length=20)
    milestone: Name | None = None
    author: Name | None = None
    forge: Name | None = None
    forge_repo: Name | None = None
    forge_id: int | None = None
    forge_number: int | None = Field(default=None, ge=1)
    url: str | None = Field(default=None, max_length=2000)


class CommentMeta(BaseModel):
    """What ``metadata`` of an ``issue-comment`` block holds."""

    model_config = ConfigDict(extra="forbid", strict=True)

    issue_id: str = Field(min_length=36, max_length=36)
    number: int = Field(ge=1)
    author: Name | None = None
    forge_id: int | None = None


def _checked(model: type[BaseModel], meta: dict[str, Any], what: str) -> dict[str, Any]:
    try:
        parsed = model.model_validate(meta)
    except pydantic.ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(["metadata", *(str(p) for p in first.get("loc", ()))])
        raise ValidationError(f"{what} {where}: {first['msg']}", field=where) from None
    return parsed.model_dump(exclude_none=True)


def check_issue_meta(meta: dict[str, Any]) -> dict[str, Any]:
    """The metadata, normalised; a ``ValidationError`` naming the field when it breaks a rule."""
    return _checked(IssueMeta, meta, "issue")


def check_comment_meta(meta: dict[str, Any]) -> dict[str, Any]:
    return _checked(CommentMeta, meta, "issue comment")
