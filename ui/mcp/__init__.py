"""The MCP surface: ``/mcp`` (streamable HTTP) in ctxd and ``ctx mcp serve --stdio`` (a relay to
ctxd, ``bridge``, or the local store, ``stdio``). Names are imported on first use, so the relay
loads none of the server."""

from typing import TYPE_CHECKING

from ctx.core.lazy import lazy_exports

if TYPE_CHECKING:
    from ctx.ui.mcp.http import McpEndpoint, mount
    from ctx.ui.mcp.server import build_server, compact_json

__all__ = ["McpEndpoint", "build_server", "compact_json", "mount"]

__getattr__, __dir__ = lazy_exports(__name__, __file__, globals())
