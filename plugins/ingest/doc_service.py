"""``POST /api/ingest``: one document stored as blocks in the key's home scope.

A document is known by its file name within a category of the scope: sending the same name again
replaces its blocks (upserted by title like every block, the chunks the new version no longer has
archived). Its SHA-256 sits in every block's metadata, so the same bytes again write nothing,
which keeps embeddings, Guard verdicts and links of an unchanged document as they are.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from typing import Any

from pydantic import ValidationError as BadValue

from ctx.core import (
    App,
    Principal,
    StoreRequest,
    ValidationError,
    backlog_for_scopes,
    set_archived,
    store_block,
)
from ctx.plugins.ingest.documents import DocChunk, Document, clean_filename, parse_document
from ctx.plugins.ingest.schemas import DocumentRequest
from ctx.plugins.ingest.settings import CHUNK_CHARS, CHUNK_OVERLAP, DOCUMENT_CATEGORY

SOURCE = "document"
TITLE_LIMIT = 500


def block_title(doc: Document, number: int, chunk: DocChunk) -> str:
    """``Title``, ``Title (2/3)`` or ``Title: Heading (2/3)``, then `` · filename`` unless the
    title is the file name (two documents with one title must not share a key)."""
    total = len(doc.chunks)
    title = doc.title[:200]
    if total > 1:
        title += f": {chunk.heading[:100]}" if chunk.heading else ""
        title += f" ({number}/{total})"
    if doc.title != doc.filename:
        title += f" · {doc.filename}"
    return title if len(title) <= TITLE_LIMIT else title[: TITLE_LIMIT - 1] + "…"


def live_blocks(app: App, scope: str, category: str, filename: str) -> list[dict[str, Any]]:
    """The document's live blocks (id, title, metadata), in chunk order."""
    with app.connection() as conn:
        rows = conn.execute(
            "SELECT id::text AS id, title, metadata FROM context_blocks "
            "WHERE scope = %s AND category = %s AND NOT is_archived "
            "AND metadata->>'source' = %s AND metadata->>'filename' = %s "
            "ORDER BY COALESCE((metadata->>'chunk')::int, 1)",
            (scope, category, SOURCE, filename),
        ).fetchall()
    return [dict(r) for r in rows]


def unchanged(blocks: list[dict[str, Any]], sha256: str) -> bool:
    """Every chunk of the same bytes is there (a run that stopped halfway is not unchanged)."""
    if not blocks or any(b["metadata"].get("sha256") != sha256 for b in blocks):
        return False
    numbers = sorted(b["metadata"].get("chunk") for b in blocks)
    return numbers == list(range(1, int(blocks[0]["metadata"].get("chunks") or 0) + 1))


def answer_block(block_id: str, title: str, meta: dict[str, Any]) -> dict[str, Any]:
    shown = {"id": block_id, "title": title, "chunk": meta.get("chunk")}
    for key in ("page", "pages", "heading"):
        if key in meta:
            shown[key] = meta[key]
    return shown


def decoded(content: str) -> bytes:
    """The bytes of ``content_base64`` (line breaks allowed, as ``base64`` writes them)."""
    try:
        raw = base64.b64decode("".join(content.split()), validate=True)
    except (binascii.Error, ValueError):
        raise ValidationError(
            "content_base64 is not base64 (standard alphabet, '=' padding)",
            field="content_base64",
        ) from None
    if not raw:
        raise ValidationError("the document is empty", field="content_base64")
    return raw


def chunk_meta(
    doc: Document, number: int, chunk: DocChunk, extra: dict[str, Any]
) -> dict[str, Any]:
    meta: dict[str, Any] = {
        **extra,
        "source": SOURCE,
        "filename": doc.filename,
        "mime": doc.mime,
        "sha256": doc.sha256,
        "doc_title": doc.title,
        "chunk": number,
        "chunks": len(doc.chunks),
        **chunk.provenance(),
    }
    if doc.encoding is not None:
        meta["encoding"] = doc.encoding
    if doc.frontmatter:
        meta["frontmatter"] = doc.frontmatter
    return meta


def ingest_document(app: App, who: Principal, req: DocumentRequest) -> dict[str, Any]:
    """Parse, then store (or leave, when its bytes did not change) the document's blocks;
    ``embedding`` says what waits for the workers to embed in the scope (``backlog_for_scopes``)."""
    who.require_write(who.home_scope)
    scope = who.home_scope
    category = (req.category or str(app.settings[DOCUMENT_CATEGORY])).strip()
    if not category:
        raise ValidationError("category must not be empty", field="category")
    raw = decoded(req.content_base64)
    filename = clean_filename(req.filename)
    before = live_blocks(app, scope, category, filename)
    # the same bytes again: answered before parsing (a PDF's text takes the longest to read)
    if unchanged(before, hashlib.sha256(raw).hexdigest()):
        title = str(before[0]["metadata"].get("doc_title") or filename)
        shown = [answer_block(b["id"], b["title"], b["metadata"]) for b in before]
        base = {"filename": filename, "category": category, "title": title}
        return base | {
            "status": "unchanged",
            "blocks": shown,
            "archived": 0,
            "embedding": backlog_for_scopes(app, [scope]),
        }
    limit, overlap = int(app.settings[CHUNK_CHARS]), int(app.settings[CHUNK_OVERLAP])
    doc = parse_document(req.filename, raw, req.mime, limit, overlap)
    base = {"filename": doc.filename, "category": category, "title": doc.title}
    # every chunk is checked before the first is stored: a document is refused whole
    requests = []
    for number, chunk in enumerate(doc.chunks, start=1):
        meta = chunk_meta(doc, number, chunk, req.meta)
        try:
            store = StoreRequest(
                title=block_title(doc, number, chunk),
                content=chunk.content.strip() or doc.title,
                category=category,
                tags=req.tags,
                meta=meta,
            )
        except BadValue as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "document"
            raise ValidationError(f"{where}: {first['msg']}", field=where) from None
        requests.append((store, meta))
    shown = []
    for store, meta in requests:
        stored = store_block(app, who, store, origin="ingest")
        shown.append(answer_block(str(stored["id"]), str(stored["title"]), meta))
    kept = {b["id"] for b in shown}
    archived = 0
    for block in before:
        if block["id"] not in kept:
            set_archived(app, who, block["id"], True)
            archived += 1
    status = "updated" if before else "stored"
    return base | {
        "status": status,
        "blocks": shown,
        "archived": archived,
        "embedding": backlog_for_scopes(app, [scope]),
    }
