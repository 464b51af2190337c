"""What a route's endpoint says about itself: the operation it was derived from, or, for a page of
the workbench, the per-key limits a request counts against.

``charge_request`` reads these marks from the matched route, so a route's kinds are declared on
the route itself (by its operation, or by ``@charges`` on a page) and no list elsewhere must be
kept in step with the routes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ctx.core.operations import KIND_LIMITS, Kind, Operation

F = TypeVar("F", bound=Callable[..., Any])

OPERATION_ATTR = "__ctx_operation__"
LIMITS_ATTR = "__ctx_limits__"


def mark_operation(endpoint: F, op: Operation) -> F:
    setattr(endpoint, OPERATION_ATTR, op)
    return endpoint


def operation_of(endpoint: Any) -> Operation | None:
    """The operation a route's endpoint was derived from (None for pages and documentation)."""
    op = getattr(endpoint, OPERATION_ATTR, None)
    return op if isinstance(op, Operation) else None


def charges(*kinds: Kind) -> Callable[[F], F]:
    """Declare what a workbench page counts against when its method's default (a GET reads,
    anything else writes) is not the truth: ``@charges("read")`` on a POST that only reads,
    ``@charges("write", "model")`` on one that asks a model."""
    limits = tuple(KIND_LIMITS[k] for k in kinds)

    def mark(endpoint: F) -> F:
        setattr(endpoint, LIMITS_ATTR, limits)
        return endpoint

    return mark


def declared_limits(endpoint: Any) -> tuple[str, ...] | None:
    """The limits a route's endpoint declares (its operation's, or a page's ``@charges``)."""
    op = operation_of(endpoint)
    if op is not None:
        return op.limits
    limits = getattr(endpoint, LIMITS_ATTR, None)
    return tuple(limits) if limits is not None else None
