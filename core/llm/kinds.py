"""Backend kinds registered by plugins (``register_backend_kinds``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ctx.core.errors import PluginError
from ctx.core.runtime import PluginHost, unique_by_name

NAME_RE = re.compile(r"^[a-z][a-z0-9_-]{0,49}$")
BackendFactory = Callable[[Mapping[str, Any]], Any]


@dataclass(frozen=True)
class BackendKind:
    """``factory(row)`` returns a client for one backend row (a plain dict: base URL, model map,
    options); ``roles`` lists the roles the kind can serve (synthesis, embed, rerank, ...)."""

    name: str
    factory: BackendFactory
    roles: tuple[str, ...] = ()
    description: str = ""


def backend_kinds(host: PluginHost) -> dict[str, BackendKind]:
    """Every registered kind by name; malformed or duplicate registrations stop start-up."""
    regs = host.registrations("register_backend_kinds")
    problems = []
    for reg in regs:
        kind = reg.args[0] if len(reg.args) == 1 and not reg.kwargs else None
        if not isinstance(kind, BackendKind) or not callable(kind.factory):
            problems.append(f"plugin {reg.plugin} must call register(BackendKind(...))")
        elif not NAME_RE.match(kind.name):
            problems.append(f"plugin {reg.plugin} registered an invalid backend kind {kind.name!r}")
    if problems:
        raise PluginError("; ".join(problems))
    by_name = unique_by_name(regs, lambda r: r.args[0].name, "backend kind")
    return {name: reg.args[0] for name, reg in by_name.items()}
