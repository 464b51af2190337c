"""The plugin host: one pluggy manager per ``App``, and every way the core calls hooks through it.

Plugins load in three groups, in this order: the core's own capability plugins (``CORE_PLUGINS``),
the built-ins (``DEFAULT_PLUGINS``, stable name -> module, so ``ctx.core`` never imports
``ctx.plugins`` or ``ctx.ui``) and third-party plugins from the ``ctx`` entry-point group, which
``CTX_LOAD_PLUGINS`` (comma-separated names; empty for none) limits.

Every hook is called through pluggy. Where the core needs to know which plugin did what (a
registration, a command, a failure), it calls the hook one plugin at a time through a pluggy subset
caller, in load order. ``pm.check_pending()`` runs at start-up, so an implementation of a hook that
does not exist (a misspelling) stops start-up naming the plugin; ``CTX_TRACE_PLUGINS=1`` logs every
hook call with its arguments and result.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import logging
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, TypeVar

import pluggy

from ctx.core import hookspecs
from ctx.core.errors import CtxError, PluginError
from ctx.core.runtime.async_bridge import AsyncBridge
from ctx.core.runtime.versions import installed_version

log = logging.getLogger("ctx.plugins")
trace_log = logging.getLogger("ctx.plugins.trace")

#: The core's own capabilities register their settings, job handlers and query stages through the
#: same hooks as any plugin. Names are stable; the modules are core's own.
CORE_PLUGINS: Mapping[str, str] = {
    "core.runtime": "ctx.core.runtime.hooks",
    "core.access": "ctx.core.access.hooks",
    "core.llm": "ctx.core.llm.hooks",
    "core.blocks": "ctx.core.blocks.hooks",
    "core.blobs": "ctx.core.blobs.hooks",
    "core.embed": "ctx.core.embed.hooks",
    "core.temporal": "ctx.core.temporal.hooks",
    "core.retrieval": "ctx.core.retrieval.hooks",
    "core.guard": "ctx.core.guard.hooks",
    "core.graph": "ctx.core.graph.hooks",
    "core.graph.map": "ctx.core.graph.map_hooks",
    "core.evaluation": "ctx.core.evaluation.hooks",
    "core.governor": "ctx.core.governor.hooks",
    "core.status": "ctx.core.status.hooks",
}

#: Built-in plugins by stable name; moving a module changes the value only.
DEFAULT_PLUGINS: Mapping[str, str] = {
    "block-types": "ctx.plugins.block_types",
    "embed-local": "ctx.plugins.embed.local",
    "embed-openai": "ctx.plugins.embed.openai",
    "temporal-en": "ctx.plugins.temporal.en",
    "temporal-de": "ctx.plugins.temporal.de",
    "cache-redis": "ctx.plugins.cache_redis",
    "tokens": "ctx.plugins.tokens",
    "issues": "ctx.plugins.issues",
    "ingest": "ctx.plugins.ingest",
    "cli": "ctx.ui.cli.hooks",
}

TRUE_WORDS = {"1", "true", "yes", "on"}
T = TypeVar("T")


@dataclass
class PluginInfo:
    name: str
    source: str  # "core", "builtin" or the distribution that provided the entry point
    version: str
    hooks: list[str] = field(default_factory=list)


@dataclass
class Registration:
    """One call of a ``register`` callback, with the plugin that made it."""

    plugin: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]


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


def registered_objects(
    host: PluginHost,
    hook_name: str,
    cls: type[T],
    *,
    name: Callable[[T], str],
    what: str,
    check: Callable[[T], str | None] = lambda _obj: None,
    arguments: Mapping[str, Any] | None = None,
) -> dict[str, T]:
    """For hooks whose implementations call ``register(obj)`` with one ``cls`` instance: every
    object by ``name(obj)``. A malformed call, an object failing ``check`` (which returns a
    problem or ``None``) and a duplicate name stop start-up in one ``PluginError``. ``arguments``
    are the hook's other arguments."""
    regs = host.registrations(hook_name, **(arguments or {}))
    problems = []
    valid = []
    for reg in regs:
        obj = reg.args[0] if len(reg.args) == 1 and not reg.kwargs else None
        if not isinstance(obj, cls):
            problems.append(f"plugin {reg.plugin} must call register({cls.__name__}(...))")
        elif (problem := check(obj)) is not None:
            problems.append(f"plugin {reg.plugin}: {problem}")
        else:
            valid.append(reg)
    if problems:
        raise PluginError("; ".join(problems))
    by_name = unique_by_name(valid, lambda r: name(r.args[0]), what)
    return {key: reg.args[0] for key, reg in by_name.items()}


