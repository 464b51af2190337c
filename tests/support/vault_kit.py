"""Obsidian vaults built in a folder for the ingest tests and the benchmark.

``sample_vault`` has one of everything ``ctx ingest`` must handle (English and German notes,
aliases, headings, embeds, every kind of front matter, broken files, a cp1252 file, deep folders,
folders to skip, two notes with one file name, a long note); ``bulk_vault`` makes many linked notes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ctx.core import App

LONG_SECTION = "The deployment pipeline runs every night and reports to the team. " * 30


def write(root: Path, path: str, text: str | bytes) -> Path:
    file = root / path
    file.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        file.write_bytes(text)
    else:
        file.write_text(text, encoding="utf-8")
    return file


def long_note(sections: int = 6) -> str:
    parts = ["---\ntitle: Runbook\ntags: ops\n---\nHow we run things.\n"]
    for i in range(1, sections + 1):
        parts.append(f"## Step {i}\n\n{LONG_SECTION}\n\nClosing words of step {i}.\n")
    parts.append("See [[Alpha#Details]] for the background.\n")
    return "\n".join(parts)


def sample_vault(root: Path) -> Path:
    write(
        root,
        "Alpha.md",
        "---\ntitle: Alpha\ntags: [project, english]\naliases: [First, A-Projekt]\n"
        "date: 2024-03-05\nstatus: active\nowner:\n  name: Ada\n  since: 2023-01-02\n---\n"
        "Alpha links to [[Beta]] and [[Gamma|the third]] and #inline-tag.\n\n"
        "## Details\n\nSee [[Runbook#Step 2]] and ![[diagram.png]] and ![[Beta]].\n\n"
        "`[[Not a link]]` and\n\n```\n[[Also not]] #nottag\n```\n",
    )
    write(
        root,
        "Projekte/Beta.md",
        "---\ntags: projekt, deutsch\ncreated: 2024-04-01T10:30:00+02:00\n---\n"
        "Beta verweist auf [[Alpha#Details]], [[First]] und [[#Abschnitt]].\n\n"
        "## Abschnitt\n\nDie Übergabe ist am Freitag. Siehe [[Ordner/Ideen]].\n",
    )
    write(root, "Gamma.md", "No front matter at all. Back to [[alpha]].\n")
    write(root, "Ordner/Ideen.md", "---\ntitle: Ideen\n---\nErste Ideen für [[Beta]].\n")
    write(root, "Archiv/Ideen.md", "---\ntitle: Alte Ideen\n---\nAlte Ideen.\n")
    write(root, "Broken.md", "---\ntitle: [unclosed\ntags: x\n---\nThe body survives.\n")
    write(root, "NoEnd.md", "---\ntitle: No end\nBody without a closing line.\n")
    write(root, "Latin1.md", "Caf\xe9 und Gr\xfc\xdfe, see [[Alpha]].\n".encode("cp1252"))
    write(root, "a/b/c/d/e/Deep.md", "---\ntags:\n  - deep\n---\nDeep note links [[Gamma]].\n")
    write(root, "Runbook.md", long_note())
    write(root, ".obsidian/workspace.md", "not a note")
    write(root, ".trash/Old.md", "deleted")
    write(root, "node_modules/pkg/README.md", "a package")
    write(root, "diagram.png", b"\x89PNG")
    return root


def bulk_vault(root: Path, notes: int) -> Path:
    """``notes`` notes in 20 folders, each linking to the next two and one with a heading;
    every tenth is long enough to be chunked."""
    for i in range(notes):
        folder = f"area-{i % 20:02d}"
        words = "Notiz über die Planung und the roll-out of service {i}. " * 4
        body = [
            f"---\ntitle: Note {i}\ntags: [bulk, area{i % 20}]\ndate: 2024-01-{1 + i % 28:02d}\n"
            f"aliases: [N{i}]\n---\n",
            words.format(i=i),
            f"Next: [[Note {(i + 1) % notes}]], [[N{(i + 2) % notes}]], "
            f"[[note-{(i + 3) % notes}#Part 2]].\n",
        ]
        if i % 10 == 0:
            body += [f"\n## Part {p}\n\n{LONG_SECTION}\n" for p in range(1, 4)]
        write(root, f"{folder}/note-{i}.md", "\n".join(body))
    return root


def wikilinks(app: App, scope: str) -> set[tuple[str, str]]:
    """(source, target) of the scope's wikilink rows, each as ``path`` or ``path:chunk``."""
    with app.connection() as conn:
        rows = conn.execute(
            """
            SELECT s.metadata->>'path' AS sp, (s.metadata->>'chunk')::int AS sc,
                   t.metadata->>'path' AS tp, (t.metadata->>'chunk')::int AS tc
              FROM context_links l
              JOIN context_blocks s ON s.id = l.source_id
              JOIN context_blocks t ON t.id = l.target_id
             WHERE l.note = 'wikilink' AND l.origin = 'user' AND l.link_type = 'topical'
               AND s.scope = %s AND t.scope = %s
            """,
            (scope, scope),
        ).fetchall()
    return {(_name(r["sp"], r["sc"]), _name(r["tp"], r["tc"])) for r in rows}


def _name(path: str, chunk: int) -> str:
    return path if chunk == 1 else f"{path}:{chunk}"


def blocks(app: App, scope: str, archived: bool = False) -> list[dict[str, Any]]:
    with app.connection() as conn:
        rows = conn.execute(
            "SELECT id::text AS id, title, category, tags, metadata, occurred_at, content "
            "FROM context_blocks WHERE scope = %s AND is_archived = %s "
            "ORDER BY metadata->>'path', (metadata->>'chunk')::int",
            (scope, archived),
        ).fetchall()
    return [dict(r) for r in rows]
