"""Throw-away plugins for tests: a plugin that registers given things, and a host holding some.

host = host_with(("p", registers("register_job_handlers", JobHandler("x", handle))))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ctx.core import hookimpl
from ctx.core.runtime import PluginHost


def registers(hook_name: str, *items: Any, spread: bool = False) -> object:
    """A plugin implementing ``hook_name`` that calls ``register(item)`` once per item
    (``register(*item)`` with ``spread``)."""

    def hook(self: object, register: Callable[..., None]) -> None:
        for item in items:
            if spread:
                register(*item)
            else:
                register(item)

    hook.__name__ = hook_name
    return type("Registers", (), {hook_name: hookimpl(hook)})()


def host_with(*plugins: tuple[str, object], builtins: tuple[str, ...] = ()) -> PluginHost:
    """A host with the core's capabilities, ``builtins`` (stable names) and ``plugins``."""
    host = PluginHost(builtins, load_entry_points=False, environ={})
    for name, plugin in plugins:
        host.register(plugin, name)
    return host
