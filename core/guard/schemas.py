"""The Guard's request models: which flags to list, how a flag is resolved, thresholds to set.
Only models: the declarations (``ctx.core.guard.operations``) import them without the services."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ctx.core.validation import Strict


class GuardFlagsRequest(Strict):
    decision: Literal["near_duplicate", "needs_review", "clean"] | None = None
    all: bool = Field(default=False, description="Resolved flags too.")
    cross_scope: bool = Field(default=False, description="Admins: matches across scopes.")
    limit: int = Field(default=50, ge=1, le=200)


class GuardResolution(Strict):
    """How a flagged block and the earlier block it resembles are settled."""

    id: str = Field(min_length=4, max_length=36, description="The flagged block (id or prefix).")
    resolution: Literal["keep_both", "archive", "merge"]
    which: Literal["block", "match"] = Field(
        default="block",
        description="archive: the one archived; merge: the one that stays.",
    )


class ThresholdsChange(Strict):
    """Thresholds for a type (or every type) in a generation; both null removes the row."""

    duplicate: float | None = Field(default=None, ge=0, le=1)
    review: float | None = Field(default=None, ge=0, le=1)
    block_type: str | None = Field(default=None, max_length=50, description="None: every type.")
    generation: int | None = Field(default=None, description="Default: the active one.")
