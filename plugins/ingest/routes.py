"""REST under ``/api/ingest``: what ``ctx ingest`` calls. Bodies here may be up to
``server.ingest_body_limit`` (batches of notes, a document in base64)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from ctx.plugins.ingest import doc_service, service
from ctx.plugins.ingest.schemas import DocumentRequest, FinishRequest, NotesRequest
from ctx.ui import AppDep, PrincipalDep, error_response

_error = error_response


ERRORS: dict[int | str, dict[str, Any]] = {
    401: _error("No key, or an unknown or revoked one."),
    413: _error("The body is larger than server.ingest_body_limit."),
    415: _error("The body is not declared as JSON."),
    422: _error("A field is missing or invalid; `field` names it."),
}
DOCUMENT_ERRORS: dict[int | str, dict[str, Any]] = {
    403: _error("The key may not write its home scope."),
    409: _error("A block of the document collides with an existing block."),
    422: _error(
        "A field is missing or invalid, the type is not Markdown, text, HTML or PDF, or the file "
        "cannot be read (a broken or encrypted PDF, one without text); `field` names it."
    ),
}
router = APIRouter(prefix="/api/ingest", tags=["ingest"], responses=ERRORS)
Vault = Annotated[
    str, Query(min_length=1, max_length=80, pattern=r"^[^/\\\x00-\x1f]+$", description="Vault.")
]


@router.post("", name="ingest.document", responses=DOCUMENT_ERRORS)
def document(req: DocumentRequest, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Store one document (Markdown, text, HTML or PDF, its bytes in base64) as blocks in the
    key's home scope, chunked with their page or heading. ``status`` is ``stored`` (new),
    ``updated`` (its blocks replaced; ``archived`` counts chunks it no longer has) or
    ``unchanged`` (the same bytes are stored already; nothing was written)."""
    return doc_service.ingest_document(app, who, req)


@router.get("/state", name="ingest.state")
def state(vault: Vault, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """``notes``: path -> content hash of the vault's live notes in the key's home scope."""
    return service.state(app, who, vault.strip())


@router.post("/notes", name="ingest.notes")
def notes(req: NotesRequest, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Store parsed, chunked notes in the key's home scope and link their wikilinks; a note that
    cannot be stored is listed in ``problems`` and the others are kept."""
    return service.store_notes(app, who, req)


@router.post("/finish", name="ingest.finish")
def finish(req: FinishRequest, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Archive the blocks of notes not in ``paths`` and resolve all pending wikilinks."""
    return service.finish(app, who, req)
