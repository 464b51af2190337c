"""A vault file turned into what ``POST /api/ingest/notes`` takes: the parsed note and its chunks.

This runs on the client, so a vault of thousands of notes is parsed on the machine that has it and
the server only stores; ``--dry-run`` shows exactly what would be sent.
"""

from __future__ import annotations

from typing import Any

from ctx.plugins.ingest.chunks import split
from ctx.plugins.ingest.notes import parse_note
from ctx.plugins.ingest.vault import NoteFile


def payload(file: NoteFile, limit: int, overlap: int) -> tuple[dict[str, Any], list[str]]:
    """(the note as sent, the file's problems)."""
    note = parse_note(file.path, file.text)
    chunks = split(note.body, limit, overlap)
    problems = ([file.problem] if file.problem else []) + note.problems
    body: dict[str, Any] = {
        "path": file.path,
        "content_hash": file.content_hash,
        "title": note.title,
        "tags": note.tags,
        "aliases": note.aliases,
        "occurred_at": note.occurred_at,
        "frontmatter": note.frontmatter,
        "chunks": [
            {
                "content": c.content,
                "heading": c.heading,
                "headings": c.headings,
                "links": list(dict.fromkeys(link.raw for link in c.links)),
                "embeds": list(dict.fromkeys(c.attachments)),
            }
            for c in chunks
        ],
    }
    return body, problems
