"""``ctx digest``: the topic map of your read scopes, or the daily digest of your home scope,
through the running server (``CTX_URL``, ``CTX_API_KEY``)."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any

import typer
from rich.text import Text

from ctx.core.client import Client
from ctx.core.errors import ValidationError
from ctx.core.graph import DAILY_DIGEST, TOPIC_DIGEST
from ctx.ui.cli.common import JsonOpt, console, dump_json
from ctx.ui.cli.present import presents


def _day(text: str | None) -> str | None:
    if text is None:
        return None
    try:
        return date.fromisoformat(text.strip()).isoformat()
    except ValueError:
        raise ValidationError(f"--date {text!r} is not a date: use YYYY-MM-DD") from None


def _print_map(result: dict[str, Any]) -> None:
    clusters = result.get("clusters", [])
    refreshed = result.get("refreshed_at")
    console.print(f"{result.get('blocks', 0)} blocks; {len(clusters)} topic clusters"
                  + (f" (map of {refreshed})" if refreshed else ""), markup=False)  # fmt: skip
    for c in clusters:
        line = Text(f"{c['id']:>3}. ")
        line.append(f"{c['size']} blocks", style="bold")
        line.append(f"  {c['scope']}: " + " · ".join(c["titles"]))
        console.print(line)
    if not clusters:
        console.print("no clusters yet: they appear once blocks are linked", markup=False)
    if result.get("categories"):
        shown = ", ".join(f"{c['category']} {c['blocks']}" for c in result["categories"])
        console.print(f"categories: {shown}", markup=False)


def _print_daily(result: dict[str, Any]) -> None:
    if result.get("skipped"):
        console.print(f"no digest for {result['day']}: {result['skipped']}", markup=False)
        return
    console.print(Text(f"{result['title']} ({result['action']}, {result['id'][:8]})",
                       style="bold"))  # fmt: skip
    console.print(result["content"], markup=False, highlight=False)
    cited = ", ".join(f"[{c['n']}] {c['title']}" for c in result.get("citations", []))
    if cited:
        console.print(f"cited: {cited}", markup=False, highlight=False)
    if result.get("withheld"):
        console.print(f"{result['withheld']} block(s) withheld from {result['backend']} by its "
                      "trust level", markup=False)  # fmt: skip


@presents(TOPIC_DIGEST, DAILY_DIGEST)
def digest(
    daily: Annotated[
        bool, typer.Option("--daily", help="Write the daily digest of your home scope.")
    ] = False,
    day: Annotated[
        str | None,
        typer.Option("--date", help="With --daily: the day to summarise, YYYY-MM-DD (UTC)."),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """The topic map of your read scopes (clusters of linked blocks, categories); with --daily,
    summarise one day's writes into the block 'Digest YYYY-MM-DD' (needs a digest backend)."""
    if day is not None and not daily:
        raise ValidationError("--date needs --daily")
    if daily:
        body = {"date": _day(day)} if day is not None else {}
        result = Client(timeout=600).call(DAILY_DIGEST, body)
        if as_json:
            dump_json(result)
        else:
            _print_daily(result)
        return
    result = Client().call(TOPIC_DIGEST)
    if as_json:
        dump_json(result)
    else:
        _print_map(result)


def register(cli: typer.Typer) -> None:
    cli.command()(digest)
