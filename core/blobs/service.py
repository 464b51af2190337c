"""The blob operations' answers where a route says more than the store functions: the search's
count, a delete's write charge, the bytes of ``/raw`` with their headers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from ctx.core.blobs.schemas import BlobFetch, BlobManage, BlobRaw, BlobSearch
from ctx.core.blobs.store import blob_chunks, blob_row, search_blobs
from ctx.core.operations import Download

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App


def blob_list(app: App, who: Principal, req: BlobSearch) -> dict[str, Any]:
    found = search_blobs(app, who, req)
    return {"blobs": found, "count": len(found)}


def manage_charges(app: App, req: BlobManage) -> tuple[str, ...]:
    """Managing reads, but a delete writes."""
    return ("write",) if req.action == "delete" else ()


def blob_download(app: App, who: Principal, req: BlobRaw) -> Download:
    """The bytes, chunk by chunk, with the blob's MIME type, size, file name and checksum."""
    row = blob_row(app, who, BlobFetch(id=req.blob_id))
    name = quote(row["filename"] or row["title"])
    headers = {
        "content-length": str(row["size"]),
        "content-disposition": f"attachment; filename*=UTF-8''{name}",
        "x-content-sha256": row["sha256"],
    }
    return Download(blob_chunks(app, row["id"]), row["mime_type"], headers)
