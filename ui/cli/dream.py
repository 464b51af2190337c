"""``ctx dream``: Dream's figures (stats), the links to review (review, confirm, delete), one
cycle now (run-once) and its pace (throttle); through the running server."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ctx.core.client import Client
from ctx.core.errors import ValidationError
from ctx.core.graph import (
    DREAM_LINKS,
    DREAM_STATS,
    DREAM_THROTTLE,
    REVIEW_DREAM_LINK,
    RUN_DREAM,
)
from ctx.ui.cli.common import JsonOpt, console, dump_json, table
from ctx.ui.cli.present import presents

dream_app = typer.Typer(help="Dream: links between blocks made in the background.",
                        no_args_is_help=True)  # fmt: skip
LINK_COLUMNS = ["id", "type", "confidence", "status", "source_title", "target_title", "note"]


@dream_app.command("stats")
@presents(DREAM_STATS)
def dream_stats(as_json: JsonOpt = False) -> None:
    """Links by type and status; for admin keys the queue of blocks and the pace."""
    result = Client().call(DREAM_STATS)
    if as_json:
        dump_json(result)
        return
    for kind, by_status in sorted(result.get("links", {}).items()):
        shown = ", ".join(f"{s} {n}" for s, n in sorted(by_status.items()))
        console.print(f"{kind}: {shown}", markup=False)
    if not result.get("links"):
        console.print("no links yet", markup=False)
    for key in ("blocks", "outcomes"):
        if result.get(key):
            shown = ", ".join(f"{k} {v}" for k, v in sorted(result[key].items()))
            console.print(f"{key}: {shown}", markup=False)
    for key in ("throttle", "concurrency", "backend"):
        if key in result:
            console.print(f"{key}: {result[key]}", markup=False)


@dream_app.command("review")
@presents(DREAM_LINKS)
def dream_review(
    status: Annotated[
        str | None, typer.Option("--status", help="active, confirmed, rejected.")
    ] = None,
    link_type: Annotated[str | None, typer.Option("--type", help="A link type.")] = None,
    block: Annotated[str | None, typer.Option("--block", help="Links of this block id.")] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=200)] = 50,
    as_json: JsonOpt = False,
) -> None:
    """Recent links, newest first, to confirm or delete."""
    params: dict[str, Any] = {"limit": limit}
    for key, value in (("status", status), ("type", link_type), ("block", block)):
        if value is not None:
            params[key] = value
    result = Client().call(DREAM_LINKS, params)
    if as_json:
        dump_json(result)
        return
    if result["links"]:
        table(result["links"], LINK_COLUMNS)
    else:
        console.print("no links", markup=False)


def _review(link_id: int, action: str, as_json: bool) -> None:
    result = Client().call(REVIEW_DREAM_LINK, {"link_id": link_id, "action": action})
    if as_json:
        dump_json(result)
    else:
        console.print(f"link {result['id']}: {result['status']}", markup=False)


@dream_app.command("confirm")
@presents(REVIEW_DREAM_LINK)
def dream_confirm(link_id: Annotated[int, typer.Argument(min=1)], as_json: JsonOpt = False) -> None:
    """Confirm a link."""
    _review(link_id, "confirm", as_json)


@dream_app.command("delete")
@presents(REVIEW_DREAM_LINK)
def dream_delete(link_id: Annotated[int, typer.Argument(min=1)], as_json: JsonOpt = False) -> None:
    """Delete a link (kept as rejected, so Dream does not make it again)."""
    _review(link_id, "delete", as_json)


@dream_app.command("run-once")
@presents(RUN_DREAM)
def dream_run_once(
    block: Annotated[str | None, typer.Option("--block", help="This block, if due.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Run one Dream cycle now (admin keys) and show what it did."""
    result = Client(timeout=900).call(RUN_DREAM, {"block_id": block})
    if as_json:
        dump_json(result)
        return
    console.print(f"{result['outcome']}: block {(result.get('block_id') or '-')[:8]}, "
                  f"{len(result.get('links', []))} link(s)", markup=False)  # fmt: skip
    for link in result.get("links", []):
        console.print(f"  {link['type']} {link['source_id'][:8]} -> {link['target_id'][:8]} "
                      f"({link['confidence']:.2f})", markup=False)  # fmt: skip
    if result.get("error"):
        console.print(f"  {result['error']}", markup=False)


@dream_app.command("throttle")
@presents(DREAM_THROTTLE)
def dream_throttle(
    mode: Annotated[str, typer.Argument(help="on, throttled or off.")],
    as_json: JsonOpt = False,
) -> None:
    """Set Dream's pace (admin keys)."""
    if mode not in ("on", "throttled", "off"):
        raise ValidationError("mode must be on, throttled or off")
    result = Client().call(DREAM_THROTTLE, {"mode": mode})
    if as_json:
        dump_json(result)
    else:
        console.print(f"dream throttle: {result['throttle']}", markup=False)


def register(cli: typer.Typer) -> None:
    cli.add_typer(dream_app, name="dream")
