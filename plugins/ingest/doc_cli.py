"""``ctx ingest FILE...``: documents sent one request each to ``POST /api/ingest``.

The server parses and chunks (it has to check what it stores anyway), so a run only reads each
file and sends its bytes. ``--dry-run`` parses here with the same code and shows the chunks the
server would make. A file that cannot be sent (missing, a type ingest does not read, too large
for one request) is reported on one line and the others still go; such a file makes the exit
code 2, a file the server refused 1.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer

from ctx.core import ApiClient, CtxError, backlog_line
from ctx.plugins.ingest.documents import Document, clean_filename, kind_of, parse_document
from ctx.plugins.ingest.operations import INGEST_DOCUMENT

BODY_LIMIT = 10 * 1_048_576  # server.ingest_body_limit's default
JSON_ROOM = 64 * 1024  # the request's other fields, next to the base64


@dataclass
class Outcome:
    """What became of one file: the server's (or the dry run's) answer, or why not."""

    path: str
    answer: dict[str, Any] | None = None
    problem: str | None = None
    local: bool = False  # the problem was found here, before anything was sent


def max_file_bytes(body_limit: int) -> int:
    """The largest file whose base64 fits in one request body."""
    return (body_limit - JSON_ROOM) * 3 // 4


def mb(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB"


def check_file(path: Path, body_limit: int) -> str | None:
    """Why ``path`` cannot be sent, or None."""
    if not path.exists():
        return "no such file"
    if not path.is_file():
        return "not a file"
    try:
        kind_of(clean_filename(path.name), None)
    except CtxError as exc:
        return exc.message
    size = path.stat().st_size
    if size > max_file_bytes(body_limit):
        return (
            f"too large ({mb(size)}): a document is sent as base64 in one request of at most "
            f"{mb(body_limit)} (server.ingest_body_limit), so files up to "
            f"{mb(max_file_bytes(body_limit))}"
        )
    return None


def dry_run(doc: Document) -> dict[str, Any]:
    """The document as the server would store it, with a short preview of each chunk."""
    chunks = []
    for number, chunk in enumerate(doc.chunks, start=1):
        preview = " ".join(chunk.content.split())[:80]
        chunks.append({"chunk": number, "chars": len(chunk.content), "preview": preview})
        chunks[-1] |= {k: v for k, v in chunk.provenance().items() if k in ("page", "heading")}
    return {
        "filename": doc.filename,
        "mime": doc.mime,
        "title": doc.title,
        "sha256": doc.sha256,
        "encoding": doc.encoding,
        "status": "dry_run",
        "chunks": chunks,
    }


def ingest_file(
    path: Path,
    send: Any,
    body: dict[str, Any],
    limits: tuple[int, int, int],
    dry: bool,
) -> Outcome:
    """Check, then parse (dry run) or send one file."""
    chunk_chars, overlap, body_limit = limits
    shown = str(path)
    problem = check_file(path, body_limit)
    if problem is not None:
        return Outcome(shown, problem=problem, local=True)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return Outcome(shown, problem=f"cannot read: {exc.strerror or exc}", local=True)
    try:
        if dry:
            doc = parse_document(path.name, raw, None, chunk_chars, overlap)
            return Outcome(shown, answer=dry_run(doc))
        request = body | {
            "filename": clean_filename(path.name),
            "content_base64": base64.b64encode(raw).decode("ascii"),
        }
        return Outcome(shown, answer=send(request))
    except CtxError as exc:
        return Outcome(shown, problem=exc.message, local=dry)


def ingest_files(
    api: ApiClient | None,
    paths: list[Path],
    body: dict[str, Any],
    limits: tuple[int, int, int],
    as_json: bool,
) -> None:
    """Each file in turn; exit 2 if a file could not be sent, else 1 if the server refused one."""

    def send(request: dict[str, Any]) -> dict[str, Any]:
        assert api is not None
        return api.call(INGEST_DOCUMENT, request)

    outcomes = [ingest_file(p.expanduser(), send, body, limits, api is None) for p in paths]
    report(outcomes, as_json)
    if any(o.problem and o.local for o in outcomes):
        raise typer.Exit(2)
    if any(o.problem for o in outcomes):
        raise typer.Exit(1)


def report(outcomes: list[Outcome], as_json: bool) -> None:
    # what the last file sent left waiting (an older server, or a dry run, does not say)
    backlog = next(
        (o.answer["embedding"] for o in reversed(outcomes) if o.answer and "embedding" in o.answer),
        None,
    )
    if as_json:
        summary = {
            "files": [o.answer | {"path": o.path} for o in outcomes if o.answer is not None],
            "failed": [{"path": o.path, "problem": o.problem} for o in outcomes if o.problem],
            "embedding": backlog,
        }
        typer.echo(json.dumps(summary, indent=2, ensure_ascii=False))
    for o in outcomes:
        if o.problem is not None:
            typer.echo(f"ctx: {o.path}: {' '.join(o.problem.split())}", err=True)
        elif not as_json and o.answer is not None:
            typer.echo(text_line(o.path, o.answer))
            if o.answer["status"] == "dry_run":
                for c in o.answer["chunks"]:
                    where = f"page {c['page']}" if "page" in c else (c.get("heading") or "-")
                    typer.echo(f"  {c['chunk']}. [{where}] {c['chars']} chars: {c['preview']}")
    if backlog is not None and not as_json:
        typer.echo(backlog_line(backlog["waiting"], backlog["per_s"], backlog["eta_s"]))


def text_line(path: str, answer: dict[str, Any]) -> str:
    if answer["status"] == "dry_run":
        return (
            f"dry run of {path}: {answer['mime']}, {len(answer['chunks'])} chunks, "
            f"title {answer['title']!r}; nothing sent"
        )
    blocks = len(answer["blocks"])
    return (
        f"{path}: {answer['status']} ({blocks} blocks in {answer['category']!r}, "
        f"archived {answer['archived']})"
    )
