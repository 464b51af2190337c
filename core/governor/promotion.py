"""Promotion and document ingestion: records beyond a single event.

Promotion copies a thread's record to a wider visibility (the project: the thread's collection;
a team: another scope) as a ``memory`` block whose metadata keeps where it came from. The source
stays as it was. It needs read access to the thread and write access to the target scope.

Ingestion turns a document into records: chunks along Markdown headings (and a size cap), each
one block with its provenance (title, chunk, heading). Into a thread they are private records of
its category; into the project they are ``reference`` blocks of the collection.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from ctx.core.access import validate_scope
from ctx.core.blocks import StoreRequest, store_block
from ctx.core.errors import NotFound, ValidationError
from ctx.core.governor.indexer import RECORD_TYPE, governor_principal, record_title

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App
    from ctx.core.governor.schemas import IngestRequest, PromoteRequest
    from ctx.core.governor.threads import Thread

HEADING_RE = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$", re.MULTILINE)


def promote(app: App, who: Principal, thread: Thread, req: PromoteRequest) -> dict[str, Any]:
    if (req.seq is None) == (req.record_id is None):
        raise ValidationError("name the record by seq or by record_id (one of them)")
    with app.connection() as conn:
        row = conn.execute(
            """
            SELECT e.seq, e.role, e.name, e.content, e.sensitivity, e.occurred_at,
                   e.record_id::text AS record_id
              FROM context_thread_events e
             WHERE e.thread_id = %s AND (e.seq = %s OR e.record_id::text = %s)
            """,
            (thread.id, req.seq, req.record_id),
        ).fetchone()
    if row is None:
        raise NotFound(f"no such record in thread {thread.session_id!r}")
    target = thread.scope if req.visibility == "project" else (req.scope or who.home_scope)
    target = validate_scope(target)
    if req.visibility == "team" and target == thread.scope:
        raise ValidationError(
            "team visibility needs a scope other than the thread's collection", field="scope"
        )
    who.require_write(target)
    saved = store_block(
        app,
        who,
        StoreRequest.model_validate(
            {
                "title": req.title or f"{record_title(row)} · {thread.session_id}"[:500],
                "content": row["content"],
                "category": req.category,
                "scope": target,
                "block_type": "memory",
                "tags": req.tags,
                "sensitivity": row["sensitivity"],
                "occurred_at": row["occurred_at"],
                "metadata": {
                    "visibility": req.visibility,
                    "promoted_from": {
                        "collection": thread.scope,
                        "session_id": thread.session_id,
                        "seq": row["seq"],
                        "record_id": row["record_id"],
                        "role": row["role"],
                        **({"name": row["name"]} if row["name"] else {}),
                    },
                },
            }
        ),
    )
    return {
        "promoted": saved,
        "visibility": req.visibility,
        "source": {"seq": row["seq"], "record_id": row["record_id"]},
    }


def chunks(text: str, limit: int, markdown: bool = True) -> list[tuple[str | None, str]]:
    """(heading, text) pieces: a section per Markdown heading, long sections cut at paragraph
    (then line, then word) boundaries to at most ``limit`` characters."""
    sections: list[tuple[str | None, str]] = []
    if markdown:
        marks = list(HEADING_RE.finditer(text))
        if marks and marks[0].start() > 0:
            sections.append((None, text[: marks[0].start()]))
        for i, m in enumerate(marks):
            end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
            sections.append((m.group(2), text[m.start() : end]))
        if not marks:
            sections = [(None, text)]
    else:
        sections = [(None, text)]
    out: list[tuple[str | None, str]] = []
    for heading, body in sections:
        body = body.strip()
        while body:
            if len(body) <= limit:
                out.append((heading, body))
                break
            cut = max(
                body.rfind("\n\n", 0, limit), body.rfind("\n", 0, limit), body.rfind(" ", 0, limit)
            )
            cut = cut if cut > limit // 3 else limit
            out.append((heading, body[:cut].strip()))
            body = body[cut:].strip()
    return out


def _chunk(
    req: IngestRequest, i: int, n: int, heading: str | None, body: str, **fields: Any
) -> StoreRequest:
    source = {"title": req.title, "chunk": i, "chunks": n}
    if heading:
        source["heading"] = heading
    meta = {"source": source, **fields.pop("meta")}
    return StoreRequest.model_validate(
        {
            "title": f"{req.title} ({i}/{n})" if n > 1 else req.title,
            "content": body,
            "sensitivity": req.sensitivity,
            "metadata": meta,
            **fields,
        }
    )


def ingest(app: App, who: Principal, thread: Thread, req: IngestRequest) -> dict[str, Any]:
    pieces = chunks(req.content, req.chunk_chars, req.format == "markdown")
    if not pieces:
        raise ValidationError("the document has no text", field="content")
    n = len(pieces)
    if req.visibility == "project":
        stored = [
            store_block(
                app,
                who,
                _chunk(
                    req,
                    i,
                    n,
                    heading,
                    body,
                    category="documents",
                    block_type="reference",
                    meta={"visibility": "project"},
                ),
            )
            for i, (heading, body) in enumerate(pieces, 1)
        ]
        return {"visibility": "project", "blocks": [b["id"] for b in stored], "chunks": n}
    meta = {
        "thread": thread.session_id,
        "role": "document",
        "name": req.title,
        "visibility": "thread",
    }
    writer = governor_principal(thread.scope)
    written = [
        store_block(
            app,
            writer,
            _chunk(
                req,
                i,
                n,
                heading,
                body,
                category=thread.category,
                scope=thread.scope,
                block_type=RECORD_TYPE,
                meta=dict(meta),
            ),
            origin="governor",
        )
        for i, (heading, body) in enumerate(pieces, 1)
    ]
    return {"visibility": "thread", "blocks": [b["id"] for b in written], "chunks": n}
