"""Export and import: a store's scopes as versioned JSON lines, and back.

The format (``FORMAT``, version ``VERSION``) is one JSON object per line: a ``header``, then every
``block`` (its fields, metadata and temporal anchors), then the lines of each export section
(``ctx.core.blocks.sections``: blobs, Guard decisions, links, governed threads, issues' numbers,
history and sync state, ...), then an ``end`` line with the count of each type of line, so a
cut-off file is noticed. Embeddings are not exported: they are rebuilt from the content by the
embedding jobs an import queues. Version 1 files (blocks, blobs and links) still import.

The admin export (an admin key, ``admin``) adds the server's own rows, each capability's section
marked ``admin``: tenants, sealed secrets and block types before the blocks (what they rely on),
settings, backends, keys and Guard thresholds after. Secrets travel as they are stored, sealed;
only an admin key imports these lines.

An import goes through the write path's hooks (type rules, plugin metadata checks, the jobs that
make a block findable) and keeps each block's id and times, so a store exported and imported
again is the same store. It is idempotent: a block already there with the same content is left
alone, one with other content is updated, and so on for every section's lines. Every batch
(``POST /api/import``) must be a header, lines and the end line that counts them: a batch
without its end, or whose end counts other lines, is refused whole.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

import psycopg
import pydantic
from pydantic import BaseModel, ConfigDict, Field

from ctx.core.access import Principal, validate_scope
from ctx.core.blocks.schemas import ExportEnd, ExportRequest, ImportRequest, StoreRequest
from ctx.core.blocks.sections import (
    UUID_PATTERN,
    ExportContext,
    RestoreContext,
    TransferLine,
    may_import,
    outcome_of,
)
from ctx.core.blocks.write import prepare_write, record_write, write_values
from ctx.core.errors import Forbidden, ValidationError
from ctx.core.runtime import TransferSection, iso_times
from ctx.core.validation import error_message

if TYPE_CHECKING:
    from ctx.core.app import App

FORMAT = "ctx-export"
VERSION = 2
#: The tables the block lines carry (the anchors are rebuilt by the temporal job on import).
BLOCK_TABLES = ("context_blocks", "context_temporal")
COMPARED = ("category", "title", "content", "block_type", "tags", "metadata", "sensitivity",
            "occurred_at", "is_archived")  # fmt: skip


class Anchor(BaseModel):
    model_config = ConfigDict(extra="forbid")
    date: str
    source: str
    dimension: str
    value: float


class BlockRecord(TransferLine):
    type: Literal["block"]
    id: str = Field(pattern=UUID_PATTERN)
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


class Header(BaseModel):
    model_config = ConfigDict(extra="allow")
    type: Literal["header"]
    format: Literal["ctx-export"]
    version: int = Field(ge=1)


# -- export ----------------------------------------------------------------------------------


ADMIN_ONLY = "the admin export (settings, types, backends, keys, tenants) needs an admin key"


def export_records(
    app: App,
    who: Principal,
    scopes: list[str] | None = None,
    blob_bytes: bool = False,
    admin: bool = False,
) -> Iterator[dict[str, Any]]:
    """The header, the blocks of ``scopes`` (default: every scope the key reads), each export
    section's lines and the end line; read with server-side cursors, so any size streams.
    ``admin`` adds the admin sections (the caller checked the key is an admin's)."""
    wanted = who.scopes_for(scopes)
    sections = [s for s in app.transfer_sections if admin or not s.admin]
    yield {"type": "header", "format": FORMAT, "version": VERSION, "scopes": wanted,
           "blob_bytes": blob_bytes, "admin": admin,
           "exported_at": datetime.now().astimezone().isoformat()}  # fmt: skip
    counts: Counter[str] = Counter()
    with app.connection() as conn:
        reader = ExportContext(conn, who, wanted, blob_bytes)
        for line in _section_lines(reader, [s for s in sections if s.first]):
            counts[line["type"]] += 1
            yield line
        for row in reader.rows(_BLOCKS_SQL):
            counts["block"] += 1
            yield _block_line(row)
        for line in _section_lines(reader, [s for s in sections if not s.first]):
            counts[line["type"]] += 1
            yield line
    yield {"type": "end", "counts": dict(counts)}


def _section_lines(
    reader: ExportContext, sections: list[TransferSection]
) -> Iterator[dict[str, Any]]:
    for section in sections:
        yield from section.export(reader)


def _block_line(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "block",
        "id": str(row["id"]),
        **{k: row[k] for k in ("scope", "category", "title", "content", "block_type")},
        "tags": list(row["tags"]),
        "metadata": row["metadata"],
        "sensitivity": row["sensitivity"],
        **iso_times({k: row[k] for k in ("occurred_at", "created_at", "updated_at")}),
        "is_archived": row["is_archived"],
        "anchors": row["anchors"] or [],
    }


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


def export_lines(app: App, who: Principal, req: ExportRequest) -> Iterator[dict[str, Any]]:
    """``GET /api/export``: the records of ``export_records`` for the requested scopes; the
    admin export is refused (403) to a key that is not an admin's, before a line is written."""
    if req.admin and not who.is_admin:
        raise Forbidden(ADMIN_ONLY, field="admin")
    return export_records(app, who, req.scope, req.blobs, req.admin)


# -- import ----------------------------------------------------------------------------------


def _models(app: App) -> dict[str, tuple[type[BaseModel], Any]]:
    models: dict[str, tuple[type[BaseModel], Any]] = {
        "header": (Header, None),
        "block": (BlockRecord, None),
        "end": (ExportEnd, None),
    }
    for section in app.transfer_sections:
        for record in section.records:
            models[record.kind] = (record.model, record.restore)
    return models


def admin_kinds(app: App) -> set[str]:
    """The line types of the admin sections (only an admin key imports them)."""
    return {r.kind for s in app.transfer_sections if s.admin for r in s.records}


def parse_records(app: App, lines: Iterable[dict[str, Any]]) -> list[tuple[BaseModel, Any]]:
    """Check a batch (every line, before anything is written): a ``header`` of this format and a
    version this code reads first, lines of known types, and last the ``end`` that counts them.
    Returns each line's model with its section's ``restore`` (None for a block).
    ``ValidationError`` names the first bad line."""
    models = _models(app)
    parsed: list[tuple[BaseModel, Any]] = []
    for number, line in enumerate(lines, 1):
        kind = line.get("type") if isinstance(line, dict) else None
        model, restore = models.get(kind if isinstance(kind, str) else "", (None, None))
        if model is None:
            known = ", ".join(models)
            raise ValidationError(f"record {number}: type must be one of {known}")
        try:
            record = model.model_validate(line)
        except pydantic.ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ()))
            raise ValidationError(f"record {number} ({kind}): {where}: {first['msg']}") from None
        if (number == 1) != isinstance(record, Header):
            raise ValidationError(f"record {number}: a batch starts with its header, once")
        if isinstance(record, Header) and record.version > VERSION:
            raise ValidationError(
                f"record {number}: export format version {record.version} is newer than this "
                f"ctx reads ({VERSION}); upgrade ctx"
            )
        if parsed and isinstance(parsed[-1][0], ExportEnd):
            raise ValidationError(f"record {number}: nothing may follow the end line")
        parsed.append((record, restore))
    _check_end(parsed)
    return parsed[1:-1]


