"""Walking an Obsidian vault: which files are notes, and their text.

Obsidian keeps its own state in ``.obsidian/`` and tools leave ``node_modules`` and dot folders
(``.git``, ``.trash``) behind; none of that is a note. The walk is sorted so two runs over the same
vault send the same notes in the same order, and a file that is not UTF-8 is still read (as
cp1252, the usual culprit) so the note is never lost, only reported.

Paths and text are NFC-normalised: macOS writes file names decomposed (``Mu\u0308ller.md``),
while a link typed in a note is composed (``[[Müller]]``); both must name the same note, and the
German full-text stemmer only knows the composed letters.
"""

from __future__ import annotations

import hashlib
import os
import unicodedata
from dataclasses import dataclass
from pathlib import Path

SKIPPED_FOLDERS = {"node_modules"}


@dataclass(frozen=True)
class NoteFile:
    """One Markdown file: its vault-relative path (always with ``/``), text and content hash."""

    path: str
    text: str
    content_hash: str
    problem: str | None = None


def vault_path(root: Path, file: Path) -> str:
    """The note's vault-relative path as ctx knows it: ``/`` between folders, NFC."""
    return unicodedata.normalize("NFC", file.relative_to(root).as_posix())


def note_paths(root: Path) -> list[Path]:
    """The vault's ``.md`` files, sorted, without dot folders, dot files and ``node_modules``."""
    found: list[Path] = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIPPED_FOLDERS)
        for name in sorted(files):
            if name.lower().endswith(".md") and not name.startswith("."):
                found.append(Path(folder) / name)
    return sorted(found, key=lambda p: vault_path(root, p))


def read_note(root: Path, file: Path) -> NoteFile:
    """The file's text; bytes that are not UTF-8 are decoded as cp1252 and reported."""
    raw = file.read_bytes()
    path = vault_path(root, file)
    digest = hashlib.sha256(raw).hexdigest()
    try:
        text, problem = raw.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        text = raw.decode("cp1252", errors="replace")
        problem = f"not UTF-8 (byte {exc.start}); read as cp1252"
    text = unicodedata.normalize("NFC", text.replace("\r\n", "\n"))
    return NoteFile(path=path, text=text, content_hash=digest, problem=problem)
