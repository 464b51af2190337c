"""Agent tools from plugins: the contract MCP (and later the gateway) serves."""

from __future__ import annotations

from typing import Any

import pytest
from plugin_kit import host_with, registers
from pydantic import BaseModel, Field

from ctx.core import PluginError, Tool
from ctx.core.tools import registered_tools


class Echo(BaseModel):
    text: str = Field(description="What to say back.")


ECHO = Tool("echo", "Say the text back.", Echo, lambda app, who, args: args.text, read_only=True)


def Tools(*tools: Any) -> object:
    return registers("register_mcp_tools", *tools)


def _tools(*plugins: tuple[str, object]) -> dict[str, Tool]:
    return registered_tools(host_with(*plugins))


def test_a_tool_carries_its_schema_handler_and_annotations() -> None:
    tool = _tools(("p", Tools(ECHO)))["echo"]
    schema = tool.input_schema()
    assert schema["properties"]["text"]["description"] == "What to say back."
    assert schema["required"] == ["text"]
    assert tool.handler(None, None, Echo(text="hi")) == "hi"
    assert (tool.read_only, tool.destructive, tool.idempotent) == (True, False, False)


@pytest.mark.parametrize(
    ("tools", "message"),
    [
        ((ECHO, ECHO), "tool 'echo' registered twice: by p and by p"),
        ((Tool("Echo!", "x", Echo, print),), "invalid tool name 'Echo!'"),
        ((Tool("quiet", " ", Echo, print),), "needs a description and a handler"),
        ((Tool("raw", "x", dict, print),), "input_model must be a pydantic model"),  # type: ignore[arg-type]
        (("echo",), "must call register(Tool(...))"),
    ],
)
def test_bad_tools_stop_start_up(tools: tuple[Any, ...], message: str) -> None:
    with pytest.raises(PluginError) as caught:
        _tools(("p", Tools(*tools)))
    assert message in caught.value.message
