"""``ctx blob put|get|list|delete``: files in the store, streamed both ways (a file is read and
encoded piece by piece, and written as it arrives), never held whole by the CLI."""

from __future__ import annotations

import base64
import hashlib
import json
import mimetypes
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from ctx.core.blobs import BLOB_BYTES, FETCH_BLOB, MANAGE_BLOBS, SEARCH_BLOBS, STORE_BLOB
from ctx.core.client import Client
from ctx.core.errors import ValidationError
from ctx.ui.cli.common import JsonOpt, console, dump_json, table
from ctx.ui.cli.present import presents

blob_cli = typer.Typer(
    help="Files kept in the store: put, get, list, delete.", no_args_is_help=True
)
PIECE = 3 * 256 * 1024  # a multiple of 3, so each piece encodes to base64 on its own


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as src:
        while piece := src.read(PIECE):
            digest.update(piece)
    return digest.hexdigest()


def _body(path: Path, fields: dict[str, Any]) -> Iterator[bytes]:
    """The store request as JSON, with ``data`` encoded from the file as it is read."""
    head = json.dumps(fields)[:-1] + ', "data": "'
    yield head.encode()
    with path.open("rb") as src:
        while piece := src.read(PIECE):
            yield base64.b64encode(piece)
    yield b'"}'


@blob_cli.command("put")
@presents(STORE_BLOB)
def put(
    file: Annotated[Path, typer.Argument(help="The file to store.")],
    title: Annotated[str | None, typer.Option(help="Default: the file name.")] = None,
    category: Annotated[str, typer.Option(help="Blobs upsert by category and title.")] = "files",
    tag: Annotated[list[str] | None, typer.Option("--tag", "-t", help="A tag (repeat).")] = None,
    mime: Annotated[
        str | None, typer.Option(help="Default: guessed from the name, else from the bytes.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Store a file in your home scope (replaces the blob of the same category and title)."""
    if not file.is_file():
        raise ValidationError(f"no file {file}", field="file")
    fields = {
        "title": title or file.name,
        "category": category,
        "filename": file.name,
        "mime_type": mime or mimetypes.guess_type(file.name)[0],  # None: the server sniffs it
        "tags": tag or [],
        "sha256": _sha256(file),
    }
    result = Client(timeout=600).post_stream(STORE_BLOB, _body(file, fields))
    if as_json:
        dump_json(result)
    else:
        console.print(f"{result['action']} {result['id']}  {result['size']} bytes", markup=False)


@blob_cli.command("get")
@presents(FETCH_BLOB, BLOB_BYTES)
def get(
    blob_id: Annotated[str, typer.Argument(help="The blob's id.")],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Default: its name.")
    ] = None,
) -> None:
    """Download a blob to a file, checking its SHA-256."""
    client = Client(timeout=600)
    row = client.call(FETCH_BLOB, {"id": blob_id, "meta_only": True})
    target = output or Path(row["filename"] or row["title"]).name
    partial = Path(f"{target}.part")
    with partial.open("wb") as sink:
        client.download(BLOB_BYTES, sink, {"blob_id": row["id"]})
    if _sha256(partial) != row["sha256"]:
        partial.unlink()
        raise ValidationError("the download does not match the blob's SHA-256; try again")
    partial.replace(target)
    console.print(f"wrote {target} ({row['size']} bytes)", markup=False)


@blob_cli.command("list")
@presents(SEARCH_BLOBS)
def list_(
    category: Annotated[str | None, typer.Option(help="Only this category.")] = None,
    tag: Annotated[list[str] | None, typer.Option("--tag", "-t", help="All of these tags.")] = None,
    limit: Annotated[int, typer.Option(min=1, max=500)] = 50,
    as_json: JsonOpt = False,
) -> None:
    """Blobs you can read, newest first."""
    wanted = {"category": category, "tags": tag or [], "limit": limit}
    found = Client().call(SEARCH_BLOBS, wanted)["blobs"]
    if as_json:
        dump_json(found)
        return
    for b in found:
        b["id"] = b["id"][:8]
    table(found, ["id", "scope", "category", "title", "mime_type", "size", "updated_at"])


@blob_cli.command("delete")
@presents(MANAGE_BLOBS)
def delete(blob_id: Annotated[str, typer.Argument(help="The blob's id.")]) -> None:
    """Delete a blob of your home scope."""
    result = Client().call(MANAGE_BLOBS, {"action": "delete", "id": blob_id})
    console.print(f"deleted {result['id']}", markup=False)


def register(cli: typer.Typer) -> None:
    cli.add_typer(blob_cli, name="blob")
