"""Blob endpoints: ``/api/blob/store|fetch|search|manage`` (JSON, data as base64) and
``GET /api/blob/{id}/raw`` (the bytes, streamed)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter
from fastapi.responses import StreamingResponse

from ctx.core import blobs
from ctx.core.access import charge_limits
from ctx.core.blobs import BlobFetch, BlobManage, BlobSearch, BlobStore
from ctx.ui.api.deps import AppDep, PrincipalDep
from ctx.ui.api.errors import BY_ID_RESPONSES, ERROR_RESPONSES, error_response

RESPONSES: dict[int | str, dict[str, Any]] = {
    **ERROR_RESPONSES,
    **BY_ID_RESPONSES,
    404: error_response("No such blob in the key's scopes."),
    409: error_response("The id prefix matches several blobs."),
    413: error_response(
        "The body is over server.blob_body_limit, or the file over blob.max_bytes."
    ),
    429: error_response("blob.writes_per_minute reached for this key; see Retry-After."),
}
router = APIRouter(prefix="/api/blob", tags=["blobs"], responses=RESPONSES)


@router.post("/store", name="blob.store")
def store(req: BlobStore, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Store a file (base64 ``data``, up to blob.max_bytes; 413 beyond) in the key's home scope,
    replacing the blob of the same category and title; ``sha256``, when given, is checked."""
    return blobs.store_blob(app, who, req)


@router.post("/fetch", name="blob.fetch")
def fetch(req: BlobFetch, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """A blob by id, or by category and title: its fields and (unless ``meta_only``) its data."""
    return blobs.fetch_blob(app, who, req)


@router.post("/search", name="blob.search")
def search(req: BlobSearch, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Blobs of the key's read scopes by category, tags (all of them) and MIME type."""
    found = blobs.search_blobs(app, who, req)
    return {"blobs": found, "count": len(found)}


@router.post("/manage", name="blob.manage")
def manage(req: BlobManage, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """``stats``, ``get`` (by id), ``list``, ``delete`` (home scope only)."""
    if req.action == "delete":
        charge_limits(app, who, "writes")
    return blobs.manage_blob(app, who, req)


@router.get("/{blob_id}/raw", name="blob.raw", response_class=StreamingResponse)
def raw(blob_id: str, app: AppDep, who: PrincipalDep) -> StreamingResponse:
    """The bytes, streamed chunk by chunk, with the blob's MIME type and file name."""
    row = blobs.blob_row(app, who, BlobFetch(id=blob_id))
    name = quote(row["filename"] or row["title"])
    headers = {
        "content-length": str(row["size"]),
        "content-disposition": f"attachment; filename*=UTF-8''{name}",
        "x-content-sha256": row["sha256"],
    }
    return StreamingResponse(
        blobs.blob_chunks(app, row["id"]), media_type=row["mime_type"], headers=headers
    )
