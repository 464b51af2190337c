"""Tools an agent can call: the contract every surface that offers tools (MCP first) serves.

A tool is a name, a description an agent can act on, a pydantic model for its input, a handler
that calls the same core functions every interface calls, and the MCP annotations (read-only,
destructive, idempotent). Plugins add tools through ``register_mcp_tools``.
"""

from ctx.core.tools.spec import Tool, ToolHandler, registered_tools

__all__ = ["Tool", "ToolHandler", "registered_tools"]
