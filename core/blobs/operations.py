"""The blob operations, each declared once: the REST routes and commands derive from these
declarations (``ctx.core.operations``). Only models are imported here; the services are named."""

from __future__ import annotations

from ctx.core.blobs.schemas import BlobFetch, BlobManage, BlobRaw, BlobSearch, BlobStore
from ctx.core.operations import Answer, Operation, Rest

STORE = "ctx.core.blobs.store"
SERVICE = "ctx.core.blobs.service"
BLOB_ERRORS = {
    404: "No such blob in the key's scopes.",
    409: "The id prefix matches several blobs.",
    413: "The body is over server.blob_body_limit, or the file over blob.max_bytes.",
    429: "blob.writes_per_minute reached for this key; see Retry-After.",
}


def _blob(
    path: str, method: str = "POST", answer: Answer = "json", limit: str | None = None
) -> Rest:
    return Rest(method, f"/api/blob/{path}", answer=answer, errors=BLOB_ERRORS, body_limit=limit)


STORE_BLOB = Operation(
    name="blobs.store",
    summary="Store a file in the key's home scope, replacing the blob of the same category and "
    "title.",
    description="Store a file (base64 ``data``, up to blob.max_bytes; 413 beyond) in the key's "
    "home scope, replacing the blob of the same category and title; ``sha256``, when given, is "
    "checked.",
    service=f"{STORE}:store_blob",
    input=BlobStore,
    kind="write",
    reach="home",
    rest=_blob("store", limit="server.blob_body_limit"),
    cli=True,
)

FETCH_BLOB = Operation(
    name="blobs.fetch",
    summary="A blob by id, or by category and title: its fields and (unless ``meta_only``) its "
    "data.",
    service=f"{STORE}:fetch_blob",
    input=BlobFetch,
    rest=_blob("fetch"),
    cli=True,
)

SEARCH_BLOBS = Operation(
    name="blobs.search",
    summary="Blobs of the key's read scopes by category, tags (all of them) and MIME type.",
    service=f"{SERVICE}:blob_list",
    input=BlobSearch,
    rest=_blob("search"),
    cli=True,
)

MANAGE_BLOBS = Operation(
    name="blobs.manage",
    summary="``stats``, ``get`` (by id), ``list``, ``delete`` (home scope only).",
    service=f"{STORE}:manage_blob",
    input=BlobManage,
    charges=f"{SERVICE}:manage_charges",
    rest=_blob("manage"),
    cli=True,
)

BLOB_BYTES = Operation(
    name="blobs.raw",
    summary="The bytes, streamed chunk by chunk, with the blob's MIME type and file name.",
    service=f"{SERVICE}:blob_download",
    input=BlobRaw,
    rest=_blob("{blob_id}/raw", "GET", answer="bytes"),
    cli=True,
)
