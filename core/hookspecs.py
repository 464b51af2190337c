"""Every hook a ctx plugin can implement.

Registration hooks take a ``register`` callback: the plugin calls it once per thing it provides and
the core validates what it receives (duplicate names stop start-up with one error naming both
plugins). Event hooks are plain calls. The core calls every hook through pluggy, one plugin at a
time in registration order (core capabilities, then the built-ins, then entry points), so each
registration is recorded with the plugin that made it and ``CTX_TRACE_PLUGINS=1`` traces every call.

pluggy is synchronous. A hook that does I/O may return a value, a callable or an awaitable; the core
resolves awaitables on the ``App``'s own event loop thread (``docs/architecture.md``, "Sync and
async").

``docs/plugin-hooks.md`` documents each hook; ``tests/core/test_hookspecs.py`` keeps the two in step.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    import psycopg
    import typer

    from ctx.core.access import Principal
    from ctx.core.app import App
    from ctx.core.blocks import BlockTypeSpec, BlockWrite, TransferSection
    from ctx.core.embed import EmbedderFactory
    from ctx.core.governor import CacheFactory, TokenCounter
    from ctx.core.llm import BackendKind
    from ctx.core.operations import Operation
    from ctx.core.retrieval import QueryStage, RerankerFactory
    from ctx.core.runtime import JobHandler, Setting, SettingCheck, Settings
    from ctx.core.temporal import TemporalMatcher

PROJECT = "ctx"

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


# -- registration hooks --------------------------------------------------------------------------


@hookspec
def register_settings(register: Callable[[Setting | SettingCheck], None]) -> None:
    """Add typed settings (and rules across settings) to the registry.

    Called once when an ``App`` is built; all implementations run. Call ``register(setting)`` with a
    ``Setting`` per key, or ``register(SettingCheck(...))`` for a rule that spans keys. A key
    registered twice stops start-up. Return nothing.
    """


@hookspec
def register_block_types(register: Callable[[BlockTypeSpec | Mapping[str, Any]], None]) -> None:
    """Provide block types as policy data.

    Called once when an ``App`` opens; all implementations run. Call ``register(spec)`` with a
    ``BlockTypeSpec`` (or a mapping with the same fields) per type. Types are inserted into
    ``context_block_types`` when missing; an existing row is left alone, because the row is the
    policy and operators may have edited it. Return nothing.
    """


@hookspec
def register_migrations(register: Callable[[str, str | Path], None]) -> None:
    """Contribute a migration set.

    Called by the migration runner each time it runs; all implementations run. Call
    ``register(set_name, package)`` where ``package`` is an importable package name (or a directory)
    holding ``NNNN_slug.sql`` files, applied once each in file-name order, and optionally a
    ``functions/`` folder of repeatable SQL re-applied whenever a file changes. Sets are applied
    after the core set. Return nothing.
    """


@hookspec
def register_embedders(register: Callable[[str, EmbedderFactory], None]) -> None:
    """Provide embedding models.

    Called once when an ``App`` opens; all implementations run. Call ``register(name, factory)``
    where ``factory(options)`` (a plain dict) returns an object following ``Embedder``. The
    ``embed.provider`` setting selects one by name. Return nothing.
    """


@hookspec
def register_temporal_matchers(register: Callable[[TemporalMatcher], None]) -> None:
    """Provide rules of the deterministic temporal parser.

    Called once when the parser is first built; all implementations run. Call
    ``register(matcher)`` with an object following ``TemporalMatcher``; matchers run in ascending
    ``priority`` (most specific first) and the first match wins. Return nothing.
    """


@hookspec
def register_job_handlers(register: Callable[[JobHandler], None]) -> None:
    """Provide handlers for kinds of background jobs.

    Called once when an ``App`` opens; all implementations run. Call ``register(handler)`` with a
    ``JobHandler`` naming its job ``kind``; every worker claims jobs of every registered kind, in
    batches of ``handler.batch_size``, and calls ``handler.handle(app, jobs)``. A kind registered
    twice stops start-up. Return nothing.
    """


@hookspec
def register_query_stages(register: Callable[[QueryStage], None]) -> None:
    """Add or replace stages of the query path.

    Called once when an ``App`` opens; all implementations run. Call ``register(stage)`` with a
    ``QueryStage``: without a position it is appended; with ``after``, ``before`` or ``replaces``
    naming an existing stage it goes there. An unknown anchor, or two plugins replacing the same
    stage, stops start-up. Return nothing.
    """


@hookspec
def register_rerankers(register: Callable[[str, RerankerFactory], None]) -> None:
    """Provide rerankers for the query path.

    Called once when an ``App`` opens; all implementations run. Call ``register(name, factory)``
    where ``factory(options)`` (a plain dict) returns an object following ``Reranker``. Return
    nothing.
    """


@hookspec
def register_backend_kinds(register: Callable[[BackendKind], None]) -> None:
    """Provide kinds of model backends (wire protocols or in-process runtimes).

    Called once when an ``App`` opens; all implementations run. Call ``register(kind)`` with a
    ``BackendKind``; a backend row names its kind, and the kind's factory builds the client from
    the row. Return nothing.
    """


@hookspec
def register_operations(register: Callable[[Operation], None]) -> None:
    """Declare operations: what the plugin does, once, with the surfaces that offer it.

    Called once when an ``App`` is built; all implementations run. Call ``register(operation)``
    with a ``ctx.core.Operation`` (name, summary, input and output models, the service as
    ``"module:function"``, kind, access, reach, and its REST route, MCP tool and command-line
    surfaces). The REST route, MCP tool, rate-limit kinds and OpenAPI entry derive from it; a
    command presents it with ``ctx.ui.presents``. A name, route or tool name registered twice, or a
    declaration that is malformed or names a function that cannot be loaded, stops start-up.
    Return nothing.
    """


@hookspec
def register_transfer_sections(register: Callable[[TransferSection], None]) -> None:
    """Carry the plugin's rows about a scope through ``ctx export`` and ``ctx import``.

    Called once when an ``App`` is built; all implementations run, in registration order, which
    is the order of the sections' lines in an export (after every block). Call
    ``register(TransferSection(name, records, export, tables))``: ``records`` are the
    ``TransferRecord(kind, model, restore)`` kinds of line the section writes (``model`` derives
    from ``ctx.core.TransferLine``); ``export(ExportContext)`` yields the section's lines (dicts with
    their ``type``) for ``Export.scopes``; ``restore(RestoreContext, line)`` writes one line back in
    the import's transaction and returns ``created``, ``updated``, ``unchanged`` (any of them
    with a note for the import's answer: ``noted(outcome, note)``) or ``skipped(reason)``, or
    raises a ``CtxError`` to refuse the whole batch; ``tables`` names the tables it carries.
    ``admin=True`` marks the server's own rows rather than a scope's (settings, keys, backends):
    only the admin export carries them and only an admin key imports them; ``first=True`` puts
    the section's lines before the blocks (rows the blocks or later sections rely on). A section
    name or record type registered twice stops start-up. Return nothing.
    """


@hookspec
def register_commands(cli: typer.Typer) -> None:
    """Add commands to the ``ctx`` command line.

    Called once when the command line is built; all implementations run. ``cli`` is the root
    ``typer.Typer``: call ``cli.command()(func)`` or ``cli.add_typer(sub, name=...)``. A command
    name that is already taken stops with both owners named. Return nothing.
    """


@hookspec
def register_web(register: Callable[[Any], None]) -> None:
    """Extend the web workbench: pages, navigation entries, template overrides.

    Called once when the HTTP app is built; all implementations run. Call ``register(item)``
    with a ``ctx.ui.web.WebPage`` (an ``APIRouter`` of pages and an optional ``NavEntry``), a
    ``NavEntry`` alone, or a ``TemplateDir`` whose templates override the built-in ones of the
    same name. Page routes use ``ctx.ui.web``'s ``UserDep``/``AdminUserDep`` (session and CSRF
    checks) and ``render``. Return nothing.
    """


@hookspec
def register_token_counters(register: Callable[[TokenCounter], None], settings: Settings) -> None:
    """Provide token counters for the context governor's envelopes.

    Called once when the governor first counts; all implementations run. ``settings`` is the
    App's resolved settings (``settings["tokens.tokenizer_file"]``), for counters that read
    their own. Call
    ``register(counter)`` with a ``TokenCounter`` (name, ``count(text)``, whether it is exact, the
    framing costs per message and per reply, ``unavailable()`` saying why it cannot be used now,
    or ``None``, and ``counts_for(model)`` saying whether it is that model's own tokenizer).
    ``governor.token_counter`` picks one by name; ``auto`` gives each model the preferred
    available exact counter that ``counts_for`` it, else an inexact one, which must never count
    fewer tokens than a model would. A name registered twice stops start-up. Return nothing.
    """


@hookspec
def register_caches(register: Callable[[str, CacheFactory], None]) -> None:
    """Provide an external cache tier (a shared, disposable key-value store such as Redis).

    Called once when the governor starts; all implementations run. Call ``register(name,
    factory)`` where ``factory(app)`` returns an object following ``ExternalCache`` (``get``,
    ``set`` with a time to live, ``delete``, ``close``) or ``None`` when the tier is not configured.
    The first factory that returns a tier is used, behind the process LRU; any error it raises
    counts as a miss, so the database answers. Return nothing.
    """


# -- event hooks ---------------------------------------------------------------------------------


@hookspec
def on_startup(app: App) -> Any:
    """Run when an ``App`` has opened its database and loaded its policies.

    Called once per ``App.open()``; all implementations run, in registration order. May return
    an awaitable. An exception stops start-up.
    """


@hookspec
def before_block_write(
    app: App, conn: psycopg.Connection[dict[str, Any]], who: Principal, write: BlockWrite
) -> None:
    """Veto or annotate a block write, inside its transaction.

    Called by ``store`` inside the write's transaction, before the row is written;
    all implementations run, in registration order. ``conn`` is that transaction. To veto, raise
    a ``CtxError`` (its status and message reach the caller; nothing is written). To annotate,
    change ``write.tags`` or ``write.meta``, raise ``write.sensitivity``, or call
    ``write.queue_job(kind)`` for work queued in the same transaction once the block has its id.
    Return nothing.
    """


@hookspec
def on_block_written(app: App, block: dict[str, Any], action: str) -> Any:
    """Observe a committed block write.

    Called after the transaction that stored the block has committed; ``action`` is ``created``,
    ``updated`` or ``deleted`` and ``block`` is the stored row as a dict. All implementations run;
    an exception is logged and never undoes the write. May return an awaitable.
    """
