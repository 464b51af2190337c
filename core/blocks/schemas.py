"""Request and response shapes of the block operations, shared by the REST API, MCP tools and the
CLI, and the text validators every request schema uses.

These are API schemas (pydantic), kept apart from storage, which is SQL: a thin client imports
them without any database code.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator

from ctx.core.access import ScopeName
from ctx.core.validation import (
    NOT_BLANK,
    NOT_NULL,
    ONE_LINE,
    IsoDateTime,
    Strict,
    shaped,
    some_field,
    state_the_rule,
)

Sensitivity = Literal["public", "internal", "personal", "credentials"]
# A day of margin at each end: timestamptz is read back through the session's time zone.
MIN_TIME = datetime(1, 1, 2, tzinfo=UTC)
MAX_TIME = datetime(9999, 12, 30, 23, 59, 59, tzinfo=UTC)


def clean_tags(tags: list[str]) -> list[str]:
    """Stripped, 1-100 characters each, duplicates dropped (order kept). (NUL and the rest of the
    input rule are checked before any field, by ``Strict``.)"""
    out = []
    for t in tags:
        t = t.strip()
        if not t or len(t) > 100:
            raise ValueError("each tag must be 1-100 characters (not empty, not only spaces)")
        out.append(t)
    return list(dict.fromkeys(out))


def storable_time(value: datetime) -> datetime:
    """An aware UTC time within years 1-9999 (a naive time is read as UTC): what timestamptz
    round-trips into Python. ``0001-01-01T00:00:00+14:00`` is in year 0 in UTC and is refused."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    try:
        utc = value.astimezone(UTC)
    except OverflowError:
        raise ValueError("must fall within the years 1 to 9999 in UTC") from None
    if not (MIN_TIME <= utc <= MAX_TIME):
        raise ValueError("must fall within the years 1 to 9999 in UTC")
    return utc


def one_line_title(value: str) -> str:
    """A title: stripped, not empty, one line."""
    value = required_text(value, "title")
    if "\n" in value or "\r" in value:
        raise ValueError("title must be one line")
    return value


def required_text(value: str, what: str) -> str:
    """Stripped and not empty."""
    value = value.strip()
    if not value:
        raise ValueError(f"{what} must not be empty")
    return value


def _category(value: str) -> str:
    return required_text(value, "category")


def _query(value: str) -> str:
    return required_text(value, "query")


# Field types with their rules, shared by every request that carries such a field. The rules a
# JSON schema can state are constraints (so /openapi.json states them); the validators after
# them strip the text.
_NOT_BLANK = shaped(NOT_BLANK)
Title = Annotated[
    str,
    Field(min_length=1, max_length=500),
    shaped(ONE_LINE),
    AfterValidator(one_line_title),
]
Content = Annotated[str, Field(min_length=1, max_length=900_000), _NOT_BLANK]  # kept as given
Category = Annotated[
    str, Field(min_length=1, max_length=100), _NOT_BLANK, AfterValidator(_category)
]
BlockTypeName = Annotated[str, Field(max_length=50)]
Tag = Annotated[str, Field(min_length=1, max_length=100), _NOT_BLANK]
Tags = Annotated[list[Tag], AfterValidator(clean_tags)]
StoredTime = Annotated[IsoDateTime, AfterValidator(storable_time)]
QueryText = Annotated[str, Field(min_length=1, max_length=2000), _NOT_BLANK, AfterValidator(_query)]
MAX_TAGS = 50
#: a block id or a unique prefix of one (4+ hex characters; ``resolve_id`` looks it up)
ID_PREFIX = r"^[0-9a-fA-F-]{4,36}$"
BlockRef = Annotated[
    str, shaped(ID_PREFIX, "must be an id or a prefix of at least 4 hex characters")
]
#: a whole block id
BLOCK_ID = r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
BlockId = Annotated[str, shaped(BLOCK_ID, "must be a block id")]


class StoreRequest(Strict):
    title: Title
    content: Content
    category: Category = "general"
    scope: ScopeName | None = Field(default=None, description="Defaults to the key's home scope.")
    block_type: BlockTypeName = "knowledge"
    tags: Tags = Field(default_factory=list, max_length=MAX_TAGS)
    # "metadata" on the wire, ``meta`` in Python (as in every ctx model).
    meta: dict[str, Any] = Field(default_factory=dict, alias="metadata")
    sensitivity: Sensitivity | None = None
    occurred_at: StoredTime | None = Field(
        default=None, description="When the block's event happened (its own date), ISO 8601."
    )


