"""The settings registry: typed coercion, default < env < database, validation, hot vs frozen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ctx.core import App, ConfigError, NotFound, ValidationError
from ctx.core.runtime import Registry, Setting, Settings, set_setting, unset_setting


def core_registry() -> Registry:
    """The settings the core's own capabilities register (no built-in plugins)."""
    return App(builtins=(), load_entry_points=False, environ={}).registry


def _source(settings: Settings, key: str) -> dict[str, Any]:
    return next(s for s in settings.describe() if s["key"] == key)


def test_coercion_turns_every_source_into_the_declared_type() -> None:
    flag = Setting("a.flag", bool, False, "h")
    count = Setting("a.count", int, 1, "h", minimum=1, maximum=10)
    ratio = Setting("a.ratio", float, 0.5, "h")
    names = Setting("a.names", list, [], "h")
    level = Setting("a.level", str, "info", "h", choices=("info", "debug"))

    assert [flag.coerce(v) for v in ("yes", " TRUE ", "1", "on", True)] == [True] * 5
    assert [flag.coerce(v) for v in ("no", "False", "0", "off", False)] == [False] * 5
    assert count.coerce("7") == 7 and count.coerce(7.0) == 7
    assert ratio.coerce("0.25") == 0.25 and ratio.coerce(1) == 1.0
    assert names.coerce("a, b,,c") == ["a", "b", "c"]
    assert names.coerce('["x", 2]') == ["x", "2"]
    assert names.coerce(("y",)) == ["y"]
    assert level.coerce("debug") == "debug"
    assert flag.env == "CTX_A_FLAG"

    bad: list[tuple[Setting, Any, str]] = [
        (flag, "maybe", "true or false"),
        (flag, 1, "true or false"),
        (count, "seven", "integer"),
        (count, 2.5, "integer"),
        (count, True, "integer"),
        (count, 0, ">= 1"),
        (count, 11, "<= 10"),
        (ratio, "half", "number"),
        (ratio, False, "number"),
        (names, "[broken", "a.names"),
        (level, "trace", "one of info, debug"),
        (level, 5, "string"),
    ]
    for setting, raw, expected in bad:
        with pytest.raises(ValidationError) as caught:
            setting.coerce(raw)
        assert caught.value.field == setting.key
        assert setting.key in caught.value.message and expected in caught.value.message


def test_registry_refuses_duplicates_and_bad_defaults() -> None:
    reg = Registry()
    reg.add(Setting("x.one", int, 1, "h"))
    with pytest.raises(ConfigError, match=r"'x\.one' declared twice.*second by some-plugin"):
        reg.add(Setting("x.one", str, "a", "h"), owner="some-plugin")
    with pytest.raises(ValidationError, match=r"x\.two"):
        reg.add(Setting("x.two", int, 0, "h", minimum=1))
    with pytest.raises(NotFound, match=r"unknown setting 'x\.nope'"):
        reg.get("x.nope")
    assert list(reg.settings) == ["x.one"]


def test_sources_layer_default_env_database() -> None:
    env = {"CTX_SEARCH_DEFAULT_LIMIT": "25", "CTX_LOG_LEVEL": "debug", "UNRELATED": "x"}
    settings = Settings(core_registry(), env)
    assert settings.resolve("server.body_limit") == (1_048_576, "default")
    assert settings.resolve("search.default_limit") == (25, "env")
    problems = settings.load_db([("search.default_limit", 40), ("server.body_limit", "4096")])
    assert problems == []
    assert settings.resolve("search.default_limit") == (40, "database")
    assert settings["server.body_limit"] == 4096
    assert settings.resolve("log.level") == ("debug", "env")

    described = _source(settings, "search.default_limit")
    assert described["source"] == "database" and described["value"] == 40
    assert described["default"] == 10 and described["env"] == "CTX_SEARCH_DEFAULT_LIMIT"
    assert described["type"] == "int" and described["hot"] is True
    assert {s["key"] for s in settings.describe()} == set(core_registry().settings)

    settings.load_db([])  # the database row went away: env applies again
    assert settings.resolve("search.default_limit") == (25, "env")


def test_invalid_values_are_rejected_with_a_message() -> None:
    with pytest.raises(ConfigError) as caught:
        Settings(core_registry(), {"CTX_SERVER_PORT": "99999", "CTX_LOG_LEVEL": "loud"})
    assert "CTX_SERVER_PORT" in caught.value.message and "65535" in caught.value.message
    assert "CTX_LOG_LEVEL" in caught.value.message  # every problem, in one error

    settings = Settings(core_registry(), {})
    problems = settings.load_db(
        [("search.default_limit", "many"), ("no.such.key", 1), ("log.level", "warning")]
    )
    assert len(problems) == 2
    assert any("search.default_limit" in p and "ignored" in p for p in problems)
    assert any("'no.such.key'" in p for p in problems)
    assert settings.resolve("search.default_limit") == (10, "default")
    assert settings.resolve("log.level") == ("warning", "database")

    with pytest.raises(ValidationError, match=r"search\.default_limit"):
        settings.validate_change("search.default_limit", 1000)
    with pytest.raises(NotFound, match="unknown setting"):
        settings.validate_change("nope", 1)


