"""What the product serves without a declaration: REST routes not derived from an operation, MCP
tools without one, commands that neither present an operation nor work locally, and operations
that say they are on the command line with no command presenting them.

The REST API is every route under ``/api/`` (and ``/health``, ``/-/``); the workbench's pages,
OAuth, MCP's endpoint, the gateway and the API documentation are surfaces of their own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from fastapi import FastAPI
from starlette.routing import Mount

from ctx.core import Operation
from ctx.ui.api.marks import operation_of
from ctx.ui.cli.present import is_local, presented, relayed

DOCUMENTATION = {"/api/docs", "/openapi.json", "/docs"}


def api_routes(server: FastAPI) -> Iterator[tuple[str, Any]]:
    """``("METHOD /path", endpoint)`` of every route of the REST API as served."""

    def walk(routes: Iterable[Any]) -> Iterator[Any]:
        for route in routes:
            contexts: Callable[[], Iterator[Any]] | None = getattr(
                route, "effective_route_contexts", None
            )
            if contexts is not None:
                yield from walk(contexts())
            elif not isinstance(route, Mount):
                yield route

    for route in walk(server.routes):
        path = route.path
        if path in DOCUMENTATION or not (path.startswith(("/api/", "/-/")) or path == "/health"):
            continue
        for method in sorted(set(getattr(route, "methods", None) or ()) - {"HEAD", "OPTIONS"}):
            yield f"{method} {path}", route.endpoint


def undeclared_routes(server: FastAPI) -> list[str]:
    return sorted(name for name, endpoint in api_routes(server) if operation_of(endpoint) is None)


def undeclared_tools(tools: Mapping[str, Any]) -> list[str]:
    return sorted(name for name, tool in tools.items() if getattr(tool, "operation", None) is None)


def leaf_commands(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, Any]]:
    """``("group sub", callback)`` of every leaf command of a click command tree."""
    subs = getattr(command, "commands", None)
    if subs:
        for name, sub in subs.items():
            yield from leaf_commands(sub, (*path, name))
    else:
        yield " ".join(path), command.callback


def undeclared_commands(command: Any) -> list[str]:
    return sorted(
        name
        for name, callback in leaf_commands(command)
        if not presented(callback) and not is_local(callback) and not relayed(callback)
    )


def unpresented_operations(operations: Iterable[Operation], command: Any) -> list[str]:
    """Operations that say they are on the command line with no command presenting them."""
    shown = {name for _, callback in leaf_commands(command) for name in presented(callback)}
    return sorted(op.name for op in operations if op.cli and op.name not in shown)


def presented_without_route(operations: Mapping[str, Operation], command: Any) -> list[str]:
    """Commands that present an operation the thin command line cannot call: one that does not
    exist, or has no REST route."""
    return sorted(
        f"{name}: {op_name}"
        for name, callback in leaf_commands(command)
        if not is_local(callback)
        for op_name in presented(callback)
        if op_name not in operations or operations[op_name].rest is None
    )
