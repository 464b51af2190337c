"""Calling a tool: validate the arguments, run the handler, say what went wrong in words an agent
can act on. Every surface that offers tools (MCP over HTTP and stdio) calls through here."""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pydantic

from ctx.core.access import charge_limits
from ctx.core.errors import CtxError
from ctx.core.validation import error_message

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App

log = logging.getLogger("ctx.tools")


@dataclass(frozen=True)
class ToolOutcome:
    """A result (``error`` None) or an error message; ``code`` is the ``CtxError`` code."""

    result: Any = None
    error: str | None = None
    code: str | None = None


def describe_arguments(exc: pydantic.ValidationError) -> str:
    """The first few problems of a validation error, one phrase each ("limit: must be at most 20")."""
    parts = []
    for err in exc.errors()[:5]:
        loc = ".".join(str(p) for p in err.get("loc", ()))
        parts.append(f"{loc}: {error_message(dict(err))}" if loc else error_message(dict(err)))
    return "; ".join(parts) or "invalid arguments"


def call_tool(app: App, who: Principal, name: str, arguments: Any) -> ToolOutcome:
    """Run tool ``name`` for ``who`` (synchronous: async surfaces call it through
    ``app.bridge.run_sync``); never raises for anything the caller sent."""
    tool = app.tools.get(name)
    if tool is None:
        known = ", ".join(sorted(app.tools))
        return ToolOutcome(error=f"unknown tool {name!r}; tools: {known}", code="not_found")
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        return ToolOutcome(error="arguments must be a JSON object", code="invalid")
    try:
        args = tool.input_model.model_validate(arguments)
    except pydantic.ValidationError as exc:
        return ToolOutcome(error=f"invalid arguments: {describe_arguments(exc)}", code="invalid")
    except CtxError as exc:
        return ToolOutcome(error=exc.message, code=exc.code)
    try:
        charge_limits(app, who, *tool.limit_kinds(app, args))
        return ToolOutcome(result=app.bridge.resolve(tool.handler(app, who, args)))
    except CtxError as exc:
        return ToolOutcome(error=exc.message, code=exc.code)
    except pydantic.ValidationError as exc:
        return ToolOutcome(error=f"invalid arguments: {describe_arguments(exc)}", code="invalid")
    except Exception:
        ref = uuid.uuid4().hex[:12]
        log.exception("tool %s failed (ref %s)", name, ref)
        return ToolOutcome(
            error=f"internal error in tool {name!r} (ref {ref}; the server log has details)",
            code="internal",
        )