def test_cross_checks_see_the_proposed_value() -> None:
    reg = core_registry()
    reg.cross_checks.append(
        lambda get: "body limit must exceed 2048" if get("server.body_limit") <= 2048 else None
    )
    settings = Settings(reg, {"CTX_SERVER_BODY_LIMIT": "4096"})
    assert settings.validate_change("server.body_limit", "8192") == 8192
    with pytest.raises(ValidationError, match="must exceed 2048") as caught:
        settings.validate_change("server.body_limit", 2048)
    assert caught.value.field == "server.body_limit"
    assert settings.validate_change("server.body_limit", None) is None  # env value 4096 passes


def test_non_hot_settings_keep_their_start_up_value() -> None:
    settings = Settings(core_registry(), {})
    settings.load_db([("server.port", 9000), ("search.default_limit", 5)], startup=True)
    settings.load_db([("server.port", 9100), ("search.default_limit", 6)])
    assert settings.resolve("server.port") == (9000, "database")
    assert settings.resolve("search.default_limit") == (6, "database")
    settings.load_db([("server.port", 9100)], startup=True)
    assert settings["server.port"] == 9100


def test_app_layers_env_and_database_and_survives_reopen(database_url: str, tmp_path: Path) -> None:
    env = {"CTX_SEARCH_DEFAULT_LIMIT": "25"}
    with App(database_url=database_url, home=tmp_path, load_entry_points=False, environ=env) as app:
        assert app.settings.resolve("search.default_limit") == (25, "env")
        assert set_setting(app, "search.default_limit", "30") == 30
        assert app.settings.resolve("search.default_limit") == (30, "database")
        with pytest.raises(ValidationError, match=r"search\.default_limit"):
            set_setting(app, "search.default_limit", "0")
        with pytest.raises(NotFound, match="unknown setting"):
            set_setting(app, "search.nope", 1)
        with app.connection() as conn:
            rows = conn.execute("SELECT key, value FROM context_settings").fetchall()
        assert rows == [{"key": "search.default_limit", "value": 30}]

    with App(database_url=database_url, home=tmp_path, load_entry_points=False, environ=env) as app:
        assert app.settings.resolve("search.default_limit") == (30, "database")
        unset_setting(app, "search.default_limit")
        assert app.settings.resolve("search.default_limit") == (25, "env")
        with app.connection() as conn:
            assert conn.execute("SELECT key FROM context_settings").fetchall() == []


def test_secret_settings_are_write_never_and_shown_as_set_only(app: App) -> None:
    from ctx.core.runtime import Settings

    settings = Settings(app.registry, {"CTX_EMBED_API_KEY": "sk-live-123"})
    [row] = [r for r in settings.describe() if r["key"] == "embed.api_key"]
    assert row["secret"] and row["is_set"] and row["value"] is None and row["default"] is None
    assert "sk-live" not in repr(settings.describe())
    assert settings["embed.api_key"] == "sk-live-123"  # the code still reads it
    with pytest.raises(ValidationError, match=r"never stored in the database; set CTX_EMBED_API_"):
        set_setting(app, "embed.api_key", "sk-stored")
    with app.connection() as conn:  # a row from an older version is ignored, not used
        conn.execute(
            "INSERT INTO context_settings (key, value) VALUES ('embed.api_key', '\"old\"')"
        )
    problems = app.reload()
    assert any("secret setting 'embed.api_key'" in p for p in problems)
    assert app.settings["embed.api_key"] == ""


def test_a_secret_setting_may_reference_a_sealed_secret(app: App, database_url: str) -> None:
    from ctx.core import access

    with app.connection() as conn:
        access.set_secret(conn, app.seal_key, "embedder", "sk-sealed-9")
    set_setting(app, "embed.api_key", "secret:embedder")  # not hot: the next start reads it
    with App(database_url=database_url, home=app.home, load_entry_points=False) as again:
        assert again.secret_setting("embed.api_key") == "sk-sealed-9"
        [row] = [r for r in again.settings.describe() if r["key"] == "embed.api_key"]
        assert row["reference"] == "embedder" and row["value"] is None and row["is_set"]
        assert "sk-sealed" not in repr(again.settings.describe())
    with app.connection() as conn:
        stored = conn.execute("SELECT value FROM context_settings").fetchall()
    assert stored == [{"value": "secret:embedder"}]
    with pytest.raises(ValidationError, match="secret:NAME"):
        set_setting(app, "embed.api_key", "secret:Not Valid")


def test_a_secret_reference_must_exist_and_keeps_its_secret(app: App) -> None:
    from ctx.core import Conflict, access

    with pytest.raises(ValidationError, match="no secret named 'nope'"):
        set_setting(app, "embed.api_key", "secret:nope")
    with app.connection() as conn:
        access.set_secret(conn, app.seal_key, "emb", "sk-1")
    set_setting(app, "embed.api_key", "secret:emb")
    with app.connection() as conn:
        assert access.secret_users(conn) == {"emb": ["setting embed.api_key"]}
        with pytest.raises(Conflict, match=r"used by setting\(s\) embed\.api_key"):
            access.delete_secret(conn, "emb")
