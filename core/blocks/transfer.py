"""Export and import: a store's blocks as versioned JSON lines, and back.

The format (``FORMAT``, version ``VERSION``) is one JSON object per line: a ``header``, then
every ``block`` (its fields, metadata and temporal anchors), then every ``link`` between exported
blocks, then an ``end`` line with the counts, so a cut-off file is noticed. Embeddings are not
exported: they are rebuilt from the content by the embedding jobs an import queues.

An import goes through the write path's hooks (type rules, plugin metadata checks, the jobs that
make a block findable) and keeps each block's id and times, so a store exported and imported
again is the same store. It is idempotent: a block already there with the same content is left
alone, one with other content is updated, and a link already there is kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

import psycopg
import pydantic
from pydantic import BaseModel, ConfigDict, Field

from ctx.core.access import Principal, validate_scope
from ctx.core.blocks.schemas import ExportRequest, ImportRequest, StoreRequest
from ctx.core.blocks.write import prepare_write, record_write, write_values
from ctx.core.errors import Forbidden, ValidationError
from ctx.core.validation import error_message

if TYPE_CHECKING:
    from ctx.core.app import App

UUID = r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"
FORMAT = "ctx-export"
VERSION = 1
COMPARED = ("category", "title", "content", "block_type", "tags", "metadata", "sensitivity",
            "occurred_at", "is_archived")  # fmt: skip


class Anchor(BaseModel):
    model_config = ConfigDict(extra="forbid")
    date: str
    source: str
    dimension: str
    value: float


class BlockRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["block"]
    id: str = Field(pattern=UUID)
    scope: str
    category: str
    title: str
    content: str
    block_type: str
    tags: list[str] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)
    sensitivity: str
    occurred_at: datetime | None = None
    created_at: datetime
    updated_at: datetime
    is_archived: bool = False
    anchors: list[Anchor] = Field(default_factory=list)


class LinkRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["link"]
    source_id: str = Field(pattern=UUID)
    target_id: str = Field(pattern=UUID)
    link_type: Literal["supersedes", "causal", "factual", "topical", "recurrent"]
    confidence: float = Field(ge=0, le=1)
    origin: Literal["dream", "user"] = "dream"
    status: Literal["active", "confirmed", "rejected"] = "active"
    note: str = Field(default="", max_length=10_000)
    created_at: datetime


class BlobRecord(BaseModel):
    """A blob's reference: its fields and checksum, not its bytes (``ctx blob get`` or a
    ``pg_dump`` carries those)."""

    model_config = ConfigDict(extra="forbid")
    type: Literal["blob"]
    id: str = Field(pattern=UUID)
    scope: str
    category: str
    title: str
    filename: str | None = None
    mime_type: str
    tags: list[str] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)
    size: int
    sha256: str
    created_at: datetime
    updated_at: datetime


class Header(BaseModel):
    model_config = ConfigDict(extra="allow")
    type: Literal["header"]
    format: Literal["ctx-export"]
    version: int


class End(BaseModel):
    model_config = ConfigDict(extra="forbid")
    type: Literal["end"]
    blocks: int
    links: int
    blobs: int = 0


MODELS: dict[str, type[BaseModel]] = {
    "header": Header,
    "block": BlockRecord,
    "link": LinkRecord,
    "blob": BlobRecord,
    "end": End,
}


# -- export ----------------------------------------------------------------------------------


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def export_records(app: App, who: Principal, scopes: list[str] | None = None) -> Iterator[dict]:
    """The header, the blocks of ``scopes`` (default: every scope the key reads), the links
    between them and the end line; read with server-side cursors, so any size streams."""
    wanted = who.scopes_for(scopes)
    yield {"type": "header", "format": FORMAT, "version": VERSION, "scopes": wanted,
           "exported_at": datetime.now().astimezone().isoformat()}  # fmt: skip
    blocks = links = blobs = 0
    with app.connection() as conn:
        for row in _stream(conn, "export_blocks", _BLOCKS_SQL, {"scopes": wanted}):
            blocks += 1
            yield {
                "type": "block",
                "id": str(row["id"]),
                **{k: row[k] for k in ("scope", "category", "title", "content", "block_type")},
                "tags": list(row["tags"]),
                "metadata": row["metadata"],
                "sensitivity": row["sensitivity"],
                "occurred_at": _iso(row["occurred_at"]),
                "created_at": _iso(row["created_at"]),
                "updated_at": _iso(row["updated_at"]),
                "is_archived": row["is_archived"],
                "anchors": row["anchors"] or [],
            }
        for row in _stream(conn, "export_blobs", _BLOBS_SQL, {"scopes": wanted}):
            blobs += 1
            yield {"type": "blob", **{k: row[k] for k in row if k not in _TIMES},
                   **{k: _iso(row[k]) for k in _TIMES}}  # fmt: skip
        for row in _stream(conn, "export_links", _LINKS_SQL, {"scopes": wanted}):
            links += 1
            yield {
                "type": "link",
                "source_id": str(row["source_id"]),
                "target_id": str(row["target_id"]),
                **{k: row[k] for k in ("link_type", "confidence", "origin", "status", "note")},
                "created_at": _iso(row["created_at"]),
            }
    yield {"type": "end", "blocks": blocks, "links": links, "blobs": blobs}


_BLOCKS_SQL = """
SELECT b.id, b.scope, b.category, b.title, b.content, b.block_type, b.tags, b.metadata,
       b.sensitivity, b.occurred_at, b.created_at, b.updated_at, b.is_archived,
       (SELECT jsonb_agg(jsonb_build_object('date', t.source_date::text, 'source', t.source,
                                            'dimension', t.dimension, 'value', t.value)
                         ORDER BY t.source_date, t.dimension)
          FROM context_temporal t WHERE t.block_id = b.id) AS anchors
  FROM context_blocks b
 WHERE b.scope = ANY(%(scopes)s)
 ORDER BY b.scope, b.created_at, b.id
