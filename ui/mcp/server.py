"""The MCP server: ctx's registered tools behind the official SDK's low-level ``Server``.

One server object serves every transport. Who is calling is decided per request by ``identify``
(the HTTP endpoint reads the principal its auth put on the request; stdio knows it up front), so
each tool call runs with the caller's scopes, and without an identity it fails closed.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import date, datetime
from typing import Any

import mcp_types as types
from mcp.server import Server, ServerRequestContext

from ctx.core import App, Principal
from ctx.core.access import authenticate
from ctx.core.tools import INSTRUCTIONS, Tool, ToolOutcome, call_tool
from ctx.ui.version import VERSION

Identify = Callable[[ServerRequestContext[Any, Any]], Principal | None]


def _json_default(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    return str(value)


def compact_json(value: Any) -> str:
    """Tool results as an agent reads them: JSON without padding, non-ASCII kept."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=_json_default)


def tool_listing(tool: Tool) -> types.Tool:
    return types.Tool(
        name=tool.name,
        description=tool.description,
        input_schema=tool.input_schema(),
        annotations=types.ToolAnnotations(
            read_only_hint=tool.read_only,
            destructive_hint=tool.destructive,
            idempotent_hint=tool.idempotent,
            open_world_hint=False,
        ),
    )


def outcome_result(outcome: ToolOutcome) -> types.CallToolResult:
    if outcome.error is not None:
        return types.CallToolResult(content=[types.TextContent(text=outcome.error)], is_error=True)
    return types.CallToolResult(content=[types.TextContent(text=compact_json(outcome.result))])


ListTools = Callable[
    [ServerRequestContext[Any, Any], types.PaginatedRequestParams | None],
    Awaitable[types.ListToolsResult],
]
CallTool = Callable[
    [ServerRequestContext[Any, Any], types.CallToolRequestParams], Awaitable[types.CallToolResult]
]


def new_server(list_tools: ListTools, call: CallTool, instructions: str | None) -> Server[Any]:
    """ctx's MCP server with the given handlers (in-process or forwarding)."""
    return Server(
        "ctx",
        version=VERSION,
        title="ctx memory",
        description="Memory and knowledge layer for LLM agents.",
        instructions=instructions,
        on_list_tools=list_tools,
        on_call_tool=call,
    )


def principal_for(app: App, token: str) -> Principal:
    """The principal of an API key (``Unauthorized`` for an unknown or revoked one)."""
    with app.connection() as conn:
        return authenticate(conn, token)


def build_server(app: App, identify: Identify) -> Server[Any]:
    """The MCP server of ``app``'s tools; ``identify`` names the caller of each request."""

    async def list_tools(
        ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[tool_listing(t) for t in app.tools.values()])

    async def call(
        ctx: ServerRequestContext[Any, Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        who = identify(ctx)
        if who is None:
            return outcome_result(ToolOutcome(error="no identity: send an API key"))
        outcome = await app.bridge.run_sync(call_tool, app, who, params.name, params.arguments)
        return outcome_result(outcome)

    return new_server(list_tools, call, INSTRUCTIONS)
