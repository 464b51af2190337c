"""The ``Tool`` contract and the registry of plugin tools."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from ctx.core.errors import PluginError
from ctx.core.runtime import PluginHost, unique_by_name

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App

NAME_RE = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
ToolHandler = Callable[["App", "Principal", Any], Any]


@dataclass(frozen=True)
class Tool:
    """``handler(app, who, arguments)`` gets the validated ``input_model`` instance and returns
    something JSON-serialisable; a ``CtxError`` becomes a tool error the agent can read."""

    name: str
    description: str
    input_model: type[BaseModel]
    handler: ToolHandler
    read_only: bool = False
    destructive: bool = False
    idempotent: bool = False

    def input_schema(self) -> dict[str, Any]:
        return self.input_model.model_json_schema()


def registered_tools(host: PluginHost) -> dict[str, Tool]:
    """Every tool plugins register, by name; malformed or duplicate ones stop start-up."""
    regs = host.registrations("register_mcp_tools")
    problems = []
    for reg in regs:
        tool = reg.args[0] if len(reg.args) == 1 and not reg.kwargs else None
        if not isinstance(tool, Tool):
            problems.append(f"plugin {reg.plugin} must call register(Tool(...))")
        elif not NAME_RE.match(tool.name):
            problems.append(f"plugin {reg.plugin} registered an invalid tool name {tool.name!r}")
        elif not tool.description.strip() or not callable(tool.handler):
            problems.append(f"tool {tool.name!r} of {reg.plugin} needs a description and a handler")
        elif not (isinstance(tool.input_model, type) and issubclass(tool.input_model, BaseModel)):
            problems.append(
                f"tool {tool.name!r} of {reg.plugin}: input_model must be a pydantic model"
            )
    if problems:
        raise PluginError("; ".join(problems))
    by_name = unique_by_name(regs, lambda r: r.args[0].name, "tool")
    return {name: reg.args[0] for name, reg in by_name.items()}
