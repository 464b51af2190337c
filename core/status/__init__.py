"""The server's status: one look at a running ctx for its operator. The model backends and each
role's chain (``llm``), the job queue (``runtime``), the active embedding generation (``embed``)
and the version, each part from the capability that owns it; a package of its own because none of
those may import the others above it."""

from typing import TYPE_CHECKING

from ctx.core.lazy import lazy_exports

if TYPE_CHECKING:
    from ctx.core.status.operations import SERVER_STATUS
    from ctx.core.status.overview import server_status

__all__ = ["SERVER_STATUS", "server_status"]

# Imported on first use (see ctx.core.lazy): a thin client loads only what it touches.
__getattr__, __dir__ = lazy_exports(__name__, __file__, globals())
