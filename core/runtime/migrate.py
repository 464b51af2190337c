"""The migration runner: numbered SQL files applied once, repeatable SQL functions re-applied.

Each set (``core`` plus any a plugin registers) is a folder of ``NNNN_slug.sql`` files, applied in
order and recorded with a SHA-256 checksum in ``_ctx_migrations``; a file edited after it was
applied is an error, because the database no longer matches the code that describes it. Tables
live there, append-only.

A set's ``functions/`` folder holds repeatable SQL (``CREATE OR REPLACE FUNCTION`` and friends):
after the numbered files, each function file whose checksum differs from the recorded one is
applied again and its checksum updated, recorded as ``functions/<file>``. So a function's
definition lives in one file that always shows the current version. Everything runs under one
advisory lock, so concurrent starts apply each file once.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Any

import psycopg
from psycopg.rows import dict_row

from ctx.core.errors import ConfigError
from ctx.core.runtime.plugin_host import PluginHost

NAME_RE = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
FUNCTION_RE = re.compile(r"^[a-z0-9_]+\.sql$")
FUNCTIONS = "functions"
LOCK_KEY = 0x63_74_78_6D  # "ctxm": one runner at a time across every process

CREATE_TABLE = """
CREATE TABLE IF NOT EXISTS _ctx_migrations (
    set_name   text        NOT NULL,
    name       text        NOT NULL,
    checksum   text        NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (set_name, name)
)
"""


@dataclass(frozen=True)
class Migration:
    set_name: str
    name: str
    sql: str
    repeatable: bool = False

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode()).hexdigest()


def _root(source: str | Path) -> Traversable | Path:
    if isinstance(source, Path) or "/" in str(source):
        return Path(source)
    return resources.files(str(source))


def load_set(set_name: str, source: str | Path) -> list[Migration]:
    """Read a migration set (numbered files, then its repeatable functions) from a package or
    a directory."""
    root = _root(source)
    out = []
    for entry in sorted(root.iterdir(), key=lambda p: p.name):
        if not entry.is_file() or not entry.name.endswith(".sql"):
            continue
        if not NAME_RE.match(entry.name):
            raise ConfigError(
                f"migration {set_name}/{entry.name}: name must look like 0001_slug.sql"
            )
        out.append(Migration(set_name, entry.name, entry.read_text(encoding="utf-8")))
    functions = root / FUNCTIONS
    if functions.is_dir():
        for entry in sorted(functions.iterdir(), key=lambda p: p.name):
            if not entry.is_file() or not entry.name.endswith(".sql"):
                continue
            if not FUNCTION_RE.match(entry.name):
                raise ConfigError(
                    f"function file {set_name}/{FUNCTIONS}/{entry.name}: use lowercase letters, "
                    "digits and '_'"
                )
            out.append(
                Migration(
                    set_name,
                    f"{FUNCTIONS}/{entry.name}",
                    entry.read_text(encoding="utf-8"),
                    repeatable=True,
                )
            )
    return out


def all_sets(host: PluginHost | None) -> list[list[Migration]]:
    sets = [load_set("core", "ctx.migrations")]
    if host is not None:
        seen = {"core"}
        for reg in host.registrations("register_migrations"):
            if len(reg.args) != 2 or reg.kwargs:
                raise ConfigError(
                    f"plugin {reg.plugin} must call register(set_name, package) for migrations"
                )
            set_name, source = reg.args
            if set_name in seen:
                raise ConfigError(
                    f"migration set {set_name!r} registered twice (second by {reg.plugin})"
                )
            seen.add(set_name)
            sets.append(load_set(set_name, source))
    return sets


def pending(conn: psycopg.Connection[Any], sets: list[list[Migration]]) -> list[Migration]:
    """Return what must run, set by set: its unapplied numbered files, then its changed
    functions (which may use the tables those create). Raise when an applied numbered file was
    edited."""
    conn.execute(CREATE_TABLE)
    rows = conn.execute("SELECT set_name, name, checksum FROM _ctx_migrations").fetchall()
    applied = {(r["set_name"], r["name"]): r["checksum"] for r in rows}
    todo: list[Migration] = []
    problems = []
    for migrations in sets:
        for m in migrations:  # load_set lists numbered files first, then functions
            known = applied.get((m.set_name, m.name))
            if known is None or (m.repeatable and known != m.checksum):
                todo.append(m)
            elif known != m.checksum:
                problems.append(f"{m.set_name}/{m.name}")
    if problems:
        raise ConfigError(
            "applied migrations were edited since they ran: "
            + ", ".join(problems)
            + ". Migrations are append-only: restore the file and add a new migration instead "
            "(functions belong in the set's functions/ folder, which may change)."
        )
    return todo


def apply_migrations(url: str, host: PluginHost | None) -> list[str]:
    """Apply everything pending, each file in its own transaction; return the applied names."""
    sets = all_sets(host)
    applied: list[str] = []
    with psycopg.connect(url, autocommit=True, row_factory=dict_row) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
        try:
            for m in pending(conn, sets):
                with conn.transaction():
                    conn.execute(m.sql.encode())
                    conn.execute(
                        "INSERT INTO _ctx_migrations (set_name, name, checksum) VALUES (%s, %s, %s) "
                        "ON CONFLICT (set_name, name) DO UPDATE SET checksum = EXCLUDED.checksum, "
                        "applied_at = now()",
                        (m.set_name, m.name, m.checksum),
                    )
                applied.append(f"{m.set_name}/{m.name}")
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))
    return applied


def migration_status(url: str, host: PluginHost | None) -> list[dict[str, Any]]:
    """Every known migration and function file with whether it is applied (and current)."""
    sets = all_sets(host)
    with psycopg.connect(url, autocommit=True, row_factory=dict_row) as conn:
        todo = {(m.set_name, m.name) for m in pending(conn, sets)}
    return [
        {
            "set": m.set_name,
            "name": m.name,
            "repeatable": m.repeatable,
            "applied": (m.set_name, m.name) not in todo,
        }
        for migrations in sets
        for m in migrations
    ]
