"""The ingest's settings: where notes and documents go, and how long a block may get before it
is split."""

from __future__ import annotations

from ctx.core import Setting

CATEGORY = "ingest.category"
DOCUMENT_CATEGORY = "ingest.document_category"
CHUNK_CHARS = "ingest.chunk_chars"
CHUNK_OVERLAP = "ingest.chunk_overlap"

SETTINGS = [
    Setting(
        CATEGORY,
        str,
        "obsidian",
        "Category prefix of ingested notes; a vault's blocks get '<prefix>/<vault name>'.",
    ),
    Setting(
        DOCUMENT_CATEGORY,
        str,
        "documents",
        "Category of documents sent to POST /api/ingest (ctx ingest FILE); a request may name another.",
    ),
    Setting(
        CHUNK_CHARS,
        int,
        4000,
        "Notes longer than this many characters are split along their headings (ctx ingest).",
        minimum=500,
        maximum=200_000,
    ),
    Setting(
        CHUNK_OVERLAP,
        int,
        200,
        "Characters of the previous chunk's last paragraph that start the next chunk.",
        minimum=0,
        maximum=2000,
    ),
]
