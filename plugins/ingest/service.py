"""The ingest operations behind ``/api/ingest``: the vault's state, storing notes, finishing a run.

A note's blocks are keyed (scope, category, title) like every block: the category is
``<ingest.category>/<vault>`` so vaults never mix, and the title carries the vault path whenever
the note's title is not already its path, so two ``Ideas.md`` in different folders never collide.
Every write goes through ``store_block`` (Guard, embedding and temporal jobs as for any block) and
only into the key's home scope. One bad note is reported and skipped; the batch goes on.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError as BadValue

from ctx.core import (
    App,
    CtxError,
    Principal,
    StoreRequest,
    backlog_for_scopes,
    set_archived,
    store_block,
)
from ctx.plugins.ingest import linking
from ctx.plugins.ingest.schemas import ChunkIn, FinishRequest, NoteIn, NotesRequest, VaultQuery
from ctx.plugins.ingest.settings import CATEGORY

SOURCE = "obsidian"
TITLE_LIMIT = 500


def category_of(app: App, vault: str) -> str:
    return f"{app.settings[CATEGORY]}/{vault}"


def block_title(note: NoteIn, number: int, chunk: ChunkIn) -> str:
    """``Title``, ``Title (2/3)`` or ``Title: Heading (2/3)``, then `` · path`` unless the title
    is the path itself; a path too long for the title keeps its end."""
    total = len(note.chunks)
    title = note.title[:300]
    if total > 1:
        title += f": {chunk.heading[:100]}" if chunk.heading else ""
        title += f" ({number}/{total})"
    bare = note.path[:-3]
    if bare == note.title:
        return title if len(title) <= TITLE_LIMIT else title[: TITLE_LIMIT - 1] + "…"
    room = TITLE_LIMIT - len(title) - 3
    shown = bare if len(bare) <= room else "…" + bare[-(room - 1) :]
    return f"{title} · {shown}"


def live_notes(app: App, scope: str, category: str) -> dict[str, str]:
    """path -> content hash of the vault's live notes."""
    with app.connection() as conn:
        rows = conn.execute(
            "SELECT DISTINCT ON (metadata->>'path') metadata->>'path' AS path, "
            "metadata->>'content_hash' AS hash FROM context_blocks "
            "WHERE scope = %s AND category = %s AND NOT is_archived "
            "AND metadata->>'source' = %s AND metadata ? 'path' "
            "ORDER BY metadata->>'path', COALESCE((metadata->>'chunk')::int, 1)",
            (scope, category, SOURCE),
        ).fetchall()
    return {r["path"]: r["hash"] or "" for r in rows}


def live_blocks(app: App, scope: str, category: str) -> list[tuple[str, str]]:
    """(id, path) of the vault's live blocks."""
    with app.connection() as conn:
        rows = conn.execute(
            "SELECT id::text AS id, metadata->>'path' AS path FROM context_blocks "
            "WHERE scope = %s AND category = %s AND NOT is_archived "
            "AND metadata->>'source' = %s AND metadata ? 'path'",
            (scope, category, SOURCE),
        ).fetchall()
    return [(r["id"], r["path"]) for r in rows]


def state(app: App, who: Principal, vault: str) -> dict[str, Any]:
    notes = live_notes(app, who.home_scope, category_of(app, vault))
    return {"vault": vault, "scope": who.home_scope, "notes": notes, "count": len(notes)}


def vault_state(app: App, who: Principal, query: VaultQuery) -> dict[str, Any]:
    """``notes``: path -> content hash of the vault's live notes in the key's home scope."""
    return state(app, who, query.vault.strip())


def write_note(app: App, who: Principal, vault: str, category: str, note: NoteIn) -> list[str]:
    """Store the note's chunks; returns their block ids in order."""
    ids = []
    total = len(note.chunks)
    for number, chunk in enumerate(note.chunks, start=1):
        meta: dict[str, Any] = {
            "source": SOURCE,
            "vault": vault,
            "path": note.path,
            "content_hash": note.content_hash,
            "note_title": note.title,
            "aliases": note.aliases,
            "frontmatter": note.frontmatter,
            "chunk": number,
            "chunks": total,
            "heading": chunk.heading,
            "headings": chunk.headings,
            "embeds": chunk.embeds,
            "links": chunk.links,
        }
        stored = store_block(
            app,
            who,
            StoreRequest(
                title=block_title(note, number, chunk),
                content=chunk.content.strip() or note.title,
                category=category,
                tags=note.tags,
                meta=meta,
                occurred_at=note.occurred_at,
            ),
            origin="ingest",
        )
        ids.append(str(stored["id"]))
    return ids


def store_notes(app: App, who: Principal, req: NotesRequest) -> dict[str, Any]:
    """Upsert each note's blocks, archive blocks the note no longer has (fewer chunks, a new
    title), then link the written blocks' wikilinks to the notes already there."""
    who.require_write(who.home_scope)
    scope, category = who.home_scope, category_of(app, req.vault)
    before = live_blocks(app, scope, category)
    known = {path for _, path in before}
    counts = {"created": 0, "updated": 0, "chunks": 0, "archived": 0}
    problems: list[dict[str, str]] = []
    written: list[str] = []
    for note in req.notes:
        try:
            ids = write_note(app, who, req.vault, category, note)
        except CtxError as exc:
            field = f" ({exc.field})" if exc.field else ""
            problems.append({"path": note.path, "problem": f"{exc.message}{field}"})
            continue
        except BadValue as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "note"
            problems.append({"path": note.path, "problem": f"{where}: {first['msg']}"})
            continue
        counts["updated" if note.path in known else "created"] += 1
        counts["chunks"] += len(ids)
        written += ids
        keep = set(ids)
        for block_id, path in before:
            if path == note.path and block_id not in keep:
                set_archived(app, who, block_id, True)
                counts["archived"] += 1
    linking.forget(app, scope, written)
    links = linking.resolve(app, scope, category, written)
    return {"vault": req.vault, **counts, "links": links, "problems": problems}


def finish(app: App, who: Principal, req: FinishRequest) -> dict[str, Any]:
    """Archive the blocks of notes no longer in the vault, then resolve every pending link;
    ``embedding`` says what the run left for the workers to embed (``backlog_for_scopes``)."""
    who.require_write(who.home_scope)
    scope, category = who.home_scope, category_of(app, req.vault)
    present = set(req.paths)
    gone_paths: set[str] = set()
    archived = 0
    for block_id, path in live_blocks(app, scope, category):
        if path not in present:
            set_archived(app, who, block_id, True)
            gone_paths.add(path)
            archived += 1
    links = linking.resolve(app, scope, category)
    return {
        "vault": req.vault,
        "archived_notes": len(gone_paths),
        "archived": archived,
        "links": links,
        "embedding": backlog_for_scopes(app, [scope]),
    }