def _check_end(parsed: list[tuple[BaseModel, Any]]) -> None:
    end = parsed[-1][0] if parsed else None
    if not isinstance(end, ExportEnd):
        raise ValidationError(
            "the batch has no end line: it was cut off (an export ends with "
            '{"type": "end", "counts": {...}})'
        )
    held = Counter(getattr(r, "type", "") for r, _ in parsed[1:-1])
    if dict(held) != end.expected():
        raise ValidationError(
            f"the end line counts {_counted(end.expected())}, the batch holds {_counted(held)}: "
            "lines are missing or extra"
        )


def _counted(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items()) if n) or "nothing"


def import_records(app: App, who: Principal, lines: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Import a batch of export lines in one transaction; returns how many lines of each type
    were created, updated or left unchanged, each skipped line with the reason, and ``notes``:
    lines written with something to know (a backend left disabled, its secret sealed elsewhere).

    Every line with a scope must name one the key may write (its home scope; any scope for an
    admin key), and the lines of an admin export's server sections need an admin key, else
    nothing is written (403). A block whose (scope, category, title) belongs to
    another block here is skipped and named; so is a line about something not here."""
    parsed = parse_records(app, lines)
    server_kinds = admin_kinds(app)
    for number, (record, _) in enumerate(parsed, 2):
        kind = getattr(record, "type", "")
        if kind in server_kinds and not who.is_admin:
            raise Forbidden(
                f"record {number} ({kind}): the server's own rows of an admin export are "
                "imported only with an admin key"
            )
        scope = getattr(record, "scope", None)
        if scope is not None and not may_import(who, validate_scope(scope)):
            raise Forbidden(
                f"this key imports only into its home scope {who.home_scope!r}, not {scope!r}"
            )
    report: dict[str, Any] = {"created": {}, "updated": {}, "unchanged": {}, "skipped": [],
                              "notes": []}  # fmt: skip
    try:
        with app.connection() as conn:
            _restore_lines(app, RestoreContext(app, conn, who), parsed, report)
    finally:
        if any(getattr(r, "type", "") in server_kinds for r, _ in parsed):
            app.reload()  # settings and types as the database now holds them, here at once
    return report


def _restore_lines(
    app: App,
    restorer: RestoreContext,
    parsed: list[tuple[BaseModel, Any]],
    report: dict[str, Any],
) -> None:
    conn, who = restorer.conn, restorer.who
    for number, (record, restore) in enumerate(parsed, 2):
        kind = getattr(record, "type", "")
        try:
            if isinstance(record, BlockRecord):
                outcome = _import_block(app, conn, who, record)
            else:
                outcome = restore(restorer, record)
        except (psycopg.errors.IntegrityError, psycopg.errors.DataError) as exc:
            # a value the tables refuse: the batch is refused whole, naming the line
            why = exc.diag.message_primary or type(exc).__name__
            raise ValidationError(f"record {number} ({kind}): {why}") from None
        outcome, _, note = outcome.partition(": ")
        ref = record.ref() if isinstance(record, TransferLine) else ""
        if outcome == "skipped":
            report["skipped"].append({"type": kind, "ref": ref, "reason": note})
            continue
        report[outcome][kind] = report[outcome].get(kind, 0) + 1
        if note:  # done, with something the importer must know (a backend left disabled)
            report["notes"].append({"type": kind, "ref": ref, "outcome": outcome, "note": note})


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
    there = {k: getattr(b, k) for k in COMPARED}
    if current is not None and outcome_of(dict(current), there) == "unchanged":
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


def import_batch(app: App, who: Principal, req: ImportRequest) -> dict[str, Any]:
    """``POST /api/import``: one batch of export lines, in one transaction."""
    return import_records(app, who, req.records)
