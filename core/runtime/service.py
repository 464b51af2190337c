"""The runtime's operations: settings by key, the loaded plugins, liveness and the version."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ctx.core.operations import Reply
from ctx.core.runtime.plugin_host import installed_version
from ctx.core.runtime.setting_writes import set_setting, unset_setting

if TYPE_CHECKING:
    from ctx.core.app import App
    from ctx.core.runtime.schemas import SettingChange, SettingKey


def setting_row(app: App, key: str) -> dict[str, Any]:
    """One setting as ``Settings.describe`` shows it (a secret's value left out); an unknown key
    is a 404."""
    app.registry.get(key)
    return next(row for row in app.settings.describe() if row["key"] == key)


def list_settings(app: App, who: Any, _: None) -> dict[str, Any]:
    return {"settings": app.settings.describe()}


def show_setting(app: App, who: Any, given: SettingKey) -> dict[str, Any]:
    return setting_row(app, given.key)


def change_setting(app: App, who: Any, given: SettingChange) -> dict[str, Any]:
    set_setting(app, given.key, given.value)
    return setting_row(app, given.key)


def reset_setting(app: App, who: Any, given: SettingKey) -> dict[str, Any]:
    unset_setting(app, given.key)
    return setting_row(app, given.key)


def plugin_rows(app: App) -> list[dict[str, Any]]:
    """Every loaded plugin: name, source, version and the hooks it implements."""
    return [vars(info) for info in app.host.infos()]


def list_plugins(app: App, who: Any, _: None) -> dict[str, Any]:
    return {"plugins": plugin_rows(app)}


def health(app: App, who: None, _: None) -> dict[str, str] | Reply:
    """Whether the database answers, and nothing else: anyone may ask. ``warming`` (still 200:
    it answers) while ctxd loads what the first query needs."""
    try:
        with app.connection() as conn:
            conn.execute("SELECT 1")
    except Exception:
        return Reply(503, {"status": "unavailable"})
    return {"status": "warming" if app.warmup.warming else "ok"}


def server_version(app: App, who: Any, _: None) -> dict[str, str]:
    return {"version": installed_version()}
