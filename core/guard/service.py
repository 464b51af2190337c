"""The Guard operations as every surface answers them (``ctx.core.guard.operations``): the flags
a key may review, their resolution, the Guard's figures, and (for admins) the thresholds per type
and generation. Each is called ``service(app, who, input)``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ctx.core.guard.review import guard_stats, list_flags, resolve_flag
from ctx.core.guard.schemas import GuardFlagsRequest, GuardResolution, ThresholdsChange
from ctx.core.guard.thresholds import change_thresholds, thresholds_in_use

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App


def flags(app: App, who: Principal, request: GuardFlagsRequest) -> dict[str, Any]:
    found = list_flags(app, who, decision=request.decision, include_resolved=request.all,
                       cross_scope=request.cross_scope, limit=request.limit)  # fmt: skip
    return {"flags": found, "count": len(found)}


def figures(app: App, who: Principal, _request: None) -> dict[str, Any]:
    return guard_stats(app, who)


def resolve(app: App, who: Principal, request: GuardResolution) -> dict[str, Any]:
    return resolve_flag(app, who, request.id, request.resolution, request.which)


def thresholds(app: App, who: Principal, _request: None) -> dict[str, Any]:
    return thresholds_in_use(app)


def set_type_thresholds(app: App, who: Principal, request: ThresholdsChange) -> dict[str, Any]:
    return change_thresholds(
        app,
        duplicate=request.duplicate,
        review=request.review,
        block_type=request.block_type,
        generation=request.generation,
    )
