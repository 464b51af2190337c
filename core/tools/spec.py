"""The ``Tool`` contract and the registry of plugin tools."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from ctx.core.runtime import PluginHost, registered_objects

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
    #: ``calls_model(app, arguments)``: whether this call asks a language model (it then counts
    #: against limits.model_calls_per_minute too)
    calls_model: Callable[[App, Any], bool] | None = None

    def limit_kinds(self, app: App, arguments: Any) -> tuple[str, ...]:
        """The per-key rate limits a call counts against: reads or writes, and model calls."""
        kinds: tuple[str, ...] = ("queries",) if self.read_only else ("writes",)
        if self.calls_model is not None and self.calls_model(app, arguments):
            kinds += ("model",)
        return kinds

    def input_schema(self) -> dict[str, Any]:
        """The input model's JSON schema without pydantic's generated titles (tokens an agent
        reads on every listing and learns nothing from)."""
        return _untitled(self.input_model.model_json_schema())


def _untitled(node: Any) -> Any:
    if isinstance(node, list):
        return [_untitled(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key == "title" and isinstance(value, str):
            continue
        if key in ("properties", "$defs") and isinstance(value, dict):
            out[key] = {name: _untitled(sub) for name, sub in value.items()}
        else:
            out[key] = _untitled(value)
    return out


def _check_tool(tool: Tool) -> str | None:
    if not NAME_RE.match(tool.name):
        return f"invalid tool name {tool.name!r}"
    if not tool.description.strip() or not callable(tool.handler):
        return f"tool {tool.name!r} needs a description and a handler"
    if not (isinstance(tool.input_model, type) and issubclass(tool.input_model, BaseModel)):
        return f"tool {tool.name!r}: input_model must be a pydantic model"
    return None


def registered_tools(host: PluginHost) -> dict[str, Tool]:
    """Every tool plugins register, by name; malformed or duplicate ones stop start-up."""
    return registered_objects(
        host, "register_mcp_tools", Tool, name=lambda t: t.name, what="tool", check=_check_tool
    )
