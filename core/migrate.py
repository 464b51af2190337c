"""The migration runner: numbered SQL files applied in order under an advisory lock.

Each set (``core`` plus any a plugin registers) is a folder of ``NNNN_slug.sql`` files. Applied files
are recorded with a SHA-256 checksum in ``_ctx_migrations``; a file edited after it was applied is an
error, because the database no longer matches the code that describes it.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import pluggy
import psycopg

from ctx.core.errors import ConfigError
from ctx.core.plugins import collect

NAME_RE = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
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

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.sql.encode()).hexdigest()


def load_set(set_name: str, source: str | Path) -> list[Migration]:
    """Read a migration set from a package name or a directory."""
    if isinstance(source, Path) or "/" in str(source):
        files = [(p.name, p.read_text(encoding="utf-8")) for p in Path(source).iterdir()]
    else:
        root = resources.files(str(source))
        files = [(p.name, p.read_text(encoding="utf-8")) for p in root.iterdir() if p.is_file()]
    out = []
    for name, text in sorted(files):
        if not name.endswith(".sql"):
            continue
        if not NAME_RE.match(name):
            raise ConfigError(f"migration {set_name}/{name}: name must look like 0001_slug.sql")
        out.append(Migration(set_name, name, text))
    return out


def all_sets(pm: pluggy.PluginManager | None) -> list[list[Migration]]:
    sets = [load_set("core", "ctx.migrations")]
    if pm is not None:
        seen = {"core"}
        for reg in collect(pm, "register_migrations"):
            set_name, source = reg.args[0], reg.args[1]
            if set_name in seen:
                raise ConfigError(
                    f"migration set {set_name!r} registered twice (second by {reg.plugin})"
                )
            seen.add(set_name)
            sets.append(load_set(set_name, source))
    return sets


def pending(conn: psycopg.Connection[Any], sets: list[list[Migration]]) -> list[Migration]:
    """Return unapplied migrations in order; raise when an applied one was edited."""
    conn.execute(CREATE_TABLE)
    rows = conn.execute("SELECT set_name, name, checksum FROM _ctx_migrations").fetchall()
    applied = {(r["set_name"], r["name"]): r["checksum"] for r in rows}
    todo = []
    problems = []
    for migrations in sets:
        for m in migrations:
            known = applied.get((m.set_name, m.name))
            if known is None:
                todo.append(m)
            elif known != m.checksum:
                problems.append(f"{m.set_name}/{m.name}")
    if problems:
        raise ConfigError(
            "applied migrations were edited since they ran: "
            + ", ".join(problems)
            + ". Migrations are append-only: restore the file and add a new migration instead."
        )
    return todo


def migrate(url: str, pm: pluggy.PluginManager | None) -> list[str]:
    """Apply every pending migration, each in its own transaction; return the applied names."""
    sets = all_sets(pm)
    applied: list[str] = []
    from psycopg.rows import dict_row

    with psycopg.connect(url, autocommit=True, row_factory=dict_row) as conn:
        conn.execute("SELECT pg_advisory_lock(%s)", (LOCK_KEY,))
        try:
            for m in pending(conn, sets):
                with conn.transaction():
                    conn.execute(m.sql.encode())
                    conn.execute(
                        "INSERT INTO _ctx_migrations (set_name, name, checksum) VALUES (%s, %s, %s)",
                        (m.set_name, m.name, m.checksum),
                    )
                applied.append(f"{m.set_name}/{m.name}")
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (LOCK_KEY,))
    return applied


def status(url: str, pm: pluggy.PluginManager | None) -> list[dict[str, Any]]:
    """Every known migration with whether it is applied."""
    from psycopg.rows import dict_row

    sets = all_sets(pm)
    with psycopg.connect(url, autocommit=True, row_factory=dict_row) as conn:
        todo = {(m.set_name, m.name) for m in pending(conn, sets)}
    return [
        {"set": m.set_name, "name": m.name, "applied": (m.set_name, m.name) not in todo}
        for migrations in sets
        for m in migrations
    ]
