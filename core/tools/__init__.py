"""Tools an agent can call: the contract every surface that offers tools (MCP first) serves.

A tool is a name, a description an agent can act on, a pydantic model for its input, a handler
that calls the same core functions every interface calls, and the MCP annotations (read-only,
destructive, idempotent). The core's own tools (query, store, search, get, recent, delete,
timeline, stats) are registered like a plugin's, through ``register_mcp_tools``. ``call_tool``
runs one for a principal and turns every problem into a message.
"""

from typing import TYPE_CHECKING

from ctx.core.lazy import lazy_exports

if TYPE_CHECKING:
    from ctx.core.tools.calling import ToolOutcome, call_tool, describe_arguments
    from ctx.core.tools.instructions import INSTRUCTIONS
    from ctx.core.tools.spec import Tool, ToolHandler, registered_tools, tool_of, tools_of

__all__ = [
    "INSTRUCTIONS",
    "Tool",
    "ToolHandler",
    "ToolOutcome",
    "call_tool",
    "describe_arguments",
    "registered_tools",
    "tool_of",
    "tools_of",
]

# Imported on first use (see ctx.core.lazy): a thin client loads only what it touches.
__getattr__, __dir__ = lazy_exports(__name__, __file__, globals())
