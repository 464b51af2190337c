"""Tools an agent can call: what MCP (over HTTP and stdio) and the chat model are offered.

A tool is the ``tool`` surface of a declared operation (``ctx.core.operations``): a name, a
description an agent can act on, its argument model, the function that answers (the operation's
service, or the tool's compact view of it) and the MCP annotations (read-only from the
operation's kind; destructive, idempotent). ``tools_of`` derives them, ``app.tools`` holds them,
and ``call_tool`` runs one for a principal, charges its limits and turns every problem into a
message. ``INSTRUCTIONS`` is what the MCP server tells an agent first.
"""

from typing import TYPE_CHECKING

from ctx.core.lazy import lazy_exports

if TYPE_CHECKING:
    from ctx.core.tools.calling import ToolOutcome, call_tool, describe_arguments
    from ctx.core.tools.instructions import INSTRUCTIONS
    from ctx.core.tools.spec import Tool, ToolHandler, tool_of, tools_of

__all__ = [
    "INSTRUCTIONS",
    "Tool",
    "ToolHandler",
    "ToolOutcome",
    "call_tool",
    "describe_arguments",
    "tool_of",
    "tools_of",
]

# Imported on first use (see ctx.core.lazy): a thin client loads only what it touches.
__getattr__, __dir__ = lazy_exports(__name__, __file__, globals())
