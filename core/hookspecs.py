"""Every hook a ctx plugin can implement.

Registration hooks take a ``register`` callback: the plugin calls it once per thing it provides and
the core validates what it receives (duplicate names stop start-up with an error naming both
plugins). Event hooks are plain calls whose results are ignored. pluggy is synchronous; a hook that
does I/O may return a value, a callable or an awaitable, and the core resolves it through
``ctx.core.hooks.resolve``.

``docs/plugin-hooks.md`` documents each hook; ``tests/core/test_hookspecs.py`` keeps the two in step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from ctx.core.app import App

PROJECT = "ctx"

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def register_block_types(register: Callable[..., None]) -> None:
    """Provide block types as policy data.

    Called once at start-up; all implementations run. Call ``register(spec)`` with a
    ``ctx.core.types.BlockTypeSpec`` (or a mapping with the same fields) per type. Types are
    inserted into ``context_block_types`` when missing; an existing row is left alone, because the
    row is the policy and operators may have edited it. Return nothing.
    """


@hookspec
def register_settings(register: Callable[..., None]) -> None:
    """Add typed settings to the registry.

    Called once when the ``App`` is built; all implementations run. Call ``register(setting)`` with a
    ``ctx.core.settings.Setting``. A key registered twice stops start-up. Return nothing.
    """


@hookspec
def register_migrations(register: Callable[..., None]) -> None:
    """Contribute a migration set.

    Called by the migration runner; all implementations run. Call ``register(set_name, package)``
    where ``package`` is an importable package (or a directory path) holding ``NNNN_slug.sql``
    files. Sets are applied after the core set, each in file-name order. Return nothing.
    """


@hookspec
def register_commands(cli: Any) -> None:
    """Add commands to the ``ctx`` command line.

    Called once when the CLI is built; all implementations run. ``cli`` is the root
    ``typer.Typer``: call ``cli.command()(func)`` or ``cli.add_typer(sub, name=...)``. Return
    nothing.
    """


@hookspec
def register_routes(register: Callable[..., None]) -> None:
    """Add HTTP routes to the server.

    Called once when the FastAPI app is built; all implementations run. Call
    ``register(router)`` with a ``fastapi.APIRouter``; use ``ctx.ui.deps`` for the auth
    dependencies so plugin routes fail closed like the core's. Return nothing.
    """


@hookspec
def register_embedders(register: Callable[..., None]) -> None:
    """Provide embedding models.

    Called once at start-up; all implementations run. Call ``register(name, factory)`` where
    ``factory(options)`` (a plain dict) returns an object following
    ``ctx.core.embed.Embedder``. The
    ``embed.provider`` setting selects one by name. Return nothing.
    """


@hookspec
def register_temporal_matchers(register: Callable[..., None]) -> None:
    """Provide rules of the deterministic temporal parser.

    Called once at start-up; all implementations run. Call ``register(matcher)`` with an object
    following ``ctx.core.temporal.types.TemporalMatcher``; matchers run in ascending ``priority``
    (most specific first) and the first match wins. Return nothing.
    """


@hookspec
def on_startup(app: App) -> Any:
    """Run when an ``App`` has opened its database and loaded its policies.

    All implementations run, in registration order. May return an awaitable. The return value is
    otherwise ignored.
    """


@hookspec
def on_block_written(app: App, block: dict[str, Any], action: str) -> Any:
    """Observe a committed block write.

    Called after the transaction that stored the block has committed; ``action`` is ``created``,
    ``updated`` or ``deleted`` and ``block`` is the stored row as a dict. All implementations run;
    an exception is logged and never undoes the write. May return an awaitable.
    """
