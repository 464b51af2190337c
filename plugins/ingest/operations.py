"""The ingest operations under ``/api/ingest``, each declared once: what ``ctx ingest`` calls.
Bodies here may be up to ``server.ingest_body_limit`` (batches of notes, a document in base64).
Only models are imported; the services are named."""

from __future__ import annotations

from ctx.core import Operation, Rest
from ctx.plugins.ingest.schemas import DocumentRequest, FinishRequest, NotesRequest, VaultQuery

SERVICE = "ctx.plugins.ingest.service"
#: the batches of a vault and the files of documents are larger than an ordinary request
INGEST_LIMIT = "server.ingest_body_limit"
TOO_LARGE = {413: "The body is larger than server.ingest_body_limit."}

INGEST_DOCUMENT = Operation(
    name="ingest.document",
    summary="Store one document (Markdown, text, HTML or PDF, its bytes in base64) as blocks in "
    "the key's home scope.",
    description="Store one document (Markdown, text, HTML or PDF, its bytes in base64) as blocks "
    "in the key's home scope, chunked with their page or heading. ``status`` is ``stored`` "
    "(new), ``updated`` (its blocks replaced; ``archived`` counts chunks it no longer has) or "
    "``unchanged`` (the same bytes are stored already; nothing was written).",
    service="ctx.plugins.ingest.doc_service:ingest_document",
    input=DocumentRequest,
    kind="write",
    reach="home",
    rest=Rest(
        "POST",
        "/api/ingest",
        body_limit=INGEST_LIMIT,
        errors={
            **TOO_LARGE,
            403: "The key may not write its home scope.",
            409: "A block of the document collides with an existing block.",
            422: "A field is missing or invalid, the type is not Markdown, text, HTML or PDF, or "
            "the file cannot be read (a broken or encrypted PDF, one without text); `field` "
            "names it.",
        },
    ),
    cli=True,
)

VAULT_STATE = Operation(
    name="ingest.state",
    summary="``notes``: path -> content hash of the vault's live notes in the key's home scope.",
    service=f"{SERVICE}:vault_state",
    input=VaultQuery,
    reach="home",
    rest=Rest("GET", "/api/ingest/state", errors=TOO_LARGE),
    cli=True,
)

INGEST_NOTES = Operation(
    name="ingest.notes",
    summary="Store parsed, chunked notes in the key's home scope and link their wikilinks.",
    description="Store parsed, chunked notes in the key's home scope and link their wikilinks; "
    "a note that cannot be stored is listed in ``problems`` and the others are kept.",
    service=f"{SERVICE}:store_notes",
    input=NotesRequest,
    kind="write",
    reach="home",
    rest=Rest("POST", "/api/ingest/notes", errors=TOO_LARGE, body_limit=INGEST_LIMIT),
    cli=True,
)

FINISH_INGEST = Operation(
    name="ingest.finish",
    summary="Archive the blocks of notes not in ``paths`` and resolve all pending wikilinks.",
    service=f"{SERVICE}:finish",
    input=FinishRequest,
    kind="write",
    reach="home",
    rest=Rest("POST", "/api/ingest/finish", errors=TOO_LARGE, body_limit=INGEST_LIMIT),
    cli=True,
)
