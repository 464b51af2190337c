"""The plugin host: built-ins, entry points, registrations that name their plugin, duplicates."""

from __future__ import annotations

import importlib.metadata
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ctx.core import plugins
from ctx.core import types as block_types
from ctx.core.app import App
from ctx.core.errors import ConfigError, PluginError
from ctx.core.hookspecs import hookimpl
from ctx.core.plugins import collect, create_plugin_manager, plugin_infos, unique_by_name
from ctx.core.settings import Setting

BUILTIN_TYPES = "ctx.plugins.block_types"


class TypePlugin:
    """Registers block types given as mappings."""

    def __init__(self, *rows: dict[str, Any]) -> None:
        self.rows = rows

    @hookimpl
    def register_block_types(self, register: Callable[..., None]) -> None:
        for row in self.rows:
            register(row)


def _fake_entry_point(name: str, value: str) -> importlib.metadata.EntryPoint:
    return importlib.metadata.EntryPoint(name=name, value=value, group="ctx")


def test_builtins_load_and_describe_themselves() -> None:
    pm = create_plugin_manager(builtins=[BUILTIN_TYPES], load_entry_points=False)
    pm.register(TypePlugin({"name": "notes"}), name="notes-plugin")
    infos = {info.name: info for info in plugin_infos(pm)}
    assert set(infos) == {BUILTIN_TYPES, "notes-plugin"}
    assert infos[BUILTIN_TYPES].source == "builtin"
    assert infos[BUILTIN_TYPES].hooks == ["register_block_types"]
    assert infos["notes-plugin"].hooks == ["register_block_types"]
    assert infos[BUILTIN_TYPES].version

    registrations = collect(pm, "register_block_types")
    assert [r.plugin for r in registrations][-1] == "notes-plugin"  # load order
    assert {r.plugin for r in registrations[:-1]} == {BUILTIN_TYPES}
    names = [name for _, spec in block_types.registered_types(pm) for name in [spec.name]]
    assert names[-1] == "notes" and "knowledge" in names


def test_missing_builtins_are_skipped_only_under_ctx_plugins() -> None:
    pm = create_plugin_manager(builtins=["ctx.plugins.not_installed"], load_entry_points=False)
    assert pm.list_name_plugin() == []
    with pytest.raises(ModuleNotFoundError):
        create_plugin_manager(builtins=["ctx_no_such_module"], load_entry_points=False)


def test_duplicate_block_types_name_both_plugins() -> None:
    pm = create_plugin_manager(builtins=[BUILTIN_TYPES], load_entry_points=False)
    pm.register(TypePlugin({"name": "knowledge"}, {"name": "notes"}), name="first")
    pm.register(TypePlugin({"name": "notes"}), name="second")
    with pytest.raises(PluginError) as caught:
        block_types.registered_types(pm)
    message = caught.value.message
    assert f"'knowledge' registered twice: by {BUILTIN_TYPES} and by first" in message
    assert "'notes' registered twice: by first and by second" in message  # every duplicate


def test_invalid_block_types_name_their_plugin() -> None:
    pm = create_plugin_manager(builtins=[], load_entry_points=False)
    pm.register(TypePlugin({"name": "ok"}, {"name": "bad", "guard_review": 0.99}), name="p1")
    pm.register(TypePlugin({"name": "worse", "colour": "red"}), name="p2")
    with pytest.raises(PluginError) as caught:
        block_types.registered_types(pm)
    assert "p1: block type 'bad'" in caught.value.message
    assert "p2: unknown block type fields: colour" in caught.value.message


def test_unique_by_name_indexes_registrations() -> None:
    regs = [plugins.Registration("a", ("x",), {}), plugins.Registration("b", ("y",), {})]
    index = unique_by_name(regs, lambda r: r.args[0], "thing")
    assert {k: v.plugin for k, v in index.items()} == {"x": "a", "y": "b"}


def test_entry_points_load_unless_filtered_or_duplicated(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("ctx_test_entry_plugin")
    module.register_block_types = hookimpl(  # type: ignore[attr-defined]
        lambda register: register({"name": "from-entry-point"})
    )
    monkeypatch.setitem(sys.modules, "ctx_test_entry_plugin", module)
    eps = [_fake_entry_point("entry-one", "ctx_test_entry_plugin")]
    monkeypatch.setattr(plugins, "_entry_points", lambda: eps)

    monkeypatch.delenv("CTX_LOAD_PLUGINS", raising=False)
    pm = create_plugin_manager(builtins=[], load_entry_points=True)
    assert pm.get_plugin("entry-one") is module
    assert [i.source for i in plugin_infos(pm)] == ["unknown"]  # no distribution behind it

    monkeypatch.setenv("CTX_LOAD_PLUGINS", "")
    assert create_plugin_manager(builtins=[], load_entry_points=True).list_name_plugin() == []
    monkeypatch.setenv("CTX_LOAD_PLUGINS", "other, entry-one")
    assert create_plugin_manager(builtins=[], load_entry_points=True).has_plugin("entry-one")

    monkeypatch.delenv("CTX_LOAD_PLUGINS")
    eps.append(_fake_entry_point(BUILTIN_TYPES, "ctx_test_entry_plugin"))
    with pytest.raises(PluginError) as caught:
        create_plugin_manager(builtins=[BUILTIN_TYPES], load_entry_points=True)
    assert f"duplicate plugin name {BUILTIN_TYPES!r}" in caught.value.message
    assert "builtin" in caught.value.message and "unknown" in caught.value.message

    eps[:] = [_fake_entry_point("broken", "ctx_no_such_module_anywhere")]
    with pytest.raises(PluginError, match="plugin 'broken' from unknown failed to load"):
        create_plugin_manager(builtins=[], load_entry_points=True)


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
    with pytest.raises(ConfigError, match=r"'search\.default_limit' declared twice.*dup_setting"):
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
    assert app.db.pool is None and not app.started  # a failed start lets go of the database
