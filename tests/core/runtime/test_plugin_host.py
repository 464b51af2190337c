"""The plugin host: load order, entry points, registrations that name their plugin, duplicates,
misspelled hooks, tracing, and hooks called through pluggy."""

from __future__ import annotations

import importlib.metadata
import logging
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pluggy
import pytest
from plugin_kit import host_with

from ctx.core import App, ConfigError, PluginError, Setting, hookimpl
from ctx.core.blocks import registered_types
from ctx.core.runtime import CORE_PLUGINS, DEFAULT_PLUGINS, PluginHost, Registration, unique_by_name
from ctx.core.runtime import plugin_host as plugin_host_module

BUILTIN_TYPES = "block-types"


class TypePlugin:
    """Registers block types given as mappings."""

    def __init__(self, *rows: dict[str, Any]) -> None:
        self.rows = rows

    @hookimpl
    def register_block_types(self, register: Callable[..., None]) -> None:
        for row in self.rows:
            register(row)


def _not_core(host: PluginHost) -> list[str]:
    return [i.name for i in host.infos() if i.source != "core"]


def _fake_entry_point(name: str, value: str) -> importlib.metadata.EntryPoint:
    return importlib.metadata.EntryPoint(name=name, value=value, group="ctx")


def test_core_capabilities_load_first_then_builtins_by_stable_name() -> None:
    host = PluginHost(load_entry_points=False, environ={})
    infos = host.infos()
    assert [i.name for i in infos] == [*CORE_PLUGINS, *DEFAULT_PLUGINS]
    assert {i.source for i in infos[: len(CORE_PLUGINS)]} == {"core"}
    assert {i.source for i in infos[len(CORE_PLUGINS) :]} == {"builtin"}
    assert all(i.version for i in infos)
    # A stable name says nothing about where the module lives.
    assert host.module_of("embed-local").__name__ == DEFAULT_PLUGINS["embed-local"]  # type: ignore[union-attr]


def test_builtins_describe_themselves_and_registrations_keep_load_order() -> None:
    host = host_with(("notes-plugin", TypePlugin({"name": "notes"})), builtins=(BUILTIN_TYPES,))
    infos = {info.name: info for info in host.infos()}
    assert infos[BUILTIN_TYPES].source == "builtin"
    assert infos[BUILTIN_TYPES].hooks == ["register_block_types"]
    assert infos["notes-plugin"].hooks == ["register_block_types"]

    registrations = host.registrations("register_block_types")
    assert [r.plugin for r in registrations][-1] == "notes-plugin"  # load order, not LIFO
    assert {r.plugin for r in registrations[:-1]} == {BUILTIN_TYPES}
    names = [spec.name for _, spec in registered_types(host)]
    assert names[-1] == "notes" and "knowledge" in names


def test_builtins_may_be_given_by_module_path_and_missing_ones_are_skipped() -> None:
    host = host_with(builtins=("ctx.plugins.block_types", "ctx.plugins.not_installed"))
    assert _not_core(host) == ["ctx.plugins.block_types"]
    with pytest.raises(ModuleNotFoundError):
        host_with(builtins=("ctx_no_such_module",))


def test_duplicate_block_types_name_both_plugins() -> None:
    host = host_with(
        ("first", TypePlugin({"name": "knowledge"}, {"name": "notes"})),
        ("second", TypePlugin({"name": "notes"})),
        builtins=(BUILTIN_TYPES,),
    )
    with pytest.raises(PluginError) as caught:
        registered_types(host)
    message = caught.value.message
    assert f"'knowledge' registered twice: by {BUILTIN_TYPES} and by first" in message
    assert "'notes' registered twice: by first and by second" in message  # every duplicate


def test_invalid_block_types_name_their_plugin() -> None:
    host = host_with(
        ("p1", TypePlugin({"name": "ok"}, {"name": "bad", "guard_review": 0.99})),
        ("p2", TypePlugin({"name": "worse", "colour": "red"})),
    )
    with pytest.raises(PluginError) as caught:
        registered_types(host)
    assert "p1: block type 'bad'" in caught.value.message
    assert "p2: unknown block type fields: colour" in caught.value.message


def test_unique_by_name_indexes_registrations() -> None:
    regs = [Registration("a", ("x",), {}), Registration("b", ("y",), {})]
    index = unique_by_name(regs, lambda r: r.args[0], "thing")
    assert {k: v.plugin for k, v in index.items()} == {"x": "a", "y": "b"}


