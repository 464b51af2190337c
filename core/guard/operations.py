"""The Guard operations, each declared once (``ctx.core.operations``): the flags a key may review,
their resolution, the Guard's figures, and (for admins) the thresholds per type and generation.
Only models are imported here; the services are named."""

from __future__ import annotations

from ctx.core.guard.schemas import GuardFlagsRequest, GuardResolution, ThresholdsChange
from ctx.core.operations import Operation, Rest

SERVICE = "ctx.core.guard.service"

GUARD_FLAGS = Operation(
    name="guard.flags",
    summary="Open Guard flags, archived copies and recorded updates (with the change) in the "
    "key's scopes (both blocks readable), newest first.",
    service=f"{SERVICE}:flags",
    input=GuardFlagsRequest,
    rest=Rest("GET", "/api/guard"),
    cli=True,
)

GUARD_STATS = Operation(
    name="guard.stats",
    summary="Blocks by Guard status, open flags, the last day's decisions.",
    service=f"{SERVICE}:figures",
    rest=Rest("GET", "/api/guard/stats"),
    cli=True,
)

RESOLVE_GUARD_FLAG = Operation(
    name="guard.resolve",
    summary="Keep both, archive one, merge one into the other (with provenance), or unlink "
    "(undo an update or a translation the Guard recorded).",
    service=f"{SERVICE}:resolve",
    input=GuardResolution,
    kind="write",
    rest=Rest(
        "POST",
        "/api/guard/resolve",
        errors={
            404: "No flag on that block in the key's scopes.",
            409: "Ambiguous id prefix, the flag is already resolved, or unlink on a flag that "
            "is no update or translation.",
        },
    ),
    cli=True,
)

GUARD_THRESHOLDS = Operation(
    name="guard.thresholds",
    summary="The thresholds rows, and what each type uses in the active generation.",
    service=f"{SERVICE}:thresholds",
    access="admin",
    reach="none",
    rest=Rest("GET", "/api/guard/thresholds"),
    cli=True,
)

SET_GUARD_THRESHOLDS = Operation(
    name="guard.set-thresholds",
    summary="Set a type's (or every type's) thresholds in a generation; both null: remove the row.",
    service=f"{SERVICE}:set_type_thresholds",
    input=ThresholdsChange,
    kind="write",
    access="admin",
    reach="none",
    rest=Rest(
        "POST",
        "/api/guard/thresholds",
        errors={404: "No such block type, or no such (or no active) embedding generation."},
    ),
    cli=True,
)
