"""The App of a local command: built once per invocation, opened for the length of a command."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from ctx.ui.cli.clicklib import get_current_context

if TYPE_CHECKING:
    from ctx.core.app import App


def current_app() -> App:
    """The invocation's App (given to ``run``, or built here on first use: only local commands
    ask, so a command that talks to ctxd never loads it)."""
    from ctx.core.app import App

    ctx = get_current_context(silent=True)
    app = ctx.find_object(App) if ctx is not None else None
    return app if app is not None else App()


@contextmanager
def opened_app(*, migrate: bool = True) -> Iterator[App]:
    """The invocation's App, opened on the configured database (starting the embedded cluster
    when needed) for the length of the block."""
    app = current_app()
    app.open(migrate=migrate)
    try:
        yield app
    finally:
        app.close()
