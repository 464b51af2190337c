"""The issue tracker as one plugin: issues and their comments are blocks (types ``issue`` and
``issue-comment``, workflow ``issues``) whose typed metadata this plugin validates on every write;
numbers per repository scope and an append-only history live in the ``issues`` migration set.
Its operations (``operations``: REST under ``/api/issues``, the ``issue_*`` MCP tools, presented by
``ctx issues ...``) are declared once each. Two-way sync with forges (GitHub first) lives in
``sync``: links, the ``issues.sync`` job, the webhook endpoint and conflicts.

Importing this package loads no routes, commands, services or block types (their rows need the
database driver): each hook imports its module, so ``ctx issues`` stays a thin client.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ctx.core import hookimpl
from ctx.plugins.issues.metadata import check_comment_meta, check_issue_meta

if TYPE_CHECKING:
    import psycopg

    from ctx.core import App, BlockTypeSpec, BlockWrite, Operation, Principal, TransferSection


@hookimpl
def register_block_types(register: Callable[[BlockTypeSpec], None]) -> None:
    from ctx.plugins.issues.types import COMMENT_TYPE, ISSUE_TYPE

    register(ISSUE_TYPE)
    register(COMMENT_TYPE)


@hookimpl
def register_settings(register: Callable[[Any], None]) -> None:
    from ctx.plugins.issues.sync.settings import SETTINGS

    for setting in SETTINGS:
        register(setting)


@hookimpl
def register_migrations(register: Callable[[str, str], None]) -> None:
    register("issues", "ctx.plugins.issues.migrations")


@hookimpl
def before_block_write(
    app: App, conn: psycopg.Connection[Any], who: Principal, write: BlockWrite
) -> None:
    """Every write of an issue or a comment, by any surface, obeys the typed metadata; an issue
    written with its number (an import, a sync) moves its scope's counter past it."""
    from ctx.plugins.issues.records import advance_past
    from ctx.plugins.issues.types import COMMENT, ISSUE

    if write.spec.name == ISSUE:
        write.meta = check_issue_meta(write.meta)
        advance_past(conn, write.scope, write.meta["number"])
    elif write.spec.name == COMMENT:
        write.meta = check_comment_meta(write.meta)


@hookimpl
def register_operations(register: Callable[[Operation], None]) -> None:
    from ctx.core import declared
    from ctx.plugins.issues import operations

    for op in declared(vars(operations)):
        register(op)


@hookimpl
def register_transfer_sections(register: Callable[[TransferSection], None]) -> None:
    from ctx.plugins.issues.sync.transfer import SYNC_SECTION
    from ctx.plugins.issues.transfer import ISSUES_SECTION

    register(ISSUES_SECTION)
    register(SYNC_SECTION)


@hookimpl
def register_job_handlers(register: Callable[[Any], None]) -> None:
    from ctx.plugins.issues.sync.jobs import HANDLER

    register(HANDLER)


@hookimpl
def register_commands(cli: Any) -> None:
    from ctx.plugins.issues.cli import cli as issues_cli

    cli.add_typer(issues_cli, name="issues")


@hookimpl
def register_web(register: Callable[[Any], None]) -> None:
    """The workbench's issue pages, with their own templates (all under ``issues/``)."""
    from pathlib import Path

    from ctx.plugins.issues.web import router
    from ctx.ui import NavEntry, TemplateDir, WebPage

    register(WebPage(router, nav=NavEntry("Issues", "/issues", order=55)))
    register(TemplateDir(Path(__file__).resolve().parent / "templates"))