def _factory_problem(reg: Registration, what: str) -> str | None:
    one = ("an " if what[:1] in "aeiou" else "a ") + what
    if reg.kwargs or len(reg.args) != 2:
        return f"plugin {reg.plugin} must call register(name, factory) for {one}"
    name, factory = reg.args
    if not isinstance(name, str) or not name:
        return f"plugin {reg.plugin} registered {one} with an invalid name {name!r}"
    if not callable(factory):
        return f"plugin {reg.plugin} registered {what} {name!r} with a factory that is not callable"
    return None


def registered_factories(host: PluginHost, hook_name: str, what: str) -> dict[str, Any]:
    """For hooks whose implementations call ``register(name, factory)``: every factory by name.
    Malformed calls and duplicate names stop start-up in one ``PluginError``."""
    regs = host.registrations(hook_name)
    problems = [p for p in (_factory_problem(r, what) for r in regs) if p]
    if problems:
        raise PluginError("; ".join(problems))
    by_name = unique_by_name(regs, lambda r: r.args[0], what)
    return {name: reg.args[1] for name, reg in by_name.items()}


def _entry_points() -> list[importlib.metadata.EntryPoint]:
    return list(importlib.metadata.entry_points(group=hookspecs.PROJECT))


def _builtin_modules(builtins: Mapping[str, str] | Iterable[str]) -> list[tuple[str, str]]:
    """(name, module) pairs; a bare string is a stable name from DEFAULT_PLUGINS or a module path."""
    if isinstance(builtins, Mapping):
        return list(builtins.items())
    return [(b, DEFAULT_PLUGINS.get(b, b)) for b in builtins]


