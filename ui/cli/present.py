"""Commands bound to what they do: the operations they present, or work on this machine.

A data command presents one or more operations (``@presents(op)``, or the operation's name where
importing its declaration costs too much: the agent hooks run on every prompt and load no
models): it parses its arguments, calls the operation's REST route through ``ctx.core.client``
and prints the answer. A local command (``@local``) runs on the server's own machine with the
database and no key: ``serve``, ``init``, ``migrate``, ``doctor``, ``worker`` and the operator's
commands. ``ctx mcp serve --stdio`` relays a whole surface (``@relays("mcp")``). Every leaf
command is one of these, and an operation that says it is on the command line has a command
presenting it; a test walks the command tree and fails otherwise.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from ctx.core.operations import Operation

F = TypeVar("F", bound=Callable[..., Any])

OPERATIONS_ATTR = "__ctx_operations__"
LOCAL_ATTR = "__ctx_local__"
RELAYS_ATTR = "__ctx_relays__"


def presents(*operations: Operation | str) -> Callable[[F], F]:
    """Mark a command as the command-line presentation of ``operations`` (declarations, or
    their names)."""

    def mark(command: F) -> F:
        setattr(command, OPERATIONS_ATTR, tuple(operations))
        return command

    return mark


def relays(surface: str) -> Callable[[F], F]:
    """Mark a command that relays a whole surface of ctxd (``"mcp"``) rather than operations."""

    def mark(command: F) -> F:
        setattr(command, RELAYS_ATTR, surface)
        return command

    return mark


def local(command: F) -> F:
    """Mark a command that works on this machine (the database, the files) rather than through a
    running ctxd."""
    setattr(command, LOCAL_ATTR, True)
    return command


def presented(callback: Any) -> tuple[str, ...]:
    """The names of the operations a command's callback presents (typer copies the marks onto
    its wrapper)."""
    marks = getattr(callback, OPERATIONS_ATTR, ())
    return tuple(m if isinstance(m, str) else m.name for m in marks)


def is_local(callback: Any) -> bool:
    return bool(getattr(callback, LOCAL_ATTR, False))


def relayed(callback: Any) -> str | None:
    return getattr(callback, RELAYS_ATTR, None)
