"""Request shapes of the blob operations (REST, CLI through REST)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from ctx.core.blocks import Category, Tags, Title
from ctx.core.validation import Strict

MIME = r"^[a-zA-Z0-9!#$&^_.+-]+/[a-zA-Z0-9!#$&^_.+-]+$"
SHA256 = r"^[0-9a-f]{64}$"


class BlobStore(Strict):
    title: Title
    category: Category = "files"
    data: str = Field(description="The file's bytes, base64-encoded.")
    filename: str | None = Field(default=None, max_length=255)
    mime_type: str | None = Field(
        default=None,
        max_length=255,
        pattern=MIME,
        description="Default: read from the leading bytes (PNG, JPEG, GIF, WebP, PDF, UTF-8 "
        "text), else application/octet-stream.",
    )
    tags: Tags = Field(default_factory=list)
    # "metadata" on the wire, ``meta`` in Python (as in every ctx model).
    meta: dict[str, Any] = Field(default_factory=dict, alias="metadata")
    sha256: str | None = Field(
        default=None, pattern=SHA256, description="The bytes' SHA-256; checked when given."
    )


class BlobFetch(Strict):
    id: str | None = Field(default=None, description="The blob's id (or give category + title).")
    category: str | None = None
    title: str | None = None
    meta_only: bool = Field(default=False, description="Leave the data out.")


class BlobSearch(Strict):
    category: str | None = None
    tags: list[str] = Field(default_factory=list, description="All of these tags.")
    mime_type: str | None = Field(default=None, description="Exact, or a prefix like image/.")
    scope: str | None = None
    limit: int = Field(default=50, ge=1, le=500)


class BlobManage(Strict):
    action: Literal["stats", "get", "list", "delete"]
    id: str | None = None
    scope: str | None = None
    limit: int = Field(default=50, ge=1, le=500)


class BlobRaw(Strict):
    blob_id: str = Field(description="The blob's id (or a unique prefix of 4+ hex).")
