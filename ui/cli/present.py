"""Commands bound to what they do: an operation they present, or work on this machine.

A data command presents one or more operations (``@presents(op)``): it parses its arguments,
calls the operation's REST route through ``ctx.core.client`` and prints the answer. A local
command (``@local``) runs on the server's own machine with the database and no key: ``serve``,
``init``, ``migrate``, ``doctor``, ``worker`` and the operator's commands. Every leaf command is
one or the other, and an operation that says it is on the command line has a command presenting
it; a test walks the command tree and fails otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ctx.core.operations import Operation

F = TypeVar("F", bound=Callable[..., Any])

OPERATIONS_ATTR = "__ctx_operations__"
LOCAL_ATTR = "__ctx_local__"


def presents(*operations: Operation) -> Callable[[F], F]:
    """Mark a command as the command-line presentation of ``operations``."""

    def mark(command: F) -> F:
        setattr(command, OPERATIONS_ATTR, tuple(operations))
        return command

    return mark


def local(command: F) -> F:
    """Mark a command that works on this machine (the database, the files) rather than through a
    running ctxd."""
    setattr(command, LOCAL_ATTR, True)
    return command


def presented(callback: Any) -> tuple[Operation, ...]:
    """The operations a command's callback presents (typer copies the marks onto its wrapper)."""
    return tuple(getattr(callback, OPERATIONS_ATTR, ()))


def is_local(callback: Any) -> bool:
    return bool(getattr(callback, LOCAL_ATTR, False))
