"""``ctx export`` and ``ctx import``: a store's scopes as JSON lines, through the server (so the
key's scopes decide what leaves and what comes in)."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Annotated, Any, TextIO

import pydantic
import typer

from ctx.core.blocks import EXPORT_BLOCKS, IMPORT_BLOCKS, ExportEnd
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
    blobs: Annotated[
        bool, typer.Option("--blobs", help="Carry the blobs' bytes too, not only their hashes.")
    ] = False,
    admin: Annotated[
        bool,
        typer.Option(
            "--admin",
            help="Add the server itself (admin keys): settings, block types, Guard thresholds, "
            "tenants, backends with their secrets still sealed, API keys.",
        ),
    ] = False,
) -> None:
    """Write everything you can read (or of --scope) as JSON lines: blocks, links, Guard
    decisions, governed threads, issue history, blobs (their bytes with --blobs); with --admin
    the server's own rows too, to move a whole server."""
    params: dict[str, Any] = {"scope": scope} if scope else {}
    if blobs:
        params["blobs"] = "true"
    if admin:
        params["admin"] = "true"
    sink: TextIO = output.open("w", encoding="utf-8") if output else sys.stdout
    try:
        last = ""
        for line in Client(timeout=600).lines(EXPORT_BLOCKS, params or None):
            sink.write(line + "\n")
            last = line
    finally:
        if output:
            sink.close()
    end = json.loads(last) if last else {}
    if end.get("type") != "end":
        raise ValidationError("the export stopped before its end line; run it again")
    if output:
        console.print(f"exported {_counted(end.get('counts', {}))} to {output}")


def _counted(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {kind}" for kind, n in counts.items() if n) or "nothing"


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
    try:
        expected = ExportEnd.model_validate(records[-1]).expected()
    except pydantic.ValidationError:
        raise ValidationError(f"{path} ends with a malformed end line") from None
    if _counts(records[1:-1]) != expected:
        raise ValidationError(
            f"{path}: its end line counts {_counted(expected)}, the file holds "
            f"{_counted(_counts(records[1:-1]))}: lines are missing or extra"
        )
    return records


def _batches(records: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Batches under the body limit, each the header, its lines and an end line counting them,
    as the server wants every batch (``_records`` checked the file's own end). Blocks come first
    in an export, so every line about a block arrives after it; a line larger than a batch (a
    blob's bytes) goes alone."""
    header, lines = records[0], records[1:-1]
    batches: list[list[dict[str, Any]]] = []
    current: list[dict[str, Any]] = []
    size = 0
    for record in lines:
        length = len(json.dumps(record))
        if current and size + length > BATCH_BYTES:
            batches.append(current)
            current, size = [], 0
        current.append(record)
        size += length
    batches.append(current)
    return [[header, *batch, _end(batch)] for batch in batches]


def _counts(lines: list[dict[str, Any]]) -> dict[str, int]:
    return dict(Counter(str(line.get("type")) for line in lines))


def _end(batch: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "end", "counts": _counts(batch)}


@presents(IMPORT_BLOCKS)
def import_(
    file: Annotated[Path, typer.Argument(help="A file written by `ctx export`.")],
    as_json: JsonOpt = False,
) -> None:
    """Import an export: everything keeps its ids, times and state; running it again changes
    nothing."""
    records = _records(file)
    total: dict[str, Any] = {"created": {}, "updated": {}, "unchanged": {}, "skipped": [],
                             "notes": []}  # fmt: skip
    client = Client(timeout=600)
    for batch in _batches(records):
        report = client.call(IMPORT_BLOCKS, {"records": batch})
        total["skipped"] += report.get("skipped", [])
        total["notes"] += report.get("notes", [])
        for outcome in ("created", "updated", "unchanged"):
            for kind, n in report.get(outcome, {}).items():
                total[outcome][kind] = total[outcome].get(kind, 0) + n
    if as_json:
        dump_json(total)
        return
    for outcome in ("created", "updated", "unchanged"):
        if total[outcome]:
            console.print(f"{outcome}: {_counted(total[outcome])}")
    for item in total["skipped"]:
        console.print(f"skipped {item['type']} {item['ref']}: {item['reason']}", markup=False)
    for item in total["notes"]:
        console.print(
            f"{item['outcome']} {item['type']} {item['ref']}: {item['note']}", markup=False
        )


def register(cli: typer.Typer) -> None:
    cli.command()(export)
    cli.command("import")(import_)
