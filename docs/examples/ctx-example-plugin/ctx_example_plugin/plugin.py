"""The hook implementations ctx finds through the ``ctx`` entry point.

Each function is named after the hookspec it implements (docs/plugin-hooks.md) and marked with
``hookimpl``; everything comes from ``ctx.core``, the public plugin API. Nothing runs at import
time: ctx calls the hooks when it builds an ``App`` or the command line.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Annotated, Any

import typer
from ctx.core import BlockTypeSpec, Setting, hookimpl

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


def hello(
    name: Annotated[str, typer.Option("--name", help="Who to greet.")] = "world",
) -> None:
    """Print a greeting (example plugin)."""
    typer.echo(f"{greeting()}, {name}!")


@hookimpl
def register_commands(cli: Any) -> None:
    cli.command("example-hello")(hello)
