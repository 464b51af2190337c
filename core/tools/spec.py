"""The ``Tool`` an agent calls over MCP, derived from an operation's declaration."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from ctx.core.operations import Operation, resolve

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App

ToolHandler = Callable[["App", "Principal", Any], Any]


@dataclass(frozen=True)
class Tool:
    """``handler(app, who, arguments)`` gets the validated ``input_model`` instance and returns
    something JSON-serialisable; a ``CtxError`` becomes a tool error the agent can read. Built
    from an ``Operation`` with a ``tool`` surface (``tools_of``)."""

    name: str
    description: str
    input_model: type[BaseModel]
    handler: ToolHandler
    read_only: bool = False
    destructive: bool = False
    idempotent: bool = False
    operation: Operation | None = None

    def limit_kinds(self, app: App, arguments: Any) -> tuple[str, ...]:
        """The per-key rate limits a call counts against: its operation's kinds, and what these
        arguments add (a model call for an answer)."""
        op = self.operation
        if op is None or op.tool is None:  # a tool built by hand (tests): by its flag
            return ("queries",) if self.read_only else ("writes",)
        # the operation's own charges read its input: they apply when the tool takes that input
        ref = op.tool.charges or (op.charges if op.tool.input is None else None)
        return op.limits + op.extra_limits(app, arguments, ref)

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


class _NoArguments(BaseModel):
    """A tool without arguments still takes an (empty) object."""

    model_config = {"extra": "forbid"}


def tool_of(op: Operation) -> Tool:
    """The MCP tool of an operation that offers one."""
    surface = op.tool
    assert surface is not None
    model = surface.input or op.input or _NoArguments
    return Tool(
        name=surface.name,
        description=surface.description,
        input_model=model,
        handler=resolve(surface.run or op.service),
        read_only=not op.writes,
        destructive=surface.destructive,
        idempotent=surface.idempotent,
        operation=op,
    )


def tools_of(operations: Iterable[Operation]) -> dict[str, Tool]:
    """The tools of the operations that offer one, by tool name."""
    return {op.tool.name: tool_of(op) for op in operations if op.tool is not None}
