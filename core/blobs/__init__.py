"""Blobs: files kept in the database next to the blocks, with the write scope rules of blocks.

``store_blob`` (upsert by scope, category and title; the bytes in chunks, replaced in one
transaction, with a checksum check), ``fetch_blob`` / ``blob_chunks`` (whole or streamed),
``search_blobs``, ``manage_blob`` (stats, get, list, delete).
"""

from typing import TYPE_CHECKING

from ctx.core.lazy import lazy_exports

if TYPE_CHECKING:
    from ctx.core.blobs.operations import (
        BLOB_BYTES,
        FETCH_BLOB,
        MANAGE_BLOBS,
        SEARCH_BLOBS,
        STORE_BLOB,
    )
    from ctx.core.blobs.schemas import (
        BlobFetch,
        BlobManage,
        BlobRaw,
        BlobSearch,
        BlobStore,
    )
    from ctx.core.blobs.store import (
        blob_chunks,
        blob_row,
        fetch_blob,
        manage_blob,
        search_blobs,
        store_blob,
    )

__all__ = [
    "BLOB_BYTES",
    "FETCH_BLOB",
    "MANAGE_BLOBS",
    "SEARCH_BLOBS",
    "STORE_BLOB",
    "BlobFetch",
    "BlobManage",
    "BlobRaw",
    "BlobSearch",
    "BlobStore",
    "blob_chunks",
    "blob_row",
    "fetch_blob",
    "manage_blob",
    "search_blobs",
    "store_blob",
]

# Imported on first use (see ctx.core.lazy): a thin client loads only what it touches.
__getattr__, __dir__ = lazy_exports(__name__, __file__, globals())