"""

_TIMES = ("created_at", "updated_at")
_BLOBS_SQL = """
SELECT id::text AS id, scope, category, title, filename, mime_type, tags, metadata, size, sha256,
       created_at, updated_at
  FROM context_blobs WHERE scope = ANY(%(scopes)s) ORDER BY scope, created_at, id
"""

_LINKS_SQL = """
SELECT l.source_id, l.target_id, l.link_type, l.confidence, l.origin, l.status, l.note,
       l.created_at
  FROM context_links l
  JOIN context_blocks s ON s.id = l.source_id AND s.scope = ANY(%(scopes)s)
  JOIN context_blocks t ON t.id = l.target_id AND t.scope = ANY(%(scopes)s)
 ORDER BY l.created_at, l.id
"""


def export_lines(app: App, who: Principal, req: ExportRequest) -> Iterator[dict[str, Any]]:
    """``GET /api/export``: the records of ``export_records`` for the requested scopes."""
    return export_records(app, who, req.scope)


def _stream(
    conn: psycopg.Connection[Any], name: str, sql: str, params: dict[str, Any]
) -> Iterator[dict[str, Any]]:
    with conn.cursor(name=name) as cur:
        cur.itersize = 500
        cur.execute(sql, params)
        yield from cur


# -- import ----------------------------------------------------------------------------------


def parse_records(
    lines: Iterable[dict[str, Any]],
) -> tuple[list[BlockRecord], list[LinkRecord], list[BlobRecord]]:
    """Check a batch of records (every line, before anything is written): a ``header`` of this
    format and a version this code reads, blocks, links, an ``end``. ``ValidationError`` names
    the first bad line."""
    blocks: list[BlockRecord] = []
    links: list[LinkRecord] = []
    blobs: list[BlobRecord] = []
    for number, line in enumerate(lines, 1):
        kind = line.get("type") if isinstance(line, dict) else None
        model = MODELS.get(kind if isinstance(kind, str) else "")
        if model is None:
            raise ValidationError(f"record {number}: type must be header, block, link or end")
        try:
            parsed = model.model_validate(line)
        except pydantic.ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ()))
            raise ValidationError(f"record {number} ({kind}): {where}: {first['msg']}") from None
        if isinstance(parsed, Header) and parsed.version > VERSION:
            raise ValidationError(
                f"record {number}: export format version {parsed.version} is newer than this "
                f"ctx reads ({VERSION}); upgrade ctx"
            )
        if isinstance(parsed, BlockRecord):
            blocks.append(parsed)
        elif isinstance(parsed, LinkRecord):
            links.append(parsed)
        elif isinstance(parsed, BlobRecord):
            blobs.append(parsed)
    return blocks, links, blobs


def import_records(app: App, who: Principal, lines: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Import a batch of export records in one transaction; returns what happened to each kind.

    Every block's scope must be one the key may write (its home scope; any scope for an admin
    key), else nothing is written (403). A block whose (scope, category, title) belongs to
    another block here is skipped and named; so is a link whose ends are not both here."""
    blocks, links, blobs = parse_records(lines)
    for b in blocks:
        validate_scope(b.scope)
        if not who.is_admin and b.scope != who.home_scope:
            raise Forbidden(
                f"this key imports only into its home scope {who.home_scope!r}, not {b.scope!r}"
            )
    report: dict[str, Any] = {"blocks_created": 0, "blocks_updated": 0, "blocks_unchanged": 0,
                              "links_created": 0, "links_unchanged": 0, "blobs_present": 0,
                              "skipped": []}  # fmt: skip
    with app.connection() as conn:
        for b in blocks:
            outcome = _import_block(app, conn, who, b)
            if outcome.startswith("skipped"):
                report["skipped"].append({"id": b.id, "reason": outcome[len("skipped: ") :]})
            else:
                report[f"blocks_{outcome}"] += 1
        for link in links:
            outcome = _import_link(conn, who, link)
            if outcome.startswith("skipped"):
                report["skipped"].append(
                    {"link": f"{link.source_id}->{link.target_id}", "reason": outcome[9:]}
                )
            else:
                report[f"links_{outcome}"] += 1
        for blob in blobs:
            here = conn.execute(
                "SELECT sha256 FROM context_blobs WHERE id = %s AND scope = ANY(%s)",
                (blob.id, list(who.read_scopes)),
            ).fetchone()
            if here is not None and here["sha256"] == blob.sha256:
                report["blobs_present"] += 1
            else:
                reason = "its bytes are not in an export: put the file with `ctx blob put`"
                report["skipped"].append({"blob": blob.id, "reason": reason})
    return report


