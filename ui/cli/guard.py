"""``ctx guard``: the Guard's flags (list), its figures (stats), resolving a flag (resolve) and,
for admin keys, the thresholds per type and generation; through the running server."""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.text import Text

from ctx.core.client import Client
from ctx.core.errors import ValidationError
from ctx.core.guard import (
    GUARD_FLAGS,
    GUARD_STATS,
    GUARD_THRESHOLDS,
    RESOLVE_GUARD_FLAG,
    SET_GUARD_THRESHOLDS,
)
from ctx.ui.cli.common import JsonOpt, console, dump_json
from ctx.ui.cli.present import presents

guard_app = typer.Typer(
    help="The Guard: near-duplicates caught on write, updates and translations recorded.",
    no_args_is_help=True,
)


def _given(**params: Any) -> dict[str, Any]:
    """The filters set: a flag only when on (the server's default is off)."""
    return {k: v for k, v in params.items() if v is not None and v is not False}


@guard_app.command("list")
@presents(GUARD_FLAGS)
def guard_list(
    decision: Annotated[
        str | None,
        typer.Option(
            "--decision", help="near_duplicate, update, translation, needs_review or clean."
        ),
    ] = None,
    all_: Annotated[bool, typer.Option("--all", help="Resolved flags too.")] = False,
    cross_scope: Annotated[
        bool, typer.Option("--cross-scope", help="Admin keys: matches across scopes.")
    ] = False,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=200)] = 50,
    as_json: JsonOpt = False,
) -> None:
    """Flagged blocks, copies archived and updates recorded, with the earlier blocks they
    resemble and what changed (before -> after), newest first."""
    filters = _given(decision=decision, all=all_, cross_scope=cross_scope, limit=limit)
    result = Client().call(GUARD_FLAGS, filters)
    if as_json:
        dump_json(result)
        return
    for f in result["flags"]:
        line = Text(f.get("decision", "cross-scope"), style="bold")
        sim = f.get("similarity")
        line.append(f"  {f['block_id'][:8]} {f.get('title') or ''}")
        line.append(f"  ~ {(f.get('match_id') or '')[:8]} {f.get('match_title') or ''}")
        if sim is not None:
            line.append(f"  {sim:.4f}", style="dim")
        if f.get("reason"):
            line.append(f"  {f['reason']}", style="dim")
        console.print(line)
        for change in (f.get("details") or {}).get("changes", []):
            console.print(f"    - {change['before'] or '(nothing)'}", style="red", markup=False)
            console.print(f"    + {change['after'] or '(nothing)'}", style="green", markup=False)
    if not result["flags"]:
        console.print("nothing flagged")


@guard_app.command("stats")
@presents(GUARD_STATS)
def guard_stats(as_json: JsonOpt = False) -> None:
    """Blocks by Guard status, open flags, the last day's decisions."""
    result = Client().call(GUARD_STATS)
    if as_json:
        dump_json(result)
        return
    for key in ("blocks", "open", "last_day", "jobs"):
        if result.get(key) is not None:
            shown = ", ".join(f"{k} {v}" for k, v in sorted(result[key].items())) or "none"
            console.print(f"{key.replace('_', ' ')}: {shown}", markup=False)


@guard_app.command("resolve")
@presents(RESOLVE_GUARD_FLAG)
def guard_resolve(
    block: Annotated[str, typer.Argument(help="The flagged block (id or prefix).")],
    resolution: Annotated[str, typer.Argument(help="keep_both, archive, merge or unlink.")],
    which: Annotated[
        str,
        typer.Option(
            "--which", help="archive: the one archived; merge: the one that stays (block or match)."
        ),
    ] = "block",
    as_json: JsonOpt = False,
) -> None:
    """Keep both blocks, archive one, merge one into the other, or unlink (undo an update or a
    translation the Guard recorded)."""
    if resolution not in ("keep_both", "archive", "merge", "unlink"):
        raise ValidationError("resolution must be keep_both, archive, merge or unlink")
    if which not in ("block", "match"):
        raise ValidationError("--which must be block or match")
    result = Client().call(
        RESOLVE_GUARD_FLAG, {"id": block, "resolution": resolution, "which": which}
    )
    if as_json:
        dump_json(result)
        return
    extra = result.get("archived") or result.get("kept") or ""
    console.print(f"{resolution}: {result['block_id'][:8]} {extra[:8]}".strip(), markup=False)


@guard_app.command("thresholds")
@presents(GUARD_THRESHOLDS, SET_GUARD_THRESHOLDS)
def guard_thresholds(
    duplicate: Annotated[float | None, typer.Option("--duplicate", min=0, max=1)] = None,
    review: Annotated[float | None, typer.Option("--review", min=0, max=1)] = None,
    block_type: Annotated[str | None, typer.Option("--type", help="Default: every type.")] = None,
    generation: Annotated[int | None, typer.Option("--generation")] = None,
    unset: Annotated[bool, typer.Option("--unset", help="Remove the row.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Show the thresholds in use, or set them (--duplicate and --review) for admin keys."""
    client = Client()
    if unset or duplicate is not None or review is not None:
        if not unset and (duplicate is None or review is None):
            raise ValidationError("give both --duplicate and --review (or --unset)")
        body = {"duplicate": None if unset else duplicate, "review": None if unset else review,
                "block_type": block_type, "generation": generation}  # fmt: skip
        result = client.call(SET_GUARD_THRESHOLDS, body)
    else:
        result = client.call(GUARD_THRESHOLDS)
    if as_json:
        dump_json(result)
        return
    for name, used in sorted((result.get("in_use") or {}).items()):
        console.print(f"{name}: duplicate {used['duplicate']}, review {used['review']} "
                      f"({used['source']})", markup=False)  # fmt: skip
    if "in_use" not in result:
        console.print(str(result), markup=False)


def register(cli: typer.Typer) -> None:
    cli.add_typer(guard_app, name="guard")
