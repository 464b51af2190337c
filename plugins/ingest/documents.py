"""One document (Markdown, text, HTML or PDF) parsed into chunks with their provenance.

The same code runs in the server (``POST /api/ingest``) and in ``ctx ingest FILE --dry-run``, so
a dry run shows exactly the chunks the server would store. Markdown and HTML are cut by the
vault ingest's heading chunker (HTML after turning its ``h1``-``h6`` into ``#`` lines); plain
text only at paragraph breaks; a PDF's pages are joined and cut like text, and each chunk keeps
the pages its text came from.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any

from ctx.core import ValidationError
from ctx.plugins.ingest.chunks import split
from ctx.plugins.ingest.decode import decode_text
from ctx.plugins.ingest.html_text import html_text
from ctx.plugins.ingest.notes import split_front_matter
from ctx.plugins.ingest.pdf_text import pdf_text
from ctx.plugins.ingest.schemas import FILENAME, FILENAME_RULE

#: document kind -> (the MIME type recorded, the file name suffixes, other MIME types accepted)
KINDS: dict[str, tuple[str, tuple[str, ...], tuple[str, ...]]] = {
    "markdown": ("text/markdown", (".md", ".markdown"), ("text/x-markdown",)),
    "text": ("text/plain", (".txt",), ()),
    "html": ("text/html", (".html", ".htm"), ("application/xhtml+xml",)),
    "pdf": ("application/pdf", (".pdf",), ("application/x-pdf",)),
}
SUPPORTED = "Markdown (.md, .markdown), text (.txt), HTML (.html, .htm) or PDF (.pdf)"
MAX_CHUNKS = 1000
FIRST_H1 = re.compile(r"^#[ \t]+(\S[^\n]*?)[ \t#]*$", re.M)


@dataclass
class DocChunk:
    """One block's text and where in the source it came from."""

    content: str
    heading: str | None = None
    headings: list[str] = field(default_factory=list)
    pages: tuple[int, int] | None = None

    def provenance(self) -> dict[str, Any]:
        """``page`` and ``pages`` (PDF) or ``heading`` and ``headings`` (the others)."""
        if self.pages is not None:
            return {"page": self.pages[0], "pages": list(self.pages)}
        return {"heading": self.heading, "headings": self.headings}


@dataclass
class Document:
    filename: str
    kind: str
    mime: str
    sha256: str
    title: str
    chunks: list[DocChunk]
    encoding: str | None = None
    frontmatter: dict[str, Any] = field(default_factory=dict)


_FILENAME = re.compile(FILENAME)


def clean_filename(name: str) -> str:
    """The file's own name (no folders), NFC: macOS hands out decomposed umlauts, and the same
    file must be the same document whichever system sends it."""
    if len(name) > 255 or not _FILENAME.match(name):
        raise ValidationError(f"the file name {name[:100]!r} {FILENAME_RULE}", field="filename")
    base = re.split(r"[/\\]", name.strip())[-1].strip()
    return unicodedata.normalize("NFC", base)


def kind_of(filename: str, mime: str | None) -> str:
    """The document kind, from ``mime`` when given (parameters like ``charset`` ignored), else
    from the file name's suffix; anything else is a 422 naming the type."""
    if mime and mime.strip():
        wanted = mime.split(";", 1)[0].strip().lower()
        for kind, (main, _, others) in KINDS.items():
            if wanted == main or wanted in others:
                return kind
        raise ValidationError(
            f"unsupported document type {wanted!r} ({filename}): ingest takes {SUPPORTED}",
            field="mime",
        )
    lower = filename.lower()
    for kind, (_, suffixes, _) in KINDS.items():
        if lower.endswith(suffixes):
            return kind
    suffix = "." + lower.rsplit(".", 1)[-1] if "." in lower else "no suffix"
    raise ValidationError(
        f"unsupported document type {suffix!r} ({filename}): ingest takes {SUPPORTED}; "
        "or give its mime",
        field="filename",
    )


def heading_chunks(body: str, limit: int, overlap: int, kind: str) -> list[DocChunk]:
    """Markdown cut at ``#``-``###`` as notes are, HTML at every heading level, text at
    paragraphs; a chunk's heading is the one it starts under, else the first inside it."""
    out = []
    depth = 6 if kind == "html" else 3
    for chunk in split(body, limit, overlap, headings=kind != "text", depth=depth):
        heading = chunk.heading or (chunk.headings[0] if chunk.headings else None)
        out.append(DocChunk(chunk.content, heading, chunk.headings))
    return out


def page_chunks(pages: list[str], limit: int, overlap: int) -> list[DocChunk]:
    """Pages joined by blank lines and cut like text; each chunk spans the pages its own text
    (not the overlap) covers."""
    starts: list[int] = []
    parts: list[str] = []
    at = 0
    for text in pages:
        starts.append(at)
        part = text.strip("\n")
        parts.append(part)
        at += len(part) + 2
    body = "\n\n".join(parts)
    out = []
    for chunk in split(body, limit, overlap, headings=False):
        own = body[chunk.start : chunk.end]
        first = chunk.start + (len(own) - len(own.lstrip()))
        last = chunk.start + len(own.rstrip()) - 1
        pages_of = (bisect_right(starts, first), bisect_right(starts, max(first, last)))
        out.append(DocChunk(chunk.content, pages=pages_of))
    return out


def parse_document(
    filename: str, raw: bytes, mime: str | None, limit: int, overlap: int
) -> Document:
    """The document's title, kind and chunks; a 422 for a type or a file that cannot be read."""
    name = clean_filename(filename)
    kind = kind_of(name, mime)
    encoding: str | None = None
    front: dict[str, Any] = {}
    if kind == "pdf":
        pdf = pdf_text(raw, name)
        title, chunks = pdf.title, page_chunks(pdf.pages, limit, overlap)
    else:
        text, encoding = decode_text(raw)
        if kind == "html":
            title, body = html_text(text)
        elif kind == "markdown":
            front, body, _ = split_front_matter(text)
            h1 = FIRST_H1.search(body)
            title = str(front.get("title") or "") or (h1.group(1) if h1 else None)
        else:
            title, body = None, text
        if not body.strip():
            raise ValidationError(f"{name} holds no text", field="content_base64")
        chunks = heading_chunks(body, limit, overlap, kind)
    if len(chunks) > MAX_CHUNKS:
        raise ValidationError(
            f"{name} makes {len(chunks)} chunks; at most {MAX_CHUNKS} (split the file, or raise "
            "ingest.chunk_chars)",
            field="content_base64",
        )
    return Document(
        filename=name,
        kind=kind,
        mime=KINDS[kind][0],
        sha256=hashlib.sha256(raw).hexdigest(),
        title=" ".join((title or "").split())[:200] or name,
        chunks=chunks,
        encoding=encoding,
        frontmatter=front,
    )
