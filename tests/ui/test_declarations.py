"""Every route of the REST API, every MCP tool and every command derives from a declaration.

An operation is declared once (``ctx.core.operations``); its route, tool, rate-limit kinds and
OpenAPI entry derive from it, and a command either presents operations or works locally. These
tests walk what the product serves and fail on anything that exists without a declaration, and
show that the walk does catch an undeclared route, tool or command.
"""

from __future__ import annotations

from typing import Any

import typer
from declarations import (
    presented_without_route,
    undeclared_commands,
    undeclared_routes,
    undeclared_tools,
    unpresented_operations,
)
from fastapi import APIRouter, FastAPI
from pydantic import BaseModel

from ctx.core import App, Operation, Rest
from ctx.core.tools import Tool
from ctx.ui import create_app
from ctx.ui.api.operations import operations_router
from ctx.ui.cli import build_cli
from ctx.ui.cli.present import local, presents


def _command(app: App) -> Any:
    return typer.main.get_command(build_cli(app))


def test_every_route_tool_and_command_is_declared(app: App) -> None:
    server = create_app(app)
    assert undeclared_routes(server) == []
    assert undeclared_tools(app.tools) == []
    command = _command(app)
    assert undeclared_commands(command) == []
    assert unpresented_operations(app.operations.values(), command) == []
    assert presented_without_route(app.operations, command) == []


class _Nothing(BaseModel):
    pass


def _nothing(app: Any, who: Any, value: Any) -> dict[str, str]:
    return {}


def test_an_undeclared_route_is_found() -> None:
    server = FastAPI()
    stray = APIRouter()

    @stray.get("/api/stray")
    def stray_route() -> dict[str, str]:
        return {}

    declared = Operation(
        name="test.declared",
        summary="A declared operation.",
        service=f"{__name__}:_nothing",
        reach="none",
        rest=Rest("GET", "/api/declared"),
    )
    server.include_router(stray)
    server.include_router(operations_router([declared]))
    assert undeclared_routes(server) == ["GET /api/stray"]


def test_an_undeclared_tool_is_found() -> None:
    tools = {"stray": Tool("stray", "A tool nobody declared.", _Nothing, _nothing)}
    assert undeclared_tools(tools) == ["stray"]


def test_an_undeclared_command_and_an_unpresented_operation_are_found() -> None:
    shown = Operation(
        name="test.shown",
        summary="Shown on the command line.",
        service=f"{__name__}:_nothing",
        rest=Rest("GET", "/api/shown"),
        cli=True,
    )
    hidden = Operation(
        name="test.hidden",
        summary="Said to be on the command line, but no command presents it.",
        service=f"{__name__}:_nothing",
        cli=True,
    )
    cli = typer.Typer()

    @cli.command("stray")
    def stray() -> None:
        """A command that says neither what it presents nor that it is local."""

    @cli.command("shown")
    @presents(shown)
    def show() -> None:
        """Presents an operation."""

    @cli.command("here")
    @local
    def here() -> None:
        """Works on this machine."""

    @cli.command("routeless")
    @presents(hidden)
    def routeless() -> None:
        """Presents an operation the thin command line cannot call."""

    command = typer.main.get_command(cli)
    assert undeclared_commands(command) == ["stray"]
    assert unpresented_operations([shown, hidden], command) == []
    known = {"test.shown": shown, "test.hidden": hidden}
    assert presented_without_route(known, command) == ["routeless: test.hidden"]
    assert presented_without_route({}, command) == ["routeless: test.hidden", "shown: test.shown"]
    only_stray = typer.Typer()
    only_stray.command("stray")(stray)
    only_stray.command("here")(here)
    assert unpresented_operations([shown, hidden], typer.main.get_command(only_stray)) == [
        "test.hidden",
        "test.shown",
    ]
