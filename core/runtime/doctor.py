"""``ctx doctor``: what the configured PostgreSQL has and what ctx still needs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import psycopg

from ctx.core.runtime.db import redact
from ctx.core.runtime.migrate import migration_status

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
        try:
            rows = migration_status(app.db.url, app.host)
            todo = [f"{r['set']}/{r['name']}" for r in rows if not r["applied"]]
            check(
                "migrations",
                not todo,
                "up to date"
                if not todo
                else "pending: " + ", ".join(todo) + " (run `ctx migrate`)",
            )
        except Exception as exc:
            check("migrations", False, str(exc))
    finally:
        app.db.stop()
    return {"ok": all(c["ok"] for c in checks), "checks": checks}
