"""The hook implementations ctx finds through the ``ctx`` entry point.

Each function is named after the hookspec it implements (docs/plugin-hooks.md) and marked with
``hookimpl``; everything comes from ``ctx.core`` and ``ctx.ui``, the public plugin API. Nothing
runs at import time: ctx calls the hooks when it builds an ``App`` or the command line.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Annotated, Any

import typer

from ctx.core import BlockTypeSpec, Operation, Rest, Setting, ToolSurface, hookimpl
from ctx.ui import local
from ctx_example_plugin.greet import Greeted, Greeting

MEETING_NOTE = BlockTypeSpec(
    name="meeting-note",
    description="Notes from a meeting: who decided what, and when.",
    # Meeting notes are useful context but should not crowd out decisions and facts.
    retrieval_policy="damped",
    retrieval_factor=0.8,
    # Meetings are full of dates ("next Tuesday", "by March 3"): resolve them at write time.
    temporal_extract=True,
)

GREETING = Setting(
    key="example.greeting",
    type=str,
    default="Hello",
    help="Word the example-hello command greets with.",
)


# One declaration, every surface: ctx derives the REST route, its OpenAPI entry and rate-limit kind,
# and the MCP tool from it. The service is named as text, so reading the declaration loads no code.
GREET = Operation(
    name="example.greet",
    summary="Greet someone with the configured word (example plugin).",
    service="ctx_example_plugin.greet:greet",
    input=Greeting,
    output=Greeted,
    reach="none",  # shows no scope's data
    rest=Rest("POST", "/api/example/greet"),
    tool=ToolSurface("example_greet", "Greet someone by name with the configured word."),
)


@hookimpl
def register_operations(register: Callable[[Operation], None]) -> None:
    register(GREET)


@hookimpl
def register_block_types(register: Callable[..., None]) -> None:
    register(MEETING_NOTE)


@hookimpl
def register_settings(register: Callable[..., None]) -> None:
    register(GREETING)


def greeting(environ: dict[str, str] | None = None) -> str:
    """The greeting from ``CTX_EXAMPLE_GREETING``, or the setting's default.

    The command reads the environment layer only, so it works without a database or a server.
    """
    env = os.environ if environ is None else environ
    raw = env.get(GREETING.env)
    return GREETING.default if raw is None else GREETING.coerce(raw)


@local  # works on this machine without a server: it presents no operation
def hello(
    name: Annotated[str, typer.Option("--name", help="Who to greet.")] = "world",
) -> None:
    """Print a greeting (example plugin)."""
    typer.echo(f"{greeting()}, {name}!")


@hookimpl
def register_commands(cli: Any) -> None:
    cli.command("example-hello")(hello)