def _import_block(app: App, conn: psycopg.Connection[Any], who: Principal, b: BlockRecord) -> str:
    current = conn.execute(
        "SELECT id, scope, category, title, content, block_type, tags, metadata, sensitivity, "
        "occurred_at, is_archived, content_hash FROM context_blocks WHERE id = %s FOR UPDATE",
        (b.id,),
    ).fetchone()
    if current is not None and current["scope"] != b.scope:
        return "skipped: a block with this id lives in another scope here"
    clash = conn.execute(
        "SELECT id::text AS id FROM context_blocks WHERE scope = %s AND category = %s "
        "AND title = %s AND id <> %s",
        (b.scope, b.category, b.title, b.id),
    ).fetchone()
    if clash is not None:
        return f"skipped: block {clash['id']} here has the same scope, category and title"
    if current is not None and all(_same(current[k], getattr(b, k)) for k in COMPARED):
        return "unchanged"
    fields = ("title", "content", "category", "scope", "block_type", "tags", "metadata",
              "sensitivity", "occurred_at")  # fmt: skip
    try:
        req = StoreRequest.model_validate({k: getattr(b, k) for k in fields})
    except pydantic.ValidationError as exc:  # kept before a rule refused it (empty content)
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "block"
        return f"skipped: {where} {error_message(dict(first))}; ctx no longer stores such a block"
    previous = None if current is None else dict(current)
    write = prepare_write(app, conn, who, req, b.scope, previous, origin="import")
    values = {**write_values(write), "id": b.id, "created_at": b.created_at,
              "updated_at": b.updated_at, "is_archived": b.is_archived}  # fmt: skip
    with conn.transaction():
        if current is None:
            conn.execute(
                """
                INSERT INTO context_blocks
                    (id, scope, category, title, content, block_type, tags, metadata,
                     sensitivity, content_hash, occurred_at, created_at, updated_at, is_archived)
                VALUES (%(id)s, %(scope)s, %(category)s, %(title)s, %(content)s, %(block_type)s,
                        %(tags)s, %(metadata)s, %(sensitivity)s, %(content_hash)s,
                        %(occurred_at)s, %(created_at)s, %(updated_at)s, %(is_archived)s)
                """,
                values,
            )
        else:
            conn.execute(
                """
                UPDATE context_blocks SET category = %(category)s,
                    title = %(title)s, content = %(content)s, block_type = %(block_type)s,
                    tags = %(tags)s, metadata = %(metadata)s, sensitivity = %(sensitivity)s,
                    content_hash = %(content_hash)s, occurred_at = %(occurred_at)s,
                    created_at = %(created_at)s, updated_at = %(updated_at)s,
                    is_archived = %(is_archived)s,
                    guard_status = CASE WHEN content_hash = %(content_hash)s THEN guard_status
                                        ELSE 'pending' END
                 WHERE id = %(id)s
                """,
                values,
            )
    record_write(conn, who, write, b.id, "created" if current is None else "updated")
    return "created" if current is None else "updated"


def _same(here: Any, there: Any) -> bool:
    if isinstance(here, datetime) and isinstance(there, datetime):
        return here == there
    return bool(here == there)


def _import_link(conn: psycopg.Connection[Any], who: Principal, link: LinkRecord) -> str:
    ends = conn.execute(
        "SELECT scope FROM context_blocks WHERE id = ANY(%s::uuid[])",
        ([link.source_id, link.target_id],),
    ).fetchall()
    if len(ends) != 2 or link.source_id == link.target_id:
        return "skipped: one of its blocks is not here"
    if not who.is_admin and any(e["scope"] != who.home_scope for e in ends):
        return "skipped: one of its blocks is outside this key's home scope"
    row = conn.execute(
        """
        INSERT INTO context_links (source_id, target_id, link_type, confidence, origin, status,
                                   note, created_at)
        VALUES (%s, %s, %s, %s, %s, %s, %s, %s)
        ON CONFLICT (source_id, target_id, link_type) DO NOTHING RETURNING id
        """,
        (link.source_id, link.target_id, link.link_type, link.confidence, link.origin,
         link.status, link.note, link.created_at),
    ).fetchone()  # fmt: skip
    return "created" if row is not None else "unchanged"


def import_batch(app: App, who: Principal, req: ImportRequest) -> dict[str, Any]:
    """``POST /api/import``: one batch of export lines, in one transaction."""
    return import_records(app, who, req.records)
