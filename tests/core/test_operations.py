"""Operations declared once: what a declaration must hold, what start-up refuses, and the MCP tool
derived from one (its schema, annotations and the limits a call counts against)."""

from __future__ import annotations

from typing import Any

import pytest
from plugin_kit import registers
from pydantic import BaseModel, Field

from ctx.core import App, Operation, PluginError, Rest, ToolSurface
from ctx.core.app import declared_operations
from ctx.core.operations import declared, resolve
from ctx.core.runtime import PluginHost
from ctx.core.tools import tool_of


class Echo(BaseModel):
    text: str = Field(description="What to say back.")


class Numbered(BaseModel):
    number: int = Field(ge=1)


def echo(app: Any, who: Any, args: Echo) -> str:
    return args.text


def _answers(app: Any, args: Echo) -> tuple[str, ...]:
    return ("model",) if args.text == "answer" else ()


ECHO = Operation(
    name="example.echo",
    summary="Say the text back.",
    service=f"{__name__}:echo",
    input=Echo,
    charges=f"{__name__}:_answers",
    rest=Rest("POST", "/api/example/echo"),
    tool=ToolSurface("echo", "Say the text back.", idempotent=True),
)


def _host(*ops: Any) -> PluginHost:
    host = PluginHost((), load_entry_points=False, environ={}, core=False)
    host.register(registers("register_operations", *ops), "p")
    return host


def test_a_tool_derives_its_schema_handler_annotations_and_limits() -> None:
    tool = tool_of(ECHO)
    schema = tool.input_schema()
    assert schema["properties"]["text"] == {"description": "What to say back.", "type": "string"}
    assert schema["required"] == ["text"]
    assert tool.handler(None, None, Echo(text="hi")) == "hi"
    assert (tool.read_only, tool.destructive, tool.idempotent) == (True, False, True)
    assert tool.limit_kinds(None, Echo(text="hi")) == ("queries",)
    assert tool.limit_kinds(None, Echo(text="answer")) == ("queries", "model")
    writes = Operation(
        name="example.note", summary="x", service=f"{__name__}:echo", input=Echo, kind="write",
        tool=ToolSurface("note", "Keep a note."),
    )  # fmt: skip
    assert tool_of(writes).read_only is False
    assert tool_of(writes).limit_kinds(None, Echo(text="answer")) == ("writes",)


def test_declared_operations_come_from_the_hook_by_name() -> None:
    assert declared_operations(_host(ECHO)) == {"example.echo": ECHO}
    assert declared({"ECHO": ECHO, "other": 1, "Echo": Echo}) == [ECHO]
    assert resolve(ECHO.service) is echo


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": "Echo"}, "must look like 'capability.verb'"),
        ({"summary": " "}, "needs a summary"),
        ({"kind": "delete"}, "kind must be read, write and/or model"),
        ({"input": dict}, "input and output must be pydantic models"),
        ({"service": f"{__name__}:nothing"}, "cannot be loaded"),
        ({"service": "ctx.no_such_module:f"}, "cannot be loaded"),
        ({"rest": Rest("POST", "/api/x/{number}")}, "path parameters ['number'] are no input"),
        ({"rest": Rest("FETCH", "/api/x")}, "method 'FETCH'"),
        ({"rest": None, "tool": None}, "is offered on no surface"),
        ({"tool": ToolSurface("Echo!", "x")}, "invalid tool name 'Echo!'"),
    ],
)
def test_a_bad_declaration_stops_start_up(changes: dict[str, Any], message: str) -> None:
    bad = Operation(**{**vars(ECHO), **changes})
    with pytest.raises(PluginError) as caught:
        declared_operations(_host(bad))
    assert message in caught.value.message


def test_a_name_route_or_tool_declared_twice_stops_start_up() -> None:
    again = Operation(**{**vars(ECHO), "name": "example.again"})
    with pytest.raises(PluginError) as caught:
        declared_operations(_host(ECHO, again))
    assert "route POST /api/example/echo declared by example.echo and example.again" in (
        caught.value.message
    )
    assert "tool 'echo' declared by example.echo and example.again" in caught.value.message
    with pytest.raises(PluginError, match=r"operation 'example\.echo' registered twice"):
        declared_operations(_host(ECHO, ECHO))
    with pytest.raises(PluginError, match="must call register"):
        declared_operations(_host("not an operation"))


def test_every_built_in_declaration_is_sound(app: App) -> None:
    """The App validated them at open; each names a service that loads and, with a route, a
    route the REST API serves."""
    assert len(app.operations) > 80
    for op in app.operations.values():
        assert op.problems() == [], op.name
        assert callable(op.service_function())
