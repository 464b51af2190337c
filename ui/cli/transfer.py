"""``ctx export`` and ``ctx import``: a store's blocks as JSON lines, through the server (so the
key's scopes decide what leaves and what comes in)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, TextIO

import typer

from ctx.core.blocks import EXPORT_BLOCKS, IMPORT_BLOCKS
from ctx.core.client import Client
from ctx.core.errors import ValidationError
from ctx.ui.cli.common import JsonOpt, console, dump_json
from ctx.ui.cli.present import presents

BATCH_BYTES = 700_000  # under the server's 1 MB body limit, with room for the JSON envelope


@presents(EXPORT_BLOCKS)
def export(
    scope: Annotated[
        list[str] | None, typer.Option("--scope", "-s", help="A scope to export (repeat).")
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write here, not to standard output.")
    ] = None,
) -> None:
    """Write every block you can read (or of --scope) with its links as JSON lines."""
    params = {"scope": scope} if scope else None
    sink: TextIO = output.open("w", encoding="utf-8") if output else sys.stdout
    try:
        last = ""
        for line in Client(timeout=600).lines(EXPORT_BLOCKS, params):
            sink.write(line + "\n")
            last = line
    finally:
        if output:
            sink.close()
    if '"type": "end"' not in last and '"type":"end"' not in last:
        raise ValidationError("the export stopped before its end line; run it again")
    if output:
        end = json.loads(last)
        console.print(f"exported {end['blocks']} blocks and {end['links']} links to {output}")


def _records(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        raise ValidationError(f"no file {path}", field="file")
    records = []
    with path.open(encoding="utf-8") as src:
        for number, line in enumerate(src, 1):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except ValueError:
                raise ValidationError(f"{path}:{number} is not a JSON line") from None
    if not records or records[0].get("type") != "header":
        raise ValidationError(f"{path} does not start with a ctx export header")
    if records[-1].get("type") != "end":
        raise ValidationError(f"{path} has no end line: it was cut off")
    return records


def _batches(records: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Batches under the body limit; blocks come before links in an export, so every link's
    blocks are in by the time its batch arrives."""
    header, batches, current, size = records[0], [], [records[0]], 0
    for record in records[1:]:
        length = len(json.dumps(record))
        if size and size + length > BATCH_BYTES:
            batches.append(current)
            current, size = [header], 0
        current.append(record)
        size += length
    batches.append(current)
    return batches


@presents(IMPORT_BLOCKS)
def import_(
    file: Annotated[Path, typer.Argument(help="A file written by `ctx export`.")],
    as_json: JsonOpt = False,
) -> None:
    """Import an export: blocks keep their ids and times; running it again changes nothing."""
    records = _records(file)
    total: dict[str, Any] = {}
    client = Client(timeout=600)
    for batch in _batches(records):
        report = client.call(IMPORT_BLOCKS, {"records": batch})
        for key, value in report.items():
            total[key] = total.get(key, 0 if isinstance(value, int) else []) + value
    if as_json:
        dump_json(total)
        return
    counts = {k: v for k, v in total.items() if isinstance(v, int)}
    console.print(", ".join(f"{k.replace('_', ' ')} {v}" for k, v in counts.items()))
    for item in total.get("skipped", []):
        console.print(
            f"skipped {item.get('id') or item.get('link') or item.get('blob')}: {item['reason']}",
            markup=False,
        )


def register(cli: typer.Typer) -> None:
    cli.command()(export)
    cli.command("import")(import_)