class PluginHost:
    """Owns the plugin manager: loading, validation, tracing and the calling conventions."""

    def __init__(
        self,
        builtins: Mapping[str, str] | Iterable[str] = DEFAULT_PLUGINS,
        *,
        load_entry_points: bool = True,
        environ: Mapping[str, str] | None = None,
        bridge: AsyncBridge | None = None,
        core: bool = True,
    ) -> None:
        """``core=False`` leaves out the core's own capabilities (the command line needs only
        the plugins' commands, and loading the capabilities costs what a thin client avoids)."""
        env = os.environ if environ is None else environ
        self.pm = pluggy.PluginManager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        self.bridge = bridge or AsyncBridge()
        self.sources: dict[str, str] = {}
        for name, core_module in CORE_PLUGINS.items() if core else ():
            self._register(importlib.import_module(core_module), name, "core")
        for name, module_name in _builtin_modules(builtins):
            try:
                module = importlib.import_module(module_name)
            except ModuleNotFoundError:
                # A built-in whose module is not installed is simply absent (an optional extra).
                if module_name.startswith("ctx.plugins."):
                    log.debug("built-in plugin %s (%s) is not installed", name, module_name)
                    continue
                raise
            self._register(module, name, "builtin")
        if load_entry_points:
            self._load_entry_points(env.get("CTX_LOAD_PLUGINS"))
        self._check_pending()
        if str(env.get("CTX_TRACE_PLUGINS", "")).strip().lower() in TRUE_WORDS:
            self.enable_tracing()

    # -- loading ---------------------------------------------------------------------------------

    def _register(self, plugin: object, name: str, source: str) -> None:
        if name in self.sources or self.pm.get_plugin(name) is not None:
            raise PluginError(
                f"duplicate plugin name {name!r}: provided by {self.sources.get(name)} and by "
                f"{source}"
            )
        try:
            self.pm.register(plugin, name=name)
        except pluggy.PluginValidationError as exc:
            raise PluginError(f"plugin {name!r} ({source}) is invalid: {exc}") from exc
        self.sources[name] = source

    def register(self, plugin: object, name: str, source: str = "test") -> None:
        """Add a plugin object after start (tests, embedding applications); validated as any."""
        self._register(plugin, name, source)
        self._check_pending()

    def _load_entry_points(self, wanted_raw: str | None) -> None:
        wanted = (
            None if wanted_raw is None else {n.strip() for n in wanted_raw.split(",") if n.strip()}
        )
        for ep in _entry_points():
            if wanted is not None and ep.name not in wanted:
                continue
            dist = ep.dist.name if ep.dist else "unknown"
            if ep.name in self.sources:
                raise PluginError(
                    f"duplicate plugin name {ep.name!r}: provided by {self.sources[ep.name]} "
                    f"and by {dist}"
                )
            try:
                plugin = ep.load()
            except Exception as exc:  # a broken third-party plugin must not crash silently
                raise PluginError(f"plugin {ep.name!r} from {dist} failed to load: {exc}") from exc
            self._register(plugin, ep.name, dist)

    def _check_pending(self) -> None:
        """Every implementation must match a hookspec: a misspelled hook name stops start-up."""
        problems = []
        for hook_name in sorted(vars(self.pm.hook)):
            caller = getattr(self.pm.hook, hook_name)
            if not isinstance(caller, pluggy.HookCaller) or caller.has_spec():
                continue
            for impl in caller.get_hookimpls():
                if not impl.optionalhook:
                    problems.append(
                        f"plugin {impl.plugin_name!r} implements unknown hook {hook_name!r}"
                    )
        if problems:
            raise PluginError(
                "; ".join(problems) + " (see docs/plugin-hooks.md for the hooks that exist)"
            )
        self.pm.check_pending()

    def enable_tracing(self) -> None:
        """Log every hook call and its result on the ``ctx.plugins.trace`` logger."""
        if not trace_log.handlers and not logging.getLogger().handlers:
            handler = logging.StreamHandler(sys.stderr)
            handler.setFormatter(logging.Formatter("%(message)s"))
            trace_log.addHandler(handler)
        trace_log.setLevel(logging.DEBUG)
        self.pm.trace.root.setwriter(lambda text: trace_log.debug(text.rstrip("\n")))
        self.pm.enable_tracing()

    # -- calling ---------------------------------------------------------------------------------

    def each_plugin(self, hook_name: str) -> Iterator[tuple[str, Callable[..., list[Any]]]]:
        """Per implementing plugin, in load order: its name and a pluggy caller for it alone."""
        caller = getattr(self.pm.hook, hook_name)
        impls = caller.get_hookimpls()
        for impl in impls:
            others = [i.plugin for i in impls if i.plugin_name != impl.plugin_name]
            yield impl.plugin_name, self.pm.subset_hook_caller(hook_name, remove_plugins=others)

    def registrations(self, hook_name: str, **kwargs: Any) -> list[Registration]:
        """Call a register-shaped hook plugin by plugin; return what each one registered."""
        out: list[Registration] = []
        for plugin, call in self.each_plugin(hook_name):

            def register(*args: Any, _plugin: str = plugin, **kw: Any) -> None:
                out.append(Registration(_plugin, args, kw))

            try:
                call(register=register, **kwargs)
            except CtxError:
                raise  # already says what is wrong
            except Exception as exc:  # a broken plugin stops start-up with its name, not a trace
                raise PluginError(f"plugin {plugin!r} failed in {hook_name}: {exc!r}") from exc
        return out

    def call(self, hook_name: str, **kwargs: Any) -> list[Any]:
        """Call every implementation in load order and resolve each result; errors propagate."""
        return [self.bridge.resolve(r) for r in self._results(hook_name, kwargs)]

    def notify(self, hook_name: str, **kwargs: Any) -> None:
        """Call every implementation; one failing is logged and the others still run.

        For event hooks about work that is already committed: a plugin must never undo it.
        """
        for plugin, call in self.each_plugin(hook_name):
            try:
                for result in call(**kwargs):
                    self.bridge.resolve(result)
            except Exception:
                log.exception("plugin %s failed in %s", plugin, hook_name)

    def _results(self, hook_name: str, kwargs: dict[str, Any]) -> Iterator[Any]:
        for _plugin, call in self.each_plugin(hook_name):
            yield from call(**kwargs)

    # -- introspection ---------------------------------------------------------------------------

    def infos(self) -> list[PluginInfo]:
        """Every registered plugin: name, source, version and implemented hooks."""
        out = []
        for name, plugin in self.pm.list_name_plugin():
            if plugin is None:
                continue
            source = self.sources.get(name, "builtin")
            hooks = sorted(caller.name for caller in (self.pm.get_hookcallers(plugin) or []))
            out.append(
                PluginInfo(name=name, source=source, version=_version_of(source), hooks=hooks)
            )
        return out

    def module_of(self, name: str) -> ModuleType | None:
        plugin = self.pm.get_plugin(name)
        return plugin if isinstance(plugin, ModuleType) else None


def _version_of(source: str) -> str:
    return installed_version("ctx-brain" if source in ("builtin", "core") else source)
