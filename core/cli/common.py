"""What every command shares: opening the App, printing JSON or tables, failing cleanly."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import date, datetime
from typing import Annotated, Any
from uuid import UUID

import click
import typer
from rich.console import Console
from rich.table import Table

from ctx.core.app import App
from ctx.core.errors import ValidationError

console = Console(highlight=False, soft_wrap=True)
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]


def _default(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, UUID):
        return str(value)
    return str(value)


def dump_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, default=_default, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def read_stdin_text() -> str:
    """Standard input as text; bytes that are not UTF-8 are a clear error, not a traceback."""
    data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValidationError(
            f"standard input is not UTF-8 text (byte {exc.start}); convert it, for example with "
            "iconv -f latin1 -t utf-8"
        ) from None


def table(rows: Sequence[dict[str, Any]], columns: Sequence[str], title: str | None = None) -> None:
    t = Table(title=title, show_lines=False)
    for col in columns:
        t.add_column(col)
    for row in rows:
        t.add_row(*[_cell(row.get(c)) for c in columns])
    console.print(t)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M")
    return str(value)


def current_app() -> App:
    """The invocation's App (built once by ``run``); a fresh one outside a command."""
    ctx = click.get_current_context(silent=True)
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
