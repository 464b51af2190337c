"""The Guard: near-duplicates caught on write. Checks, thresholds per type and generation, the
review of flagged pairs."""

from typing import TYPE_CHECKING

from ctx.core.lazy import lazy_exports

if TYPE_CHECKING:
    from ctx.core.guard.check import (
        CLEAN,
        DECISIONS,
        NEAR_DUPLICATE,
        NEEDS_REVIEW,
        TRANSLATION,
        UPDATE,
        Decision,
        Neighbour,
        decide,
        values,
    )
    from ctx.core.guard.draft import draft_neighbours
    from ctx.core.guard.jobs import GUARD_JOBS, run_checks, sweep
    from ctx.core.guard.operations import (
        GUARD_FLAGS,
        GUARD_STATS,
        GUARD_THRESHOLDS,
        RESOLVE_GUARD_FLAG,
        SET_GUARD_THRESHOLDS,
    )
    from ctx.core.guard.review import RESOLUTIONS, guard_stats, list_flags, resolve_flag
    from ctx.core.guard.schemas import GuardFlagsRequest, GuardResolution, ThresholdsChange
    from ctx.core.guard.thresholds import (
        Thresholds,
        change_thresholds,
        list_thresholds,
        set_thresholds,
        thresholds_for,
        thresholds_in_use,
        unset_thresholds,
    )
    from ctx.core.guard.wording import word_changes

__all__ = [
    "CLEAN",
    "DECISIONS",
    "GUARD_FLAGS",
    "GUARD_JOBS",
    "GUARD_STATS",
    "GUARD_THRESHOLDS",
    "NEAR_DUPLICATE",
    "NEEDS_REVIEW",
    "RESOLUTIONS",
    "RESOLVE_GUARD_FLAG",
    "SET_GUARD_THRESHOLDS",
    "TRANSLATION",
    "UPDATE",
    "Decision",
    "GuardFlagsRequest",
    "GuardResolution",
    "Neighbour",
    "Thresholds",
    "ThresholdsChange",
    "change_thresholds",
    "decide",
    "draft_neighbours",
    "guard_stats",
    "list_flags",
    "list_thresholds",
    "resolve_flag",
    "run_checks",
    "set_thresholds",
    "sweep",
    "thresholds_for",
    "thresholds_in_use",
    "unset_thresholds",
    "values",
    "word_changes",
]

# Imported on first use (see ctx.core.lazy): a thin client loads only what it touches.
__getattr__, __dir__ = lazy_exports(__name__, __file__, globals())
