"""Obsidian vaults and documents built for the ingest tests and the benchmark.

``sample_vault`` has one of everything ``ctx ingest`` must handle (English and German notes,
aliases, headings, embeds, every kind of front matter, broken files, a cp1252 file, deep folders,
folders to skip, two notes with one file name, a long note); ``bulk_vault`` makes many linked notes;
``german_vault`` is umlauts and ß everywhere, with file names written decomposed as macOS does.
``pdf_bytes`` and ``image_pdf`` make PDFs with fpdf2 (pages of text; one image and no text).
"""

from __future__ import annotations

import unicodedata
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


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def german_vault(root: Path) -> Path:
    """A German vault: umlauts and ß in file names (some written NFD, as macOS does), titles,
    headings, aliases and front matter keys, and links in every form Obsidian allows."""
    write(
        root,
        "Übersicht.md",
        "---\ntitle: Übersicht\naliases: [Überblick, Startseite]\nDatum: 2024-05-06\n"
        "Schlagwörter: [Stadt, Häuser]\ntags: [übersicht]\n---\n"
        "# Übersicht\n\nDie alten Häuser der Straße stehen unter Denkmalschutz.\n\n"
        "Siehe [[Straße#Öffnungszeiten]] und [[Müller]].\n",
    )
    write(
        root,
        "Straße.md",
        "---\naliases: [Strasse]\n---\nDie Straße führt zum Markt. Zurück zur "
        "[[Übersicht|Überblick]].\n\n## Öffnungszeiten\n\nMontag bis Freitag, 8 bis 18 Uhr.\n",
    )
    write(root, nfd("Müller.md"), "Herr Müller wohnt in der [[Straße]] (siehe [[Überblick]]).\n")
    write(root, nfd("Ordner/Größe.md"), "# Größe\n\nMaße und Gewichte, siehe [[Mu\u0308ller]].\n")
    return root


def pdf_bytes(pages: list[str], title: str | None = None) -> bytes:
    """A PDF with one page per string (latin-1 text in Helvetica), the title in its metadata."""
    from fpdf import FPDF

    pdf = FPDF()
    if title:
        pdf.set_title(title)
    for text in pages:
        pdf.add_page()
        pdf.set_font("helvetica", size=11)
        pdf.multi_cell(0, 5, text)
    return bytes(pdf.output())


def image_pdf() -> bytes:
    """A one-page PDF with an image and a frame, no text at all: what a scanner makes."""
    from fpdf import FPDF
    from PIL import Image

    pdf = FPDF()
    pdf.add_page()
    pdf.image(Image.new("RGB", (60, 40), (200, 30, 30)), x=20, y=20, w=120)
    pdf.rect(10, 10, 150, 100)
    return bytes(pdf.output())


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
