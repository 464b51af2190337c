"""The migration runner: empty database, idempotence, checksums, plugin sets, atomic files."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg.rows import dict_row

from ctx.core import ConfigError, hookimpl
from ctx.core.runtime import PluginHost, migrate

CORE_SET = migrate.load_set("core", "ctx.migrations")
CORE = [f"core/{m.name}" for m in CORE_SET]


@pytest.fixture
def empty_url(pg_admin_url: str) -> Iterator[str]:
    """A brand-new database with nothing in it, not even the migrations table."""
    name = "m_" + uuid.uuid4().hex[:12]
    with psycopg.connect(pg_admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    params = conninfo_to_dict(pg_admin_url)
    params["dbname"] = name
    try:
        yield make_conninfo(**params)  # type: ignore[arg-type]
    finally:
        with psycopg.connect(pg_admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _query(url: str, sql: str, *params: Any) -> list[dict[str, Any]]:
    with psycopg.connect(url, autocommit=True, row_factory=dict_row) as conn:
        cur = conn.execute(sql, params)
        return cur.fetchall() if cur.description else []


def _tables(url: str) -> set[str]:
    rows = _query(url, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
    return {r["tablename"] for r in rows}


def _with_set(set_name: str, source: Path) -> Any:
    class ExtraMigrations:
        @hookimpl
        def register_migrations(self, register: Callable[..., None]) -> None:
            register(set_name, source)

    host = PluginHost((), load_entry_points=False)
    host.register(ExtraMigrations(), f"migrations-{set_name}")
    return host


def test_applies_to_an_empty_database_and_twice_is_a_no_op(empty_url: str) -> None:
    assert _tables(empty_url) == set()
    assert migrate.apply_migrations(empty_url, None) == CORE
    assert {
        "_ctx_migrations",
        "context_blocks",
        "context_block_types",
        "context_api_keys",
        "context_write_log",
        "context_jobs",
        "context_settings",
    } <= _tables(empty_url)
    recorded = _query(
        empty_url, "SELECT set_name, name, checksum FROM _ctx_migrations ORDER BY name"
    )
    assert recorded == [
        {"set_name": "core", "name": m.name, "checksum": m.checksum} for m in CORE_SET
    ]

    assert migrate.apply_migrations(empty_url, None) == []
    assert len(_query(empty_url, "SELECT * FROM _ctx_migrations")) == len(CORE_SET)
    assert migrate.migration_status(empty_url, None) == [
        {"set": "core", "name": m.name, "repeatable": m.repeatable, "applied": True}
        for m in CORE_SET
    ]


def test_an_edited_applied_migration_stops_the_runner(empty_url: str) -> None:
    migrate.apply_migrations(empty_url, None)
    _query(
        empty_url,
        "UPDATE _ctx_migrations SET checksum = 'edited' WHERE name = '0001_foundation.sql'",
    )
    for run in (migrate.apply_migrations, migrate.migration_status):
        with pytest.raises(ConfigError) as caught:
            run(empty_url, None)
        assert "core/0001_foundation.sql" in caught.value.message
        assert all(name not in caught.value.message for name in CORE[1:])
        assert "append-only" in caught.value.message


def test_plugin_sets_apply_after_core_in_file_order(empty_url: str, tmp_path: Path) -> None:
    (tmp_path / "0002_more.sql").write_text("ALTER TABLE extra_things ADD COLUMN note text;")
    (tmp_path / "0001_start.sql").write_text("CREATE TABLE extra_things (id int PRIMARY KEY);")
    (tmp_path / "README.txt").write_text("not a migration")
    pm = _with_set("extra", tmp_path)

    assert migrate.apply_migrations(empty_url, pm) == [
        *CORE,
        "extra/0001_start.sql",
        "extra/0002_more.sql",
    ]
    columns = _query(
        empty_url,
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'extra_things' "
        "ORDER BY ordinal_position",
    )
    assert [c["column_name"] for c in columns] == ["id", "note"]
    assert migrate.apply_migrations(empty_url, pm) == []

    (tmp_path / "0003_later.sql").write_text("CREATE TABLE extra_later (id int);")
    assert migrate.apply_migrations(empty_url, pm) == ["extra/0003_later.sql"]
    assert all(s["applied"] for s in migrate.migration_status(empty_url, pm))


def test_a_failing_file_rolls_back_alone(empty_url: str, tmp_path: Path) -> None:
    (tmp_path / "0001_good.sql").write_text("CREATE TABLE good_one (id int);")
    (tmp_path / "0002_bad.sql").write_text(
        "CREATE TABLE half_done (id int);\nSELECT no_such_function();"
    )
    pm = _with_set("extra", tmp_path)
    with pytest.raises(psycopg.errors.UndefinedFunction):
        migrate.apply_migrations(empty_url, pm)
    tables = _tables(empty_url)
    assert "good_one" in tables and "half_done" not in tables
    names = {r["name"] for r in _query(empty_url, "SELECT name FROM _ctx_migrations")}
    assert names == {*(m.name for m in CORE_SET), "0001_good.sql"}
    status = {(s["set"], s["name"]): s["applied"] for s in migrate.migration_status(empty_url, pm)}
    assert status[("extra", "0002_bad.sql")] is False


def test_bad_file_names_and_duplicate_sets_are_refused(empty_url: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "1_missing_digits.sql").write_text("SELECT 1;")
    with pytest.raises(ConfigError, match=r"0001_slug\.sql"):
        migrate.apply_migrations(empty_url, _with_set("bad", bad))

    good = tmp_path / "good"
    good.mkdir()
    pm = _with_set("core", good)
    with pytest.raises(ConfigError, match="'core' registered twice"):
        migrate.apply_migrations(empty_url, pm)
    assert _tables(empty_url) == set()  # nothing ran


def _answer(url: str) -> int:
    return int(_query(url, "SELECT extra_answer() AS n")[0]["n"])


def test_functions_are_reapplied_when_their_file_changes(empty_url: str, tmp_path: Path) -> None:
    (tmp_path / "0001_start.sql").write_text("CREATE TABLE extra_things (id int);")
    functions = tmp_path / "functions"
    functions.mkdir()
    source = functions / "extra_answer.sql"
    source.write_text(
        "CREATE OR REPLACE FUNCTION extra_answer() RETURNS int AS 'SELECT 41' LANGUAGE sql;"
    )
    host = _with_set("extra", tmp_path)

    applied = migrate.apply_migrations(empty_url, host)
    assert applied[-2:] == ["extra/0001_start.sql", "extra/functions/extra_answer.sql"]
    assert _answer(empty_url) == 41
    assert migrate.apply_migrations(empty_url, host) == []  # unchanged: nothing runs

    source.write_text(
        "CREATE OR REPLACE FUNCTION extra_answer() RETURNS int AS 'SELECT 42' LANGUAGE sql;"
    )
    pending = [s for s in migrate.migration_status(empty_url, host) if not s["applied"]]
    assert pending == [
        {"set": "extra", "name": "functions/extra_answer.sql", "repeatable": True, "applied": False}
    ]
    # An edited function file is no error (unlike an edited numbered file): it runs again.
    assert migrate.apply_migrations(empty_url, host) == ["extra/functions/extra_answer.sql"]
    assert _answer(empty_url) == 42
    [row] = _query(
        empty_url, "SELECT checksum FROM _ctx_migrations WHERE name = 'functions/extra_answer.sql'"
    )
    assert row["checksum"] == migrate.load_set("extra", tmp_path)[-1].checksum


def test_core_functions_take_named_arguments_without_defaults(empty_url: str) -> None:
    migrate.apply_migrations(empty_url, None)
    rows = _query(
        empty_url,
        "SELECT proname, pronargdefaults, pg_get_function_identity_arguments(oid) AS args "
        "FROM pg_proc WHERE proname IN "
        "('ctx_rrf', 'ctx_fts_query', 'ctx_fts_plan', 'ctx_embedding_index')",
    )
    by_name = {r["proname"]: r for r in rows}
    assert set(by_name) == {  # one of each
        "ctx_rrf",
        "ctx_fts_query",
        "ctx_fts_plan",
        "ctx_embedding_index",
    }
    assert all(r["pronargdefaults"] == 0 for r in rows)  # nothing that could drift from settings
    assert "p_weight_dense real" in by_name["ctx_rrf"]["args"]
    assert "p_limit_dates integer" in by_name["ctx_rrf"]["args"]


def test_function_file_names_are_checked(empty_url: str, tmp_path: Path) -> None:
    (tmp_path / "functions").mkdir()
    (tmp_path / "functions" / "Bad-Name.sql").write_text("SELECT 1;")
    with pytest.raises(ConfigError, match="lowercase letters"):
        migrate.apply_migrations(empty_url, _with_set("extra", tmp_path))


def test_ctx_rrf_is_replaced_whatever_overloads_exist(empty_url: str) -> None:
    migrate.apply_migrations(empty_url, None)
    # A stray overload (an experiment, a benchmark copy) must not block the next definition.
    _query(
        empty_url, "CREATE FUNCTION ctx_rrf(p integer) RETURNS integer AS 'SELECT 1' LANGUAGE sql"
    )
    _query(
        empty_url,
        "UPDATE _ctx_migrations SET checksum = 'stale' WHERE name = 'functions/ctx_rrf.sql'",
    )
    assert migrate.apply_migrations(empty_url, None) == ["core/functions/ctx_rrf.sql"]
    rows = _query(empty_url, "SELECT pronargs FROM pg_proc WHERE proname = 'ctx_rrf'")
    assert [r["pronargs"] for r in rows] == [33]


def test_the_type_reach_view_comes_before_ctx_rrf_and_is_replaced(empty_url: str) -> None:
    names = [m.name for m in migrate.load_set("core", "ctx.migrations") if m.repeatable]
    # an upgrade has the view before the new ctx_rrf, which reads it, is called
    assert names.index("functions/context_type_reach.sql") < names.index("functions/ctx_rrf.sql")
    migrate.apply_migrations(empty_url, None)
    _query(
        empty_url,
        "UPDATE _ctx_migrations SET checksum = 'stale' "
        "WHERE name IN ('functions/context_type_reach.sql', 'functions/ctx_rrf.sql')",
    )
    assert migrate.apply_migrations(empty_url, None) == [
        "core/functions/context_type_reach.sql",
        "core/functions/ctx_rrf.sql",
    ]
    rows = _query(
        empty_url,
        "SELECT column_name AS c FROM information_schema.columns "
        "WHERE table_name = 'context_type_reach' ORDER BY ordinal_position",
    )
    assert [r["c"] for r in rows] == [
        "name", "query", "listing", "graph", "digest", "vectors", "factor"]  # fmt: skip
