"""Request shapes of the sync surfaces (REST, CLI, MCP)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, StringConstraints

from ctx.core import Strict

SecretName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]


class LinkCreate(Strict):
    scope: str = Field(min_length=1, max_length=200, description="The repository scope to sync.")
    forge: str = Field(default="github", max_length=50, description="Which forge (github).")
    repo: str = Field(
        min_length=1, max_length=200, description="The remote repository: owner/name."
    )
    base_url: str | None = Field(
        default=None,
        max_length=500,
        pattern=r"^https?://[^\s]+$",
        description="The forge's API base (GitHub Enterprise: https://host/api/v3).",
    )
    token_secret: SecretName = Field(description="The vault secret holding the token.")
    webhook_secret: SecretName | None = Field(
        default=None, description="The vault secret webhook deliveries are signed with."
    )
    interval_s: int | None = Field(
        default=None,
        ge=10,
        le=86400,
        description="Seconds between pulls (default: the issues.sync_interval_s setting).",
    )


class SyncRequest(Strict):
    scope: str | None = Field(default=None, description="The linked scope (default: home scope).")


class ConflictResolution(Strict):
    """How a sync conflict is resolved: which side's version wins."""

    take: Literal["local", "remote"] = Field(description="Which side's version wins.")


class ResolveConflict(ConflictResolution):
    """``POST /api/issues/sync/conflicts/{conflict_id}/resolve``: the conflict, and the side."""

    conflict_id: int


class ConflictFilter(Strict):
    """``GET /api/issues/sync/conflicts``: read from the query string, where every value is text
    (``resolved=true``) and other parameters are ignored."""

    model_config = ConfigDict(strict=False, extra="ignore")

    scope: str | None = None
    resolved: bool = Field(default=False, description="Include resolved ones.")


class LinkRef(Strict):
    """``DELETE /api/issues/sync/links/{link_id}``."""

    link_id: int


# The tools' arguments (no docstrings: an agent would read them in every tool listing).


class ResolveInput(ConflictResolution):
    conflict_id: int = Field(ge=1, description="The conflict's id (from issue_conflicts).")


class ConflictsInput(Strict):
    scope: str | None = Field(default=None, description="One readable scope (default: all).")
