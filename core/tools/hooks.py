"""The tools capability as a plugin of the core: the built-in tools."""

from __future__ import annotations

from collections.abc import Callable

from ctx.core.hookspecs import hookimpl
from ctx.core.tools.builtin import BUILTIN_TOOLS
from ctx.core.tools.spec import Tool


@hookimpl
def register_mcp_tools(register: Callable[[Tool], None]) -> None:
    for tool in BUILTIN_TOOLS:
        register(tool)
