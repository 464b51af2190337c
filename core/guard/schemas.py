"""The Guard's request models: which flags to list, how a flag is resolved, thresholds to set.
Only models: the declarations (``ctx.core.guard.operations``) import them without the services."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field

from ctx.core.blocks import BlockRef
from ctx.core.validation import Strict, state_the_rule


class GuardFlagsRequest(Strict):
    decision: Literal["near_duplicate", "update", "translation", "needs_review", "clean"] | None = (
        None
    )
    all: bool = Field(default=False, description="Resolved flags too.")
    cross_scope: bool = Field(default=False, description="Admins: matches across scopes.")
    limit: int = Field(default=50, ge=1, le=200)


class GuardResolution(Strict):
    """How a flagged block and the earlier block it resembles are settled."""

    id: BlockRef = Field(max_length=36, description="The flagged block (id or prefix).")
    resolution: Literal["keep_both", "archive", "merge", "unlink"] = Field(
        description="unlink: undo an update or a translation the Guard recorded (its link is "
        "rejected, both blocks stay)."
    )
    which: Literal["block", "match"] = Field(
        default="block",
        description="archive: the one archived; merge: the one that stays.",
    )


def _both_or_neither(schema: dict[str, Any], model: Any = None) -> None:
    """Both thresholds, or neither (which removes the row): stated for the schema's readers."""
    state_the_rule(schema, model)
    given = {"not": {"type": "null"}}
    neither = {"anyOf": [{"type": "null"}, {"not": {}}]}  # null, or left out
    schema["anyOf"] = [
        {"required": ["duplicate", "review"], "properties": {"duplicate": given, "review": given}},
        {"properties": {"duplicate": neither, "review": neither}},
    ]


class ThresholdsChange(Strict):
    """Thresholds for a type (or every type) in a generation; both null removes the row."""

    model_config = ConfigDict(json_schema_extra=_both_or_neither)

    duplicate: float | None = Field(default=None, ge=0, le=1)
    review: float | None = Field(default=None, ge=0, le=1)
    block_type: str | None = Field(default=None, max_length=50, description="None: every type.")
    generation: int | None = Field(default=None, description="Default: the active one.")
