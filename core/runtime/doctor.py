"""``ctx doctor``: what the configured PostgreSQL has and what ctx still needs, and its memory
settings (ctx.core.runtime.pg_sizing)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import psycopg

from ctx.core.errors import ValidationError
from ctx.core.runtime.db import redact
from ctx.core.runtime.migrate import migration_status
from ctx.core.runtime.pg_sizing import (
    CONF_NAME,
    NAMES,
    SETTING,
    machine_memory,
    memory_for,
    ram,
    size,
    size_for,
)
from ctx.core.runtime.replicas import replica_checks

if TYPE_CHECKING:
    from ctx.core.app import App

NEEDED_EXTENSIONS = {"vector": (0, 8), "pg_trgm": (1, 0)}  # 0.8: hnsw.iterative_scan


def _version_tuple(text: str) -> tuple[int, ...]:
    out = []
    for part in text.split("."):
        digits = "".join(ch for ch in part if ch.isdigit())
        out.append(int(digits) if digits else 0)
    return tuple(out)


def diagnose(app: App) -> dict[str, Any]:
    """Start the database of ``app`` (without migrating), check it, and stop it again."""
    checks: list[dict[str, Any]] = []

    def check(name: str, ok: bool, detail: str) -> None:
        checks.append({"name": name, "ok": ok, "detail": detail})

    try:
        app.db.start()
    except Exception as exc:
        check("connection", False, str(exc))
        return {"ok": False, "checks": checks}
    try:
        check("connection", True, f"{redact(app.db.url)} ({app.db.kind})")
        with psycopg.connect(app.db.url, autocommit=True) as conn:
            num = int(conn.execute("SHOW server_version_num").fetchone()[0])  # type: ignore[index]
            text = conn.execute("SHOW server_version").fetchone()[0]  # type: ignore[index]
            check("server version", num >= 150000, f"PostgreSQL {text} (need >= 15)")
            available = {
                r[0]: (r[1], r[2])
                for r in conn.execute(
                    "SELECT name, default_version, installed_version FROM pg_available_extensions "
                    "WHERE name = ANY(%s)",
                    (list(NEEDED_EXTENSIONS),),
                ).fetchall()
            }
            for ext, minimum in NEEDED_EXTENSIONS.items():
                if ext not in available:
                    check(f"extension {ext}", False, "not available on this server")
                    continue
                default, installed = available[ext]
                version = installed or default
                ok = _version_tuple(version) >= minimum
                state = f"installed {installed}" if installed else f"available {default}"
                need = ".".join(map(str, minimum))
                check(f"extension {ext}", ok, f"{state} (need >= {need})")
            configs = {r[0] for r in conn.execute("SELECT cfgname FROM pg_ts_config").fetchall()}
            for cfg in ("english", "german"):
                check(
                    f"text search {cfg}", cfg in configs, "present" if cfg in configs else "missing"
                )
        migrated = False
        try:
            rows = migration_status(app.db.url, app.host)
            todo = [f"{r['set']}/{r['name']}" for r in rows if not r["applied"]]
            migrated = not todo
            check(
                "migrations",
                not todo,
                "up to date"
                if not todo
                else "pending: " + ", ".join(todo) + " (run `ctx migrate`)",
            )
        except Exception as exc:
            check("migrations", False, str(exc))
        if migrated:
            app.reload()  # pg.memory may be a database setting
        with psycopg.connect(app.db.url, autocommit=True) as conn:
            checks.extend(memory_checks(conn, app.db.kind, str(app.settings[SETTING])))
        if app.replicas is not None:
            checks.extend(replica_checks(app.replicas))
    finally:
        app.db.stop()
    return {"ok": all(c["ok"] for c in checks), "checks": checks}


def memory_checks(conn: psycopg.Connection[Any], kind: str, setting: str) -> list[dict[str, Any]]:
    """Each memory setting in effect, where it comes from and ctx's pick for the RAM ``setting``
    names (this machine's when it is auto or off); for an external server a warning (not a
    failure) when values are below half of that advice."""
    try:
        memory = memory_for(setting)
    except ValidationError as exc:
        return [{"name": "memory", "ok": False, "detail": exc.message}]
    rows = conn.execute(
        "SELECT name, current_setting(name), "
        "setting::bigint * pg_size_bytes('1' || unit) / 1048576, "  # in MB
        "source, sourcefile, pending_restart FROM pg_settings WHERE name = ANY(%s)",
        (list(NAMES),),
    ).fetchall()
    connections = conn.execute("SELECT current_setting('max_connections')::int").fetchone()
    pick = size_for(memory or machine_memory(), connections[0] if connections else 100)
    wanted = pick.values()
    verb = "ctx advises" if kind == "external" else "ctx picks" if memory else "ctx would pick"
    whose = ram(pick.memory) + ("" if memory else f", {SETTING} off")
    checks: list[dict[str, Any]] = []
    low = []
    for name, shown, mb, source, sourcefile, pending in sorted(
        rows, key=lambda r: NAMES.index(r[0])
    ):
        detail = (
            f"{shown} from {_source(source, sourcefile)}; {verb} {size(wanted[name])} ({whose})"
        )
        if pending:
            detail += "; the configuration has another value, applied at the next start"
        checks.append({"name": name, "ok": True, "detail": detail})
        if mb * 2 < wanted[name]:
            low.append(f"{name} {shown} (advice {size(wanted[name])})")
    if kind == "external" and memory and low:
        if setting.strip().lower() == "auto":
            whose += ", this machine's: set CTX_PG_MEMORY to the server's RAM"
        detail = f"below half of ctx's advice ({whose}): {', '.join(low)}; see docs/operations.md"
        checks.append({"name": "memory", "ok": True, "warning": True, "detail": detail})
    return checks


def _source(source: str, sourcefile: str | None) -> str:
    """Where a value comes from, in the words an operator changes it with."""
    file = Path(sourcefile).name if sourcefile else None
    if file == CONF_NAME:
        return "ctx's sizing"
    if file == "postgresql.auto.conf":
        return "ALTER SYSTEM"
    if source == "configuration file":
        return file or "the server's configuration"
    labels = {
        "default": "PostgreSQL's default",
        "database": "ALTER DATABASE",
        "user": "ALTER ROLE",
        "database user": "ALTER ROLE … IN DATABASE",
    }
    return labels.get(source, source)
