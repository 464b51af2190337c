"""``ctx ingest VAULT``: parse an Obsidian vault here, send what changed, archive what is gone;
``ctx ingest FILE...``: send documents (``doc_cli``)."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ctx.core import ApiClient, ValidationError, backlog_line
from ctx.plugins.ingest.doc_cli import BODY_LIMIT, ingest_files
from ctx.plugins.ingest.documents import KINDS
from ctx.plugins.ingest.operations import FINISH_INGEST, INGEST_DOCUMENT, INGEST_NOTES, VAULT_STATE
from ctx.plugins.ingest.prepare import payload
from ctx.plugins.ingest.settings import CHUNK_CHARS, CHUNK_OVERLAP
from ctx.plugins.ingest.upload import batches, send_all
from ctx.plugins.ingest.vault import note_paths, read_note, vault_path
from ctx.ui import RateColumn, presents

BODY_LIMIT_KEY = "server.ingest_body_limit"
DEFAULTS = {CHUNK_CHARS: 4000, CHUNK_OVERLAP: 200, BODY_LIMIT_KEY: BODY_LIMIT}
DOCUMENT_SUFFIXES = tuple(suffix for _, suffixes, _ in KINDS.values() for suffix in suffixes)


def setting(ctx: typer.Context, key: str) -> int:
    settings = getattr(ctx.obj, "settings", None)
    return int(DEFAULTS[key] if settings is None else settings[key])


def client(ctx: typer.Context) -> ApiClient:
    """The server at ``CTX_URL`` (else this machine's ctxd), with ``CTX_API_KEY``."""
    settings = getattr(ctx.obj, "settings", None)
    url = (
        None if settings is None else f"http://{settings['server.host']}:{settings['server.port']}"
    )
    return ApiClient(url=os.environ.get("CTX_URL") or url, timeout=300)


def vault_name(root: Path, given: str | None) -> str:
    name = (given if given is not None else root.resolve().name).strip()
    if not name or len(name) > 80 or any(c in name for c in "/\\") or not name.isprintable():
        raise ValidationError(
            f"the vault name {name!r} must be 1-80 printable characters without '/' "
            "(give one with --vault-name)",
            field="vault-name",
        )
    return name


def parse_vault(
    root: Path, limit: int, overlap: int
) -> tuple[list[dict[str, Any]], list[str], list[tuple[str, str]]]:
    """(notes to send, every note path, (path, problem) of broken files)."""
    notes: list[dict[str, Any]] = []
    paths: list[str] = []
    broken: list[tuple[str, str]] = []
    for file in note_paths(root):
        rel = vault_path(root, file)
        paths.append(rel)
        try:
            note, problems = payload(read_note(root, file), limit, overlap)
        except OSError as exc:
            broken.append((rel, f"cannot read: {exc.strerror or exc}"))
            continue
        notes.append(note)
        broken += [(rel, p) for p in problems]
    return notes, paths, broken


def progress_bar() -> Progress:
    console = Console(stderr=True)
    return Progress(
        TextColumn("ingest"),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn("notes"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )


@presents(INGEST_DOCUMENT, VAULT_STATE, INGEST_NOTES, FINISH_INGEST)
def ingest(
    ctx: typer.Context,
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="A vault's folder, or document files (Markdown, text, HTML, PDF).",
            metavar="PATH...",
            show_default=False,
        ),
    ],
    name: Annotated[
        str | None, typer.Option("--vault-name", help="Name of the vault (default: folder name).")
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Parse and report what would be sent; send nothing.")
    ] = False,
    batch: Annotated[int, typer.Option(help="Notes per request.", min=1, max=1000)] = 100,
    workers: Annotated[int, typer.Option(help="Requests in parallel.", min=1, max=16)] = 2,
    category: Annotated[
        str | None,
        typer.Option(
            metavar="NAME",
            help="Documents: the blocks' category (default: ingest.document_category).",
        ),
    ] = None,
    tags: Annotated[
        list[str] | None,
        typer.Option("--tag", metavar="TAG", help="Documents: a tag for every block (repeat)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Ingest an Obsidian vault (a folder: notes become blocks, wikilinks become links; a second
    run sends only changed notes and archives the blocks of deleted ones), or documents (files:
    each becomes one block, or a block per chunk, with its page or heading)."""
    started = time.monotonic()  # the summary's "seconds": what the user waits, from here on
    if len(paths) == 1 and is_vault(paths[0]):
        return ingest_vault(ctx, paths[0], name, dry_run, batch, workers, as_json, started)
    if any(p.expanduser().is_dir() for p in paths):
        raise ValidationError("give one vault folder, or document files, not both", field="paths")
    body: dict[str, Any] = {"tags": tags or []}
    if category is not None:
        body["category"] = category
    limits = (setting(ctx, CHUNK_CHARS), setting(ctx, CHUNK_OVERLAP), setting(ctx, BODY_LIMIT_KEY))
    ingest_files(None if dry_run else client(ctx), paths, body, limits, as_json)


def is_vault(path: Path) -> bool:
    """A folder, or a missing path that does not look like a document (so a mistyped vault is
    still reported as one)."""
    path = path.expanduser()
    return path.is_dir() or (
        not path.exists() and not path.name.lower().endswith(DOCUMENT_SUFFIXES)
    )


def ingest_vault(
    ctx: typer.Context,
    vault: Path,
    name: str | None,
    dry_run: bool,
    batch: int,
    workers: int,
    as_json: bool,
    started: float,
) -> None:
    """``started``: when the command began (``time.monotonic()``); the summary's ``seconds``
    count from there: reading the vault, asking what changed, sending, finishing. The time spent
    sending alone is ``sending_seconds``, which ``notes_per_s`` is measured over."""
    root = vault.expanduser()
    if not root.is_dir():
        raise ValidationError(f"no vault folder at {str(vault)!r}", field="vault")
    label = vault_name(root, name)
    notes, paths, broken = parse_vault(root, setting(ctx, CHUNK_CHARS), setting(ctx, CHUNK_OVERLAP))
    chunks = sum(len(n["chunks"]) for n in notes)
    links = sum(len(c["links"]) for n in notes for c in n["chunks"])
    summary: dict[str, Any] = {"vault": label, "notes": len(paths), "chunks": chunks}
    if dry_run:
        summary |= {"wikilinks": links, "dry_run": True}
        return report(summary, broken, as_json)
    api = client(ctx)
    known = api.call(VAULT_STATE, {"vault": label})["notes"]
    todo = [n for n in notes if known.get(n["path"]) != n["content_hash"]]
    groups, too_large = batches(todo, batch)
    broken += too_large
    counts = {"created": 0, "updated": 0, "links": 0}

    def send(group: list[dict[str, Any]]) -> dict[str, Any]:
        return api.call(INGEST_NOTES, {"vault": label, "notes": group})

    failed = False
    sending = time.monotonic()
    with progress_bar() as bar:
        task = bar.add_task("ingest", total=len(todo))
        for group, answer, error in send_all(groups, send, workers):
            bar.advance(task, len(group))
            if answer is None:
                failed = True
                broken += [(n["path"], f"not stored: {error}") for n in group]
                continue
            for key in counts:
                counts[key] += answer[key]
            broken += [(p["path"], f"not stored: {p['problem']}") for p in answer["problems"]]
    done = api.call(FINISH_INGEST, {"vault": label, "paths": paths})
    finished = time.monotonic()
    sent_in = finished - sending
    summary |= {
        "seconds": round(finished - started, 2),
        "sending_seconds": round(sent_in, 2),
        "notes_per_s": round(len(todo) / sent_in, 1) if todo and sent_in > 0 else None,
        "sent": len(todo),
        "created": counts["created"],
        "updated": counts["updated"],
        "unchanged": len(notes) - len(todo),
        "archived": done["archived_notes"],
        "links": counts["links"] + done["links"],
        "embedding": done.get("embedding"),  # an older server does not say
    }
    report(summary, broken, as_json)
    if failed:
        raise typer.Exit(1)


def report(summary: dict[str, Any], broken: list[tuple[str, str]], as_json: bool) -> None:
    summary["broken"] = [{"path": p, "problem": why} for p, why in broken]
    if as_json:
        typer.echo(json.dumps(summary, indent=2, ensure_ascii=False))
        return
    if summary.get("dry_run"):
        line = (
            f"dry run of vault {summary['vault']!r}: {summary['notes']} notes, "
            f"{summary['chunks']} chunks, {summary['wikilinks']} wikilinks; nothing sent"
        )
    else:
        line = (
            f"vault {summary['vault']!r}: {summary['notes']} notes ({summary['chunks']} chunks): "
            f"created {summary['created']}, updated {summary['updated']}, "
            f"unchanged {summary['unchanged']}, archived {summary['archived']}, "
            f"links {summary['links']}"
        )
        if summary.get("notes_per_s"):
            line += (
                f"; sent {summary['sent']} in {summary['sending_seconds']} s "
                f"({summary['notes_per_s']}/s)"
            )
        line += f"; {summary['seconds']} s in all"
        if summary.get("embedding"):
            backlog = summary["embedding"]
            line += f"; {backlog_line(backlog['waiting'], backlog['per_s'], backlog['eta_s'])}"
    typer.echo(f"{line}; broken files: {len(broken)}")
    for path, why in broken:
        typer.echo(f"  {path}: {why}")
