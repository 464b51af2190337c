"""The plugin host: builds a pluggy manager, loads built-ins and entry points, collects registrations.

Built-in plugins are listed by module name in ``DEFAULT_PLUGINS`` so ``ctx.core`` never imports
``ctx.plugins`` directly. Third-party plugins arrive through the ``ctx`` entry-point group;
``CTX_LOAD_PLUGINS`` (comma-separated names, or empty for none) limits which of those load.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import pluggy

from ctx.core import hookspecs
from ctx.core.errors import PluginError

DEFAULT_PLUGINS: tuple[str, ...] = (
    "ctx.plugins.block_types",
    "ctx.plugins.embed_local",
    "ctx.plugins.embed_openai",
    "ctx.plugins.temporal_en",
    "ctx.plugins.temporal_de",
)


@dataclass
class PluginInfo:
    name: str
    source: str  # "builtin" or the distribution that provided the entry point
    version: str
    hooks: list[str] = field(default_factory=list)


def _entry_points() -> list[importlib.metadata.EntryPoint]:
    return list(importlib.metadata.entry_points(group=hookspecs.PROJECT))


def _wanted_entry_points() -> set[str] | None:
    raw = os.environ.get("CTX_LOAD_PLUGINS")
    if raw is None:
        return None
    return {name.strip() for name in raw.split(",") if name.strip()}


def create_plugin_manager(
    builtins: Iterable[str] = DEFAULT_PLUGINS,
    load_entry_points: bool = True,
) -> pluggy.PluginManager:
    """Return a new manager with the built-ins and (optionally) the entry-point plugins registered.

    Two plugins under one name stop start-up with an error naming both.
    """
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    sources: dict[str, str] = {}
    for module_name in builtins:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError:
            # A built-in whose module is not installed is simply absent (e.g. an optional extra).
            if module_name.startswith("ctx.plugins."):
                continue
            raise
        pm.register(module, name=module_name)
        sources[module_name] = "builtin"
    if load_entry_points:
        wanted = _wanted_entry_points()
        for ep in _entry_points():
            if wanted is not None and ep.name not in wanted:
                continue
            dist = ep.dist.name if ep.dist else "unknown"
            if ep.name in sources or pm.get_plugin(ep.name) is not None:
                raise PluginError(
                    f"duplicate plugin name {ep.name!r}: provided by {sources.get(ep.name)} "
                    f"and by {dist}"
                )
            try:
                plugin = ep.load()
            except Exception as exc:  # a broken third-party plugin must not crash silently
                raise PluginError(f"plugin {ep.name!r} from {dist} failed to load: {exc}") from exc
            pm.register(plugin, name=ep.name)
            sources[ep.name] = dist
    pm._ctx_sources = sources  # type: ignore[attr-defined]
    return pm


def plugin_infos(pm: pluggy.PluginManager) -> list[PluginInfo]:
    """Describe every registered plugin: name, source, version and implemented hooks."""
    sources: dict[str, str] = getattr(pm, "_ctx_sources", {})
    infos = []
    for name, plugin in pm.list_name_plugin():
        if plugin is None:
            continue
        source = sources.get(name, "builtin")
        version = _version_of(source)
        hooks = sorted(impl.name for impl in (pm.get_hookcallers(plugin) or []))
        infos.append(PluginInfo(name=name, source=source, version=version, hooks=hooks))
    return infos


def _version_of(source: str) -> str:
    dist = "ctx-brain" if source == "builtin" else source
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


@dataclass
class Registration:
    plugin: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]


def collect(pm: pluggy.PluginManager, hook_name: str) -> list[Registration]:
    """Call a register-shaped hook on every plugin and return what each one registered.

    Registrations keep the name of the plugin that made them, so duplicates can name both sides.
    """
    out: list[Registration] = []
    caller = getattr(pm.hook, hook_name)
    # pluggy keeps implementations in registration order (and calls them in reverse): keep it.
    for impl in caller.get_hookimpls():

        def register(*args: Any, _plugin: str = impl.plugin_name, **kwargs: Any) -> None:
            out.append(Registration(_plugin, args, kwargs))

        impl.function(register)
    return out


def unique_by_name(
    registrations: list[Registration], key: Callable[[Registration], str], what: str
) -> dict[str, Registration]:
    """Index registrations by name; every duplicate is reported in one error naming both plugins."""
    seen: dict[str, Registration] = {}
    problems = []
    for reg in registrations:
        name = key(reg)
        if name in seen:
            problems.append(
                f"{what} {name!r} registered twice: by {seen[name].plugin} and by {reg.plugin}"
            )
        else:
            seen[name] = reg
    if problems:
        raise PluginError("; ".join(problems))
    return seen