class BlockChanges(Strict):
    """Fields to change on a stored block; those not given stay as they are. Each given field obeys
    the same rules as in ``store``; only ``sensitivity`` and ``occurred_at`` may be null (back to
    the type's default, no own date)."""

    model_config = ConfigDict(json_schema_extra=some_field)

    title: Title | None = Field(default=None, json_schema_extra=NOT_NULL)
    content: Content | None = Field(default=None, json_schema_extra=NOT_NULL)
    category: Category | None = Field(default=None, json_schema_extra=NOT_NULL)
    block_type: BlockTypeName | None = Field(default=None, json_schema_extra=NOT_NULL)
    tags: Tags | None = Field(default=None, max_length=MAX_TAGS, json_schema_extra=NOT_NULL)
    meta: dict[str, Any] | None = Field(default=None, alias="metadata", json_schema_extra=NOT_NULL)
    sensitivity: Sensitivity | None = None
    occurred_at: StoredTime | None = None

    @field_validator("title", "content", "category", "block_type", "tags", "meta", mode="before")
    @classmethod
    def _not_null(cls, v: Any) -> Any:
        if v is None:
            raise ValueError("must not be null (leave the field out to keep it as it is)")
        return v


class StoreResponse(BaseModel):
    id: str
    action: Literal["created", "updated"]
    scope: str
    category: str
    title: str


class SearchRequest(Strict):
    query: QueryText
    limit: int | None = Field(default=None, ge=1, le=100)
    category: str | None = None
    tags: Tags = Field(default_factory=list)
    scopes: list[ScopeName] | None = Field(
        default=None, description="Subset of the key's read scopes; default all of them."
    )


class SearchHit(BaseModel):
    id: str
    title: str
    category: str
    scope: str
    block_type: str
    tags: list[str]
    score: float
    snippet: str
    updated_at: datetime


class SearchResponse(BaseModel):
    results: list[SearchHit]
    count: int


NEEDS_ID = ("get", "delete", "update", "archive", "unarchive")


def _manage_schema(schema: dict[str, Any], model: type[BaseModel] | None = None) -> None:
    """What ``manage`` checks across fields, stated: an id for the actions on one block,
    changes for ``update`` and for no other action."""
    state_the_rule(schema, model)
    given = {"not": {"type": "null"}}
    one = [a for a in NEEDS_ID if a != "update"]
    schema["anyOf"] = [
        {
            "properties": {"action": {"enum": one}, "id": given},
            "required": ["action", "id"],
            "not": {"required": ["changes"]},
        },
        {
            "properties": {"action": {"const": "update"}, "id": given, "changes": given},
            "required": ["action", "id", "changes"],
        },
        {
            "properties": {"action": {"enum": ["list", "stats", "categories"]}},
            "required": ["action"],
            "not": {"required": ["changes"]},
        },
    ]


class ManageRequest(Strict):
    model_config = ConfigDict(json_schema_extra=_manage_schema)

    action: Literal[
        "get", "delete", "list", "stats", "categories", "update", "archive", "unarchive"
    ]
    id: BlockRef | None = Field(
        default=None,
        max_length=36,
        description="Block id or a unique prefix (get, delete, update, archive, unarchive).",
    )
    changes: BlockChanges | None = Field(default=None, description="Fields to change (update).")
    limit: int = Field(default=20, ge=1, le=200)
    offset: int = Field(default=0, ge=0, le=1_000_000_000)
    category: str | None = None
    scope: ScopeName | None = None


class BlockOut(BaseModel):
    id: str
    scope: str
    category: str
    title: str
    content: str
    block_type: str
    tags: list[str]
    meta: dict[str, Any] = Field(alias="metadata")
    sensitivity: str
    is_archived: bool
    guard_status: str
    content_hash: str
    occurred_at: datetime | None = None
    created_at: datetime
    updated_at: datetime


class BlockListItem(BaseModel):
    id: str
    scope: str
    category: str
    title: str
    block_type: str
    tags: list[str]
    sensitivity: str
    is_archived: bool
    guard_status: str
    content_length: int
    created_at: datetime
    updated_at: datetime


