"""The click that typer runs on: typer 0.29+ vendors its own copy (``typer._click``, with typer's
own parameter and group classes); older releases use the ``click`` package. Everything the CLI
needs from click comes from here, so the context, the exceptions and the parameter classes are
the ones typer actually uses."""

from __future__ import annotations

from typing import Any

import typer

try:  # typer >= 0.29
    from typer import _click as _vendored
    from typer.core import TyperArgument, TyperGroup, TyperOption

    _exceptions: Any = _vendored.exceptions
    Command: Any = _vendored.core.Command
    Context: Any = _vendored.core.Context
    Argument: Any = TyperArgument
    Option: Any = TyperOption
    Group: Any = TyperGroup
    get_current_context: Any = _vendored.globals.get_current_context
except ImportError:  # pragma: no cover - older typer on the click package
    import click

    _exceptions = click.exceptions
    Command = click.Command
    Context = click.Context
    Argument = click.Argument
    Option = click.Option
    Group = click.Group
    get_current_context = click.get_current_context

Abort: Any = getattr(_exceptions, "Abort", typer.Abort)
Exit: Any = getattr(_exceptions, "Exit", typer.Exit)
NoArgsIsHelpError: Any = getattr(_exceptions, "NoArgsIsHelpError", _exceptions.UsageError)
UsageError: Any = _exceptions.UsageError

__all__ = [
    "Abort",
    "Argument",
    "Command",
    "Context",
    "Exit",
    "Group",
    "NoArgsIsHelpError",
    "Option",
    "UsageError",
    "get_current_context",
]
