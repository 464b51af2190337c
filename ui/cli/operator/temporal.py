"""``ctx temporal``: run the deterministic temporal parser from the shell; no server, no database."""

from __future__ import annotations

import json
import sys
from datetime import date
from typing import TYPE_CHECKING, Annotated

import typer

from ctx.core.errors import ValidationError
from ctx.ui.cli.operator.app import current_app
from ctx.ui.cli.present import local

if TYPE_CHECKING:
    from ctx.core.temporal import TemporalParser, TemporalResult

app = typer.Typer(help="Resolve dates in text with the deterministic temporal parser.")


@app.callback()
def _group() -> None:
    """Resolve dates in text with the deterministic temporal parser."""


def _parse_now(value: str | None) -> date | None:
    if value is None:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ValidationError(f"--now {value!r} is not a date; give it as YYYY-MM-DD") from None


def _describe(text: str, result: TemporalResult) -> str:
    if not result.matched:
        note = f" ({result.fallback})" if result.fallback else ""
        return f"{text!r}: no match{note}"
    span = result.start.isoformat() if result.start else "-"
    if result.end and result.end != result.start:
        span += f" .. {result.end.isoformat()}"
    if len(result.dates) > 1:
        span = ", ".join(d.isoformat() for d in result.dates)
    weights = ", ".join(f"{k} {v:.2f}" for k, v in result.weights.items())
    return f"{text!r}: {span} [{result.direction}] via {result.matcher}; weights {weights}"


@app.command()
@local
def parse(
    text: Annotated[
        str, typer.Argument(help='The text to parse, or "-" for one text per stdin line.')
    ],
    now: Annotated[
        str | None, typer.Option("--now", help="Reference day YYYY-MM-DD (default: today).")
    ] = None,
    lang: Annotated[
        str | None, typer.Option("--lang", help="Language hint (de, en); default: guessed.")
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the result object as JSON.")
    ] = False,
) -> None:
    """Resolve the dates a text refers to."""
    reference = _parse_now(now)
    parser: TemporalParser = current_app().temporal_parser
    texts = [line.rstrip("\n") for line in sys.stdin] if text == "-" else [text]
    for item in texts:
        if text == "-" and not item.strip():
            continue
        result = parser.parse(item, now=reference, lang=lang)
        if as_json:
            typer.echo(json.dumps(result.to_json(), ensure_ascii=False))
        else:
            typer.echo(_describe(item, result))


def register(cli: typer.Typer) -> None:
    cli.add_typer(app, name="temporal", help="Deterministic temporal parsing.")