class BlockStats(BaseModel):
    blocks: int
    archived: int
    categories: int
    last_write: datetime | None
    by_scope: dict[str, int]
    by_type: dict[str, int]
    pending_jobs: int = Field(
        default=0, description="Background jobs (embedding, extraction, ...) still to run."
    )
    governed_threads: int = Field(
        default=0,
        description="Conversations the context governor records (its thread/... categories), "
        "counted apart: their records are not in blocks, categories, by_scope or by_type.",
    )
    governed_records: int = Field(default=0, description="The records of those threads.")


class CategoryCount(BaseModel):
    category: str
    blocks: int
    last_write: datetime | None


class ManageResponse(BaseModel):
    """What ``manage`` answers; the fields present depend on the action: ``block`` (get),
    ``blocks`` and ``count`` (list), ``stats``, ``categories``, or the changed block's ``id``,
    ``action``, ``scope``, ``category`` and ``title`` (delete, update, archive, unarchive)."""

    block: BlockOut | None = None
    blocks: list[BlockListItem] | None = None
    count: int | None = None
    stats: BlockStats | None = None
    categories: list[CategoryCount] | None = None
    id: str | None = None
    action: Literal["deleted", "updated", "archived", "unarchived"] | None = None
    scope: str | None = None
    category: str | None = None
    title: str | None = None


class ExportRequest(Strict):
    scope: list[str] | None = Field(default=None, description="Scopes to export (default: all).")
    blobs: bool = Field(
        default=False,
        description="Carry each blob's bytes (base64) in its line, not only its hash.",
    )
    admin: bool = Field(
        default=False,
        description="The admin export (admin keys only): add the server's own rows: settings, "
        "block types, Guard thresholds, backends with their secrets as sealed, API keys' "
        "metadata and tenants.",
    )


#: What the end line of a version 1 export counted, by line type.
V1_COUNTS = {"blocks": "block", "links": "link", "blobs": "blob"}


class ExportEnd(BaseModel):
    """An export's last line: how many lines of each type came before it (``counts``; a version
    1 file says ``blocks``, ``links`` and ``blobs``)."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["end"]
    counts: dict[str, int] | None = None
    blocks: int | None = None
    links: int | None = None
    blobs: int | None = None

    def expected(self) -> dict[str, int]:
        """The non-zero count of each line type."""
        if self.counts is not None:
            return {k: n for k, n in self.counts.items() if n}
        return {kind: n for field, kind in V1_COUNTS.items() if (n := getattr(self, field))}


class ImportRequest(Strict):
    records: list[dict[str, Any]] = Field(
        min_length=1,
        description="Lines of a `ctx export` file: the header first, the end line that counts "
        "them last.",
    )


class HistoryRequest(Strict):
    id: BlockRef = Field(max_length=36, description="Block id or a unique prefix.")
    limit: int = Field(default=50, ge=1, le=500, description="Most entries, newest first.")


class HistoryEntry(BaseModel):
    at: datetime
    action: Literal["created", "updated", "archived", "unarchived"]
    key: str | None = Field(
        description="The name of the key that wrote, when it belongs to the caller's tenant."
    )
    category: str | None = None
    title: str | None = None
    block_type: str | None = Field(default=None, description="The type it was written as.")


class BlockHistory(BaseModel):
    """A block's write log, newest first: when it was created, changed, archived and by which
    key (the audit rows every write leaves)."""

    id: str
    scope: str
    title: str
    history: list[HistoryEntry]
    count: int


class VersionsRequest(Strict):
    id: BlockRef = Field(max_length=36, description="Block id or a unique prefix.")
    limit: int = Field(default=20, ge=1, le=500, description="Most versions, newest first.")


class BlockVersion(BaseModel):
    version: int = Field(description="1 for the block as first stored, one more per change.")
    current: bool = Field(description="True for the block as it is now.")
    valid_from: datetime = Field(description="When this version became the block's current one.")
    valid_to: datetime | None = Field(
        description="When a write replaced it (null for the current version)."
    )
    key: str | None = Field(
        description="The name of the key whose write made it, when it belongs to the caller's "
        "tenant."
    )
    category: str
    title: str
    content: str
    block_type: str
    tags: list[str]
    meta: dict[str, Any] = Field(alias="metadata")
    sensitivity: str
    occurred_at: datetime | None = None
    content_hash: str


class BlockVersions(BaseModel):
    """A block's versions, newest (the current one) first: what it said, and from when to
    when. A change of content, title, category, tags, type or own date makes a version."""

    id: str
    scope: str
    title: str
    current: int = Field(description="The current version's number.")
    versions: list[BlockVersion]
    count: int
