"""Request shapes of the sync surfaces (REST, CLI, MCP)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

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


class ResolveRequest(Strict):
    take: Literal["local", "remote"] = Field(description="Which side's version wins.")
