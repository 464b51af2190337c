"""The status operation, declared once (``ctx.core.operations``)."""

from __future__ import annotations

from ctx.core.operations import Operation, Rest

SERVER_STATUS = Operation(
    name="status.server",
    summary="One look at the server: backends, role chains, the job queue, embedding, version.",
    description="One look at the server: each backend with its cooldown and last 24 hours, each "
    "role's chain (or why it is empty), the job queue by kind and state, the active embedding "
    "generation and the version.",
    service="ctx.core.status.overview:server_status",
    access="admin",
    reach="none",
    rest=Rest("GET", "/api/status", tags=("observe",)),
)
