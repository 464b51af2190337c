"""Wikilinks as ``context_links`` rows between the blocks of one vault in one scope.

A link is resolved the way Obsidian finds a note: by vault path, then file name, then title, then
alias (case-insensitive, and blind to Unicode normalisation: a composed ``[[Müller]]`` finds a note
stored with a decomposed name); several candidates prefer the linking note's folder, then the
shortest path. A heading (``[[Note#Heading]]``) picks the chunk that holds it, else the note's first
chunk. Links to notes not yet stored simply find nothing now; ``finish`` resolves every link of
the vault again once all notes are in.

There is no core function to insert a link, so the SQL lives here. Both ends are always blocks of
the caller's home scope (the only scope it can write), which the queries enforce.
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ctx.core import App

NOTE = "wikilink"


@dataclass(frozen=True)
class Row:
    id: str
    path: str
    title: str
    aliases: tuple[str, ...]
    chunk: int
    headings: tuple[str, ...]
    links: tuple[str, ...]

    @property
    def folder(self) -> str:
        return self.path.rsplit("/", 1)[0] if "/" in self.path else ""


def vault_rows(conn: Any, scope: str, category: str) -> list[Row]:
    """The vault's live blocks with what resolving needs."""
    found = conn.execute(
        """
        SELECT id::text AS id, metadata->>'path' AS path, metadata->>'note_title' AS title,
               COALESCE(metadata->'aliases', '[]') AS aliases,
               COALESCE((metadata->>'chunk')::int, 1) AS chunk,
               COALESCE(metadata->'headings', '[]') AS headings,
               COALESCE(metadata->'links', '[]') AS links
          FROM context_blocks
         WHERE scope = %s AND category = %s AND NOT is_archived
               AND metadata->>'source' = 'obsidian' AND metadata ? 'path'
        """,
        (scope, category),
    ).fetchall()
    return [
        Row(
            id=r["id"],
            path=r["path"],
            title=r["title"] or "",
            aliases=tuple(str(a) for a in r["aliases"] if isinstance(a, str)),
            chunk=r["chunk"],
            headings=tuple(str(h) for h in r["headings"] if isinstance(h, str)),
            links=tuple(str(x) for x in r["links"] if isinstance(x, str)),
        )
        for r in found
    ]


def fold(name: str) -> str:
    """A name as the index compares it: NFC, lower case."""
    return unicodedata.normalize("NFC", name).lower()


class Index:
    """Where a wikilink target leads, over one vault's rows."""

    def __init__(self, rows: list[Row]) -> None:
        self.chunks: dict[str, list[Row]] = defaultdict(list)
        self.by_path: dict[str, set[str]] = defaultdict(set)
        self.by_stem: dict[str, set[str]] = defaultdict(set)
        self.by_name: dict[str, set[str]] = defaultdict(set)
        for row in rows:
            self.chunks[row.path].append(row)
            bare = fold(row.path[:-3])
            self.by_path[bare].add(row.path)
            self.by_stem[bare.rsplit("/", 1)[-1]].add(row.path)
            for name in (row.title, *row.aliases):
                if name:
                    self.by_name[fold(name)].add(row.path)
        for parts in self.chunks.values():
            parts.sort(key=lambda r: r.chunk)

    def note(self, name: str, source: Row) -> str | None:
        key = fold(name).strip("/")
        found = self.by_path.get(key) or (
            {p for bare, ps in self.by_path.items() if bare.endswith("/" + key) for p in ps}
            if "/" in key
            else None
        )
        found = found or self.by_stem.get(key) or self.by_name.get(key)
        if not found:
            return None
        return min(found, key=lambda p: (p.rsplit("/", 1)[0] != source.folder, len(p), p))

    def target(self, raw: str, source: Row) -> str | None:
        """The block id ``raw`` (``Note#Heading``, ``#Heading``) links to from ``source``."""
        name, _, heading = raw.partition("#")
        path = self.note(name, source) if name.strip() else source.path
        if path is None:
            return None
        parts = self.chunks[path]
        wanted = fold(heading.strip())
        if wanted:
            for part in parts:
                if any(fold(h) == wanted for h in part.headings):
                    return part.id
        return parts[0].id


def resolve(app: App, scope: str, category: str, sources: Iterable[str] | None = None) -> int:
    """Insert the wikilinks of ``sources`` (block ids; None: every block of the vault); returns
    how many links are new."""
    with app.connection() as conn:
        rows = vault_rows(conn, scope, category)
        index = Index(rows)
        wanted = None if sources is None else set(sources)
        pairs: dict[tuple[str, str], None] = {}
        for row in rows:
            if wanted is not None and row.id not in wanted:
                continue
            for raw in row.links:
                target = index.target(raw, row)
                if target is not None and target != row.id:
                    pairs[(row.id, target)] = None
        if not pairs:
            return 0
        # The user wrote these links: confirmed, never "to confirm". The same pair proposed by
        # Dream first is confirmed too; one a person rejected stays rejected.
        made = conn.execute(
            """
            INSERT INTO context_links (source_id, target_id, link_type, confidence, origin, note,
                                       status)
            SELECT s, t, 'topical', 1.0, 'user', %s, 'confirmed'
              FROM unnest(%s::uuid[], %s::uuid[]) AS p(s, t)
            ON CONFLICT (source_id, target_id, link_type) DO UPDATE SET status = 'confirmed'
             WHERE context_links.status = 'active'
            RETURNING (xmax = 0) AS inserted
            """,
            (NOTE, [s for s, _ in pairs], [t for _, t in pairs]),
        ).fetchall()
        return sum(1 for r in made if r["inserted"])


def forget(app: App, scope: str, sources: list[str]) -> None:
    """Drop the wikilinks of blocks about to be linked again (an edit may remove some); links a
    person reviewed (confirmed or rejected in review) stay."""
    if not sources:
        return
    with app.connection() as conn:
        conn.execute(
            "DELETE FROM context_links l USING context_blocks b "
            "WHERE l.source_id = b.id AND b.scope = %s AND l.source_id = ANY(%s::uuid[]) "
            "AND l.origin = 'user' AND l.note = %s AND l.status <> 'rejected' "
            "AND l.reviewed_at IS NULL",
            (scope, sources, NOTE),
        )
