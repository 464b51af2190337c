"""The App: one object owning the plugin host, the settings, the database and the registries.

Nothing in ctx keeps module-level state; a test builds a fresh ``App`` and gets a fresh world.
Building an ``App`` loads the plugins (a misspelled hook stops it here) and the settings; ``open``
validates every registry, starts the database, migrates and seeds the policies.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cached_property
from pathlib import Path
from typing import Any

import pluggy
import psycopg

from ctx.core.access import Principal, load_seal_key, reveal_secret
from ctx.core.blocks import (
    BlockTypeSpec,
    TransferSection,
    load_types,
    registered_types,
    seed_types,
    transfer_sections,
)
from ctx.core.embed import (
    EmbedderCache,
    EmbedderFactory,
    WarmUp,
    embedder_factories,
    ensure_active_generation,
)
from ctx.core.errors import ConfigError, CtxError, PluginError
from ctx.core.governor import Governor
from ctx.core.llm import BackendKind, BackendPool, backend_kinds
from ctx.core.operations import Operation
from ctx.core.retrieval import QueryStage, RerankerFactory, build_pipeline, reranker_factories
from ctx.core.runtime import (
    DEFAULT_PLUGINS,
    AsyncBridge,
    Database,
    JobHandler,
    Lease,
    PluginHost,
    Reads,
    Registry,
    ReplicaSet,
    Settings,
    apply_migrations,
    default_home,
    job_handlers,
    read_urls,
    registered_objects,
    secret_reference,
)
from ctx.core.temporal import TemporalParser, parser_from_host
from ctx.core.tools import Tool, tools_of

#: the connection ``App.held_connection`` holds for the calls inside it (None: none held)
_held: ContextVar[psycopg.Connection[dict[str, Any]] | None] = ContextVar(
    "ctx_held_connection", default=None
)

log = logging.getLogger("ctx.app")


class App:
    def __init__(
        self,
        *,
        database_url: str | None = None,
        home: Path | None = None,
        builtins: Mapping[str, str] | Iterable[str] = DEFAULT_PLUGINS,
        load_entry_points: bool = True,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        env = dict(os.environ if environ is None else environ)
        self.environ = env
        self.home = home or default_home()
        self.bridge = AsyncBridge()
        self.host = PluginHost(
            builtins, load_entry_points=load_entry_points, environ=env, bridge=self.bridge
        )
        self.registry = Registry()
        for reg in self.host.registrations("register_settings"):
            for item in reg.args:
                self.registry.add_registered(item, reg.plugin)
        self.settings = Settings(self.registry, env)
        url = database_url if database_url is not None else env.get("CTX_DATABASE_URL") or None
        self.db = Database(url, self.home)
        replica_urls = read_urls(env.get("CTX_DATABASE_READ_URL"))
        if replica_urls and not url:
            raise ConfigError(
                "CTX_DATABASE_READ_URL names read replicas of an external primary: set "
                "CTX_DATABASE_URL to the primary too"
            )
        #: the read replicas (``ctx.core.runtime.replicas``); None without CTX_DATABASE_READ_URL
        self.replicas = (
            ReplicaSet(replica_urls, self.connection, self.settings, self.db.pool_size)
            if replica_urls
            else None
        )
        self.block_types: dict[str, BlockTypeSpec] = {}
        self.embedders = EmbedderCache(self)
        self.warmup = WarmUp(self)  # started by ctx serve only
        self._lease: Lease | None = None
        self._types_lock = threading.Lock()
        self.started = False

    @property
    def pm(self) -> pluggy.PluginManager:
        """The pluggy manager (``app.pm.hook.<name>``); ``app.host`` has the calling conventions."""
        return self.host.pm

    # -- registries: built on first use, all validated by open() ---------------------------------

    @cached_property
    def seal_key(self) -> bytes:
        """The key secrets are sealed with (``CTX_SEAL_KEY`` or ``$CTX_HOME/secret.key``)."""
        return load_seal_key(self.home, self.environ)

    def secret_setting(self, key: str) -> str:
        """A secret setting's value: from the environment, or the sealed secret its database
        value references (``secret:<name>``); empty when unset."""
        value, source = self.settings.resolve(key)
        name = secret_reference(value) if source == "database" else None
        if name is None:
            return str(value or "")
        with self.connection() as conn:
            return reveal_secret(conn, self.seal_key, name)

    def reveal_secret(self, name: str) -> str:
        """The plain value of the vault's secret ``name`` (a plugin's credential, such as a forge
        token); ``NotFound`` when there is none. Never log or return it to a caller."""
        with self.connection() as conn:
            return reveal_secret(conn, self.seal_key, name)

    @cached_property
    def temporal_parser(self) -> TemporalParser:
        """The deterministic parser built from every registered matcher."""
        return parser_from_host(self.host)

    @cached_property
    def embedder_factories(self) -> dict[str, EmbedderFactory]:
        return embedder_factories(self.host)

    @cached_property
    def job_handlers(self) -> dict[str, JobHandler]:
        return job_handlers(self.host)

    @cached_property
    def query_stages(self) -> list[QueryStage]:
        return build_pipeline(self.host)

    @cached_property
    def rerankers(self) -> dict[str, RerankerFactory]:
        return reranker_factories(self.host)

    @cached_property
    def backend_kinds(self) -> dict[str, BackendKind]:
        return backend_kinds(self.host)

    @cached_property
    def backends(self) -> BackendPool:
        """The model backends: rows, clients, cooldowns, ``chain(role)``."""
        return BackendPool(self)

    @cached_property
    def governor(self) -> Governor:
        """The context governor: bounded prompt envelopes over durable thread events."""
        return Governor(self)

    @cached_property
    def operations(self) -> dict[str, Operation]:
        """Every declared operation by name (``register_operations``): what the REST routes, MCP
        tools and commands derive from."""
        return declared_operations(self.host)

    @cached_property
    def transfer_sections(self) -> list[TransferSection]:
        """The sections of an export after its blocks, in the order their lines appear."""
        return transfer_sections(self.host)

    @cached_property
    def tools(self) -> dict[str, Tool]:
        """The MCP tools, derived from the operations that offer one."""
        return tools_of(self.operations.values())

    def validate_registries(self) -> list[tuple[str, BlockTypeSpec]]:
        """Build every registry; all problems are reported in one error. Returns the proposed
        block types (seeded by ``open``)."""
        problems: list[str] = []
        proposals: list[tuple[str, BlockTypeSpec]] = []
        try:
            proposals = registered_types(self.host)
        except CtxError as exc:
            problems.append(exc.message)
        for name in (
            "embedder_factories",
            "temporal_parser",
            "job_handlers",
            "query_stages",
            "rerankers",
            "backend_kinds",
            "operations",
            "tools",
            "transfer_sections",
        ):
            try:
                getattr(self, name)
            except CtxError as exc:
                problems.append(exc.message)
        if problems:
            raise PluginError("; ".join(problems))
        return proposals

    # -- lifecycle -------------------------------------------------------------------------------

    def open(self, *, migrate: bool = True, ensure_generation: bool = True) -> App:
        """Validate the plugins' registrations, start the database, apply pending migrations,
        load settings and policies."""
        proposals = self.validate_registries()
        self.home.mkdir(parents=True, exist_ok=True)
        self.db.start()
        try:
            if migrate:
                self.migrate()
            with self.connection() as conn:
                seed_types(conn, proposals)
            self.reload()
            if ensure_generation:
                ensure_active_generation(self)
            self.host.call("on_startup", app=self)
        except BaseException:
            self.db.stop()
            raise
        self.started = True
        return self

    def migrate(self) -> list[str]:
        applied = apply_migrations(self.db.url, self.host)
        for name in applied:
            log.info("applied migration %s", name)
        return applied

    @property
    def lease(self) -> Lease:
        """This process's lease on the jobs it claims (ctx.core.runtime.lease)."""
        if self._lease is None:
            self._lease = Lease(self.db.url)
        return self._lease

    def close(self) -> None:
        if self._lease is not None:
            self._lease.close()
            self._lease = None
        if "governor" in self.__dict__:
            self.governor.stop()
        if "backends" in self.__dict__:
            self.backends.close()
        if self.replicas is not None:
            self.replicas.close()
        self.db.stop()
        self.bridge.close()
        self.started = False

    def __enter__(self) -> App:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- database --------------------------------------------------------------------------------

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection[dict[str, Any]]]:
        held = _held.get()
        if held is not None:  # inside held_connection: its connection and its transaction
            yield held
            return
        with self.db.connection() as conn:
            yield conn

    @contextmanager
    def held_connection(self) -> Iterator[None]:
        """Every ``connection()`` inside the block (in this thread or task) is one pooled
        connection in one transaction, committed when the block ends: a chain of short reads
        (the governor's desk runs ten query stages) pays for one checkout and one commit instead
        of one per statement group, and reads one snapshot. Only for work that holds no model
        call and catches no database error inside it (a failed statement ends the transaction
        for the rest of the block)."""
        if _held.get() is not None:
            yield
            return
        with self.db.connection() as conn:
            token = _held.set(conn)
            try:
                yield
            finally:
                _held.reset(token)

    def reads(self, who: Principal | None = None, *, own_writes: bool = True) -> Reads:
        """Where the reads of ``who``'s call go (``Reads.run(read)``): a read replica when
        there are any and the call writes nothing (``ctx.core.runtime.replicas``), else the
        primary. ``own_writes=False``: these reads need not see what the call itself wrote."""
        if self.replicas is None or who is None:
            return Reads(self.connection)
        return self.replicas.reads(who, own_writes=own_writes)

    def note_write(self, who: Principal) -> None:
        """After a call of ``who`` that wrote: record where its key's next reads must be."""
        if self.replicas is not None:
            self.replicas.note_write(who)

    def reload(self) -> list[str]:
        """Re-read the database layer of settings and the block-type rows (hot reload)."""
        with self.connection() as conn:
            rows = conn.execute("SELECT key, value FROM context_settings").fetchall()
            types = load_types(conn)
        problems = self.settings.load_db(
            [(r["key"], r["value"]) for r in rows], startup=not self.started
        )
        for p in problems:
            log.warning(p)
        with self._types_lock:
            self.block_types = types
        if "backends" in self.__dict__:
            self.backends.invalidate()
        return problems

    def block_type(self, name: str) -> BlockTypeSpec | None:
        with self._types_lock:
            return self.block_types.get(name)

    def use_block_type(self, spec: BlockTypeSpec) -> None:
        """Use ``spec`` in this process before its row commits (an import writes a type and its
        blocks in one transaction); the import's ``reload`` puts back what the database holds."""
        with self._types_lock:
            self.block_types = {**self.block_types, spec.name: spec}


def declared_operations(host: PluginHost) -> dict[str, Operation]:
    """The operations plugins declare, by name; a malformed declaration, a name, a route or a tool
    name declared twice stops start-up with every problem in one error."""
    found = registered_objects(
        host,
        "register_operations",
        Operation,
        name=lambda op: op.name,
        what="operation",
        check=lambda op: "; ".join(op.problems()) or None,
    )
    problems = []
    routes: dict[tuple[str, str], str] = {}
    tools: dict[str, str] = {}
    for op in found.values():
        if op.rest is not None:
            key = (op.rest.method, op.rest.path)
            if key in routes:
                problems.append(f"route {' '.join(key)} declared by {routes[key]} and {op.name}")
            routes.setdefault(key, op.name)
        if op.tool is not None:
            if op.tool.name in tools:
                problems.append(
                    f"tool {op.tool.name!r} declared by {tools[op.tool.name]} and {op.name}"
                )
            tools.setdefault(op.tool.name, op.name)
    if problems:
        raise PluginError("; ".join(problems))
    return found