def test_entry_points_load_unless_filtered_or_duplicated(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("ctx_test_entry_plugin")
    module.register_block_types = hookimpl(  # type: ignore[attr-defined]
        lambda register: register({"name": "from-entry-point"})
    )
    monkeypatch.setitem(sys.modules, "ctx_test_entry_plugin", module)
    eps = [_fake_entry_point("entry-one", "ctx_test_entry_plugin")]
    monkeypatch.setattr(plugin_host_module, "_entry_points", lambda: eps)

    monkeypatch.delenv("CTX_LOAD_PLUGINS", raising=False)
    host = PluginHost((), load_entry_points=True)
    assert host.pm.get_plugin("entry-one") is module
    assert [i.source for i in host.infos() if i.source != "core"] == ["unknown"]  # no dist

    monkeypatch.setenv("CTX_LOAD_PLUGINS", "")
    assert _not_core(PluginHost((), load_entry_points=True)) == []
    monkeypatch.setenv("CTX_LOAD_PLUGINS", "other, entry-one")
    assert _not_core(PluginHost((), load_entry_points=True)) == ["entry-one"]
    # The App passes its own environment: the filter comes from there.
    assert _not_core(PluginHost((), environ={"CTX_LOAD_PLUGINS": "other"})) == []

    monkeypatch.delenv("CTX_LOAD_PLUGINS")
    eps.append(_fake_entry_point(BUILTIN_TYPES, "ctx_test_entry_plugin"))
    with pytest.raises(PluginError) as caught:
        PluginHost((BUILTIN_TYPES,), load_entry_points=True)
    assert f"duplicate plugin name {BUILTIN_TYPES!r}" in caught.value.message
    assert "builtin" in caught.value.message and "unknown" in caught.value.message

    eps[:] = [_fake_entry_point("broken", "ctx_no_such_module_anywhere")]
    with pytest.raises(PluginError, match="plugin 'broken' from unknown failed to load"):
        PluginHost((), load_entry_points=True)


class Misspelled:
    @hookimpl
    def register_blok_types(self, register: Callable[..., None]) -> None:
        register({"name": "never"})


def test_a_misspelled_hook_stops_start_up_naming_the_plugin(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(PluginError) as caught:
        host_with(("typo-plugin", Misspelled()))
    assert "plugin 'typo-plugin' implements unknown hook 'register_blok_types'" in (
        caught.value.message
    )
    # Through an App (as ctxd and the CLI start), from an entry point: the same error.
    module = types.ModuleType("ctx_test_typo_plugin")
    module.register_blok_types = Misspelled.register_blok_types  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ctx_test_typo_plugin", module)
    monkeypatch.setattr(
        plugin_host_module, "_entry_points", lambda: [_fake_entry_point("typo", module.__name__)]
    )
    with pytest.raises(PluginError, match="plugin 'typo' implements unknown hook"):
        App(builtins=(), environ={})


def test_an_implementation_with_unknown_arguments_names_the_plugin() -> None:
    class WrongArgs:
        @hookimpl
        def register_block_types(self, register: Any, colour: str) -> None:
            raise AssertionError("never called")

    with pytest.raises(PluginError, match=r"plugin 'wrong-args' .* is invalid"):
        host_with(("wrong-args", WrongArgs()))


def test_an_optional_hook_of_another_version_is_allowed() -> None:
    class Future:
        @hookimpl(optionalhook=True)
        def register_something_new(self, register: Any) -> None:
            raise AssertionError("never called")

    assert "future" in _not_core(host_with(("future", Future())))


class Recorder:
    def __init__(self, name: str, calls: list[str], fail: bool = False) -> None:
        self.name, self.calls, self.fail = name, calls, fail

    @hookimpl
    def on_block_written(self, block: dict[str, Any], action: str) -> str:
        self.calls.append(self.name)
        if self.fail:
            raise RuntimeError(f"{self.name} broke")
        return f"{self.name}:{action}"


def test_hooks_are_called_through_pluggy_in_load_order() -> None:
    calls: list[str] = []
    host = host_with(("one", Recorder("one", calls)), ("two", Recorder("two", calls)))
    monitored: list[str] = []
    host.pm.add_hookcall_monitoring(
        lambda name, impls, kwargs: monitored.append(name), lambda *args: None
    )
    assert host.call("on_block_written", app=None, block={}, action="created") == [
        "one:created",
        "two:created",
    ]
    assert calls == ["one", "two"]  # registration order, not pluggy's LIFO
    # each plugin's call went through pluggy (core.blocks, which announces writes, and
    # core.retrieval, which watches deletes, too)
    assert monitored == ["on_block_written"] * 4
    # pluggy's own caller reaches the same implementations.
    results = host.pm.hook.on_block_written(app=None, block={}, action="x")
    assert sorted(r for r in results if r) == ["one:x", "two:x"]


def test_notify_isolates_a_failing_plugin(caplog: pytest.LogCaptureFixture) -> None:
    calls: list[str] = []
    host = host_with(("bad", Recorder("bad", calls, fail=True)), ("good", Recorder("good", calls)))
    with caplog.at_level(logging.ERROR, logger="ctx.plugins"):
        host.notify("on_block_written", app=None, block={}, action="updated")
    assert calls == ["bad", "good"]
    assert "plugin bad failed in on_block_written" in caplog.text
    with pytest.raises(RuntimeError, match="bad broke"):
        host.call("on_block_written", app=None, block={}, action="updated")


def test_hook_results_may_be_callables_or_awaitables() -> None:
    class Lazy:
        @hookimpl
        def on_startup(self, app: Any) -> Any:
            return lambda: "called"

    class Async:
        @hookimpl
        def on_startup(self, app: Any) -> Any:
            async def later() -> str:
                return "awaited"

            return later()

    host = host_with(("lazy", Lazy()), ("async", Async()))
    try:
        assert host.call("on_startup", app=None) == ["called", "awaited"]
    finally:
        host.bridge.close()


def test_trace_switch_logs_every_hook_call(caplog: pytest.LogCaptureFixture) -> None:
    calls: list[str] = []
    host = PluginHost((), load_entry_points=False, environ={"CTX_TRACE_PLUGINS": "1"})
    host.register(Recorder("traced", calls), "traced")
    with caplog.at_level(logging.DEBUG, logger="ctx.plugins.trace"):
        host.call("on_block_written", app=None, block={"id": "b1"}, action="created")
        host.registrations("register_settings")  # the core's capabilities implement it
    text = caplog.text
    assert "on_block_written" in text and "action: created" in text and "traced:created" in text
    assert "register_settings" in text
    caplog.clear()
    quiet = PluginHost((), load_entry_points=False, environ={})
    quiet.register(Recorder("quiet", calls), "quiet")
    with caplog.at_level(logging.DEBUG, logger="ctx.plugins.trace"):
        quiet.call("on_block_written", app=None, block={}, action="created")
    assert "on_block_written" not in caplog.text  # tracing is off by default


def test_one_manager_per_app() -> None:
    first, second = App(environ={}), App(environ={})
    assert isinstance(first.pm, pluggy.PluginManager)
    assert first.pm is not second.pm and first.host is not second.host


def _plugin_module(monkeypatch: pytest.MonkeyPatch, name: str, **hooks: Any) -> str:
    module = types.ModuleType(name)
    for hook_name, function in hooks.items():
        function.__name__ = hook_name
        setattr(module, hook_name, hookimpl(function))
    monkeypatch.setitem(sys.modules, name, module)
    return name


def test_app_start_stops_on_duplicate_registrations(
    monkeypatch: pytest.MonkeyPatch, database_url: str, tmp_path: Path
) -> None:
    def add_limit(register: Callable[..., None]) -> None:
        register(Setting("search.default_limit", int, 3, "again"))

    dup_setting = _plugin_module(monkeypatch, "ctx_test_dup_setting", register_settings=add_limit)
    with pytest.raises(
        ConfigError,
        match=r"'search\.default_limit' declared twice \(by core\.blocks, .*dup_setting",
    ):
        App(
            database_url=database_url,
            home=tmp_path,
            builtins=[dup_setting],
            load_entry_points=False,
        )

    def add_knowledge(register: Callable[..., None]) -> None:
        register({"name": "knowledge"})

    dup_type = _plugin_module(monkeypatch, "ctx_test_dup_type", register_block_types=add_knowledge)
    app = App(
        database_url=database_url,
        home=tmp_path,
        builtins=[BUILTIN_TYPES, dup_type],
        load_entry_points=False,
    )
    with pytest.raises(PluginError, match=f"by {BUILTIN_TYPES} and by {dup_type}"):
        app.open()
    assert app.db.pool is None and not app.started  # nothing was started


def test_a_registration_hook_that_raises_names_its_plugin() -> None:
    class Broken:
        @hookimpl
        def register_settings(self, register: Callable[..., None]) -> None:
            raise KeyError("forgot something")

    with pytest.raises(PluginError, match=r"plugin 'broken' failed in register_settings: KeyError"):
        host_with(("broken", Broken())).registrations("register_settings")
