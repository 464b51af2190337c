"""Obsidian vaults into ctx: ``ctx ingest VAULT`` parses notes on the client (front matter,
tags, aliases, wikilinks, chunks along headings) and sends them to ``/api/ingest``, which stores
each chunk as a block through the core's write path and turns wikilinks into ``context_links``.
A second run sends only notes whose content hash changed and archives the blocks of deleted notes.
Documents (Markdown, text, HTML, PDF) go to ``POST /api/ingest`` one at a time, from
``ctx ingest FILE...`` or any client; the server parses them and keeps each chunk's page or heading.

Its operations (``operations``) are declared once each.

Importing this package loads no routes, commands or services: each hook imports its module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ctx.core import hookimpl

if TYPE_CHECKING:
    from ctx.core import Operation


@hookimpl
def register_settings(register: Callable[[Any], None]) -> None:
    from ctx.plugins.ingest.settings import SETTINGS

    for setting in SETTINGS:
        register(setting)


@hookimpl
def register_operations(register: Callable[[Operation], None]) -> None:
    from ctx.core import declared
    from ctx.plugins.ingest import operations

    for op in declared(vars(operations)):
        register(op)


@hookimpl
def register_commands(cli: Any) -> None:
    from ctx.plugins.ingest.cli import ingest

    cli.command("ingest")(ingest)
