"""Request shapes of the blob operations (REST, CLI through REST)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ctx.core.access import ScopeName
from ctx.core.blocks import ID_PREFIX, Category, Tags, Title
from ctx.core.validation import BASE64, Strict, alternatives, shaped, state_the_rule

#: a blob's id or a unique prefix of one (4+ hex characters)
BlobRef = Annotated[str, shaped(ID_PREFIX)]

MIME = r"^[a-zA-Z0-9!#$&^_.+-]+/[a-zA-Z0-9!#$&^_.+-]+$"
SHA256 = r"^[0-9a-f]{64}$"


class BlobStore(Strict):
    title: Title
    category: Category = "files"
    data: str = shaped(BASE64, description="The file's bytes, base64-encoded.")
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
    model_config = ConfigDict(json_schema_extra=alternatives(("id",), ("category", "title")))

    id: BlobRef | None = Field(
        default=None, description="The blob's id (or give category + title)."
    )
    category: Category | None = None
    title: Title | None = None
    meta_only: bool = Field(default=False, description="Leave the data out.")


class BlobSearch(Strict):
    category: str | None = None
    tags: list[str] = Field(default_factory=list, description="All of these tags.")
    mime_type: str | None = Field(default=None, description="Exact, or a prefix like image/.")
    scope: str | None = None
    limit: int = Field(default=50, ge=1, le=500)


def _manage_schema(schema: dict[str, Any], model: type[BaseModel] | None = None) -> None:
    """``get`` and ``delete`` name the blob: stated for the schema's readers."""
    state_the_rule(schema, model)
    schema["anyOf"] = [
        {
            "properties": {"action": {"enum": ["get", "delete"]}, "id": {"not": {"type": "null"}}},
            "required": ["action", "id"],
        },
        {"properties": {"action": {"enum": ["stats", "list"]}}, "required": ["action"]},
    ]


class BlobManage(Strict):
    model_config = ConfigDict(json_schema_extra=_manage_schema)

    action: Literal["stats", "get", "list", "delete"]
    id: BlobRef | None = None
    scope: ScopeName | None = None
    limit: int = Field(default=50, ge=1, le=500)


class BlobRaw(Strict):
    blob_id: BlobRef = Field(description="The blob's id (or a unique prefix of 4+ hex).")
