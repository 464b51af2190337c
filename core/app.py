"""The App: one object owning the plugin manager, the settings and the database.

Nothing in ctx keeps module-level state; a test builds a fresh ``App`` and gets a fresh world.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pluggy
import psycopg

from ctx.core import migrate as migrations
from ctx.core import types as block_types
from ctx.core.db import Database, default_home
from ctx.core.hooks import call_each
from ctx.core.plugins import DEFAULT_PLUGINS, collect, create_plugin_manager
from ctx.core.settings import Registry, Settings, core_registry
from ctx.core.temporal import TemporalParser, parser_from_plugin_manager

log = logging.getLogger("ctx.app")


class App:
    def __init__(
        self,
        *,
        database_url: str | None = None,
        home: Path | None = None,
        builtins: Iterable[str] = DEFAULT_PLUGINS,
        load_entry_points: bool = True,
        environ: dict[str, str] | None = None,
    ) -> None:
        env = dict(os.environ if environ is None else environ)
        self.home = home or default_home()
        self.pm: pluggy.PluginManager = create_plugin_manager(builtins, load_entry_points)
        self.registry: Registry = core_registry()
        for reg in collect(self.pm, "register_settings"):
            self.registry.add(reg.args[0], owner=reg.plugin)
        self.settings = Settings(self.registry, env)
        url = database_url if database_url is not None else env.get("CTX_DATABASE_URL") or None
        self.db = Database(url, self.home)
        self.block_types: dict[str, block_types.BlockTypeSpec] = {}
        from ctx.core.indexing import EmbedderCache

        self.embedders = EmbedderCache(self)
        self._temporal_parser: TemporalParser | None = None
        self._types_lock = threading.Lock()
        self.started = False

    # -- lifecycle -------------------------------------------------------------------------

    def open(self, *, migrate: bool = True, ensure_generation: bool = True) -> App:
        """Start the database, apply pending migrations, load settings and policies."""
        self.home.mkdir(parents=True, exist_ok=True)
        self.db.start()
        try:
            if migrate:
                applied = migrations.migrate(self.db.url, self.pm)
                for name in applied:
                    log.info("applied migration %s", name)
            proposals = block_types.registered_types(self.pm)
            with self.connection() as conn:
                block_types.seed(conn, proposals)
            self.reload()
            if ensure_generation:
                from ctx.core.indexing import ensure_active_generation

                ensure_active_generation(self)
            call_each(self.pm.hook.on_startup, app=self)
        except BaseException:
            self.db.stop()
            raise
        self.started = True
        return self

    def close(self) -> None:
        self.db.stop()
        self.started = False

    def __enter__(self) -> App:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- database --------------------------------------------------------------------------

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection[dict[str, Any]]]:
        with self.db.connection() as conn:
            yield conn

    def reload(self) -> list[str]:
        """Re-read the database layer of settings and the block-type rows (hot reload)."""
        with self.connection() as conn:
            rows = conn.execute("SELECT key, value FROM context_settings").fetchall()
            types = block_types.load_all(conn)
        problems = self.settings.load_db(
            [(r["key"], r["value"]) for r in rows], startup=not self.started
        )
        for p in problems:
            log.warning(p)
        with self._types_lock:
            self.block_types = types
        return problems

    @property
    def temporal_parser(self) -> TemporalParser:
        """The deterministic parser built from every registered matcher (built on first use)."""
        if self._temporal_parser is None:
            self._temporal_parser = parser_from_plugin_manager(self.pm)
        return self._temporal_parser

    def block_type(self, name: str) -> block_types.BlockTypeSpec | None:
        with self._types_lock:
            return self.block_types.get(name)


def set_setting(app: App, key: str, value: Any) -> Any:
    """Validate and store a database-layer setting; hot keys apply at once (here and via NOTIFY)."""
    from psycopg.types.json import Jsonb

    coerced = app.settings.validate_change(key, value)
    with app.connection() as conn:
        conn.execute(
            "INSERT INTO context_settings (key, value) VALUES (%s, %s) "
            "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()",
            (key, Jsonb(coerced)),
        )
    app.reload()
    return coerced


def unset_setting(app: App, key: str) -> None:
    """Drop the database layer of a setting so env or default applies again."""
    app.settings.validate_change(key, None)
    with app.connection() as conn:
        conn.execute("DELETE FROM context_settings WHERE key = %s", (key,))
    app.reload()
