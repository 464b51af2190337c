"""What every command shares: printing JSON, tables and snippets, reading standard input, failing
cleanly. Nothing here loads server code (local commands open the App through ``operator.app``)."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from datetime import date, datetime
from typing import Annotated, Any
from uuid import UUID

import typer
from rich.console import Console
from rich.progress import ProgressColumn, Task
from rich.table import Table
from rich.text import Text

from ctx.core.errors import ValidationError

# No markup: user text ("[alpha/notes]") is printed as it is; styles come from rich.Text.
console = Console(highlight=False, soft_wrap=True, markup=False)
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object for scripts.")]


def comma_list(text: str) -> list[str]:
    """``"a, b,,c"`` -> ``["a", "b", "c"]``: the CLI's comma-separated options."""
    return [part.strip() for part in text.split(",") if part.strip()]


def _default(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, UUID):
        return str(value)
    return str(value)


def dump_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, default=_default, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def headline(title: str, block_id: str, scope: str, category: str, score: float | None) -> Text:
    """'Title  3f2a1b9c  alpha/notes  0.0164', with user text never read as markup."""
    text = Text()
    text.append(title, style="bold")
    text.append(f"  {block_id[:8]}  {scope}/{category}")
    if score is not None:
        text.append(f"  {score:.4f}", style="dim")
    return text


def snippet(raw: str | None, indent: str = "   ") -> Text | None:
    """A search snippet with its **highlights** shown bold; None when there is nothing to show."""
    flat = " ".join((raw or "").split())
    if not flat:
        return None
    text = Text(indent)
    for i, part in enumerate(flat.split("**")):
        text.append(part, style="bold" if i % 2 else "")
    return text


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
        # fold, never truncate: an id or key cut to "ctx_ab…" is useless to copy
        t.add_column(col, overflow="fold")
    for row in rows:
        t.add_row(*[Text(_cell(row.get(c)), overflow="fold") for c in columns])
    console.print(t)


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M")
    return str(value)


class RateColumn(ProgressColumn):
    """A progress column with the recent throughput, e.g. ``12.3 blocks/s``."""

    def __init__(self, unit: str) -> None:
        super().__init__()
        self.unit = unit

    def render(self, task: Task) -> Text:
        speed = task.speed
        return Text(f"{speed:.1f} {self.unit}/s" if speed else f"- {self.unit}/s")
