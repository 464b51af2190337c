"""Blob rows and their chunks: one transaction writes or replaces a blob whole, reads see either
the old or the new bytes, never a mix."""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from psycopg.types.json import Jsonb

from ctx.core.access import Principal
from ctx.core.blobs.schemas import BlobFetch, BlobManage, BlobSearch, BlobStore
from ctx.core.blobs.sniff import sniff
from ctx.core.blocks import audit
from ctx.core.errors import Ambiguous, Forbidden, NotFound, RateLimited, TooLarge, ValidationError

if TYPE_CHECKING:
    from ctx.core.app import App

CHUNK_BYTES = 1 << 20
ID_RE = re.compile(r"^[0-9a-f-]{4,36}$")
COLUMNS = (
    "id::text AS id, scope, category, title, filename, mime_type, tags, metadata, size, sha256, "
    "created_at, updated_at"
)


def _decode(data: str) -> bytes:
    try:
        return base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise ValidationError("data must be base64", field="data") from None


def _check_rate(conn: Any, app: App, who: Principal) -> None:
    """``blob.writes_per_minute`` per key, counted from the audit log, so every server and
    worker sees the same count."""
    limit = int(app.settings["blob.writes_per_minute"])
    if limit <= 0 or who.key_id is None:
        return
    row = conn.execute(
        "SELECT count(*) AS n, min(at) AS first FROM context_write_log "
        "WHERE api_key_id = %s AND action = 'blob.stored' AND at > now() - interval '1 minute'",
        (who.key_id,),
    ).fetchone()
    if row["n"] >= limit:
        wait = conn.execute(
            "SELECT ceil(extract(epoch FROM %s::timestamptz + interval '1 minute' - now()))::int "
            "AS s",
            (row["first"],),
        ).fetchone()["s"]
        raise RateLimited(
            f"this key stored {limit} blobs in the last minute (blob.writes_per_minute); "
            f"try again in {max(1, wait)} s",
            retry_after=wait,
        )


def write_chunks(conn: Any, blob_id: str, data: bytes) -> None:
    """Replace the blob's bytes, in ``CHUNK_BYTES`` chunks, in the caller's transaction."""
    conn.execute("DELETE FROM context_blob_chunks WHERE blob_id = %s", (blob_id,))
    with conn.cursor() as cur:
        cur.executemany(
            "INSERT INTO context_blob_chunks (blob_id, n, data) VALUES (%s, %s, %s)",
            [
                (blob_id, n, data[start : start + CHUNK_BYTES])
                for n, start in enumerate(range(0, max(len(data), 1), CHUNK_BYTES))
            ],
        )


def checked_bytes(app: App, data: str, sha256: str | None) -> tuple[bytes, str]:
    """The decoded bytes and their SHA-256: under ``blob.max_bytes`` (413) and matching
    ``sha256`` when one is given (422)."""
    raw = _decode(data)
    limit = int(app.settings["blob.max_bytes"])
    if len(raw) > limit:
        raise TooLarge(f"the file has {len(raw)} bytes; blob.max_bytes allows {limit}")
    digest = hashlib.sha256(raw).hexdigest()
    if sha256 is not None and sha256 != digest:
        raise ValidationError(
            f"sha256 does not match the data (the data hashes to {digest}): it was damaged on "
            "the way",
            field="sha256",
        )
    return raw, digest


def store_blob(app: App, who: Principal, req: BlobStore) -> dict[str, Any]:
    """Upsert a blob by (scope, category, title) in the key's home scope."""
    scope = who.home_scope
    who.require_write(scope)
    data, digest = checked_bytes(app, req.data, req.sha256)
    mime = req.mime_type or sniff(data)
    with app.connection() as conn:
        _check_rate(conn, app, who)
        row = conn.execute(
            """
            INSERT INTO context_blobs (scope, category, title, filename, mime_type, tags,
                                       metadata, size, sha256, chunk_bytes)
            VALUES (%(scope)s, %(category)s, %(title)s, %(filename)s, %(mime)s, %(tags)s,
                    %(meta)s, %(size)s, %(sha)s, %(chunk)s)
            ON CONFLICT (scope, category, title) DO UPDATE SET
                filename = EXCLUDED.filename, mime_type = EXCLUDED.mime_type,
                tags = EXCLUDED.tags, metadata = EXCLUDED.metadata, size = EXCLUDED.size,
                sha256 = EXCLUDED.sha256, chunk_bytes = EXCLUDED.chunk_bytes, updated_at = now()
            RETURNING id::text AS id, (xmax = 0) AS created
            """,
            {"scope": scope, "category": req.category, "title": req.title,
             "filename": req.filename, "mime": mime, "tags": list(req.tags),
             "meta": Jsonb(req.meta), "size": len(data), "sha": digest, "chunk": CHUNK_BYTES},
        ).fetchone()  # fmt: skip
        assert row is not None
        blob_id = row["id"]
        write_chunks(conn, blob_id, data)
        action = "created" if row["created"] else "updated"
        detail = {"blob_id": blob_id, "title": req.title, "size": len(data), "action": action}
        audit(conn, who, "blob.stored", None, scope, detail)
    return {"id": blob_id, "action": action, "scope": scope, "category": req.category,
            "title": req.title, "size": len(data), "sha256": digest}  # fmt: skip


def blob_row(app: App, who: Principal, req: BlobFetch) -> dict[str, Any]:
    """A blob's row (no bytes) by id, or by category and title in the key's read scopes."""
    with app.connection() as conn:
        if req.id:
            ident = req.id.strip().lower()
            if not ID_RE.match(ident):
                raise ValidationError("id must be a blob id or a prefix of 4+ hex", field="id")
            rows = conn.execute(
                f"SELECT {COLUMNS} FROM context_blobs WHERE id::text LIKE %s AND scope = ANY(%s) "
                "LIMIT 2",
                (ident + "%", list(who.read_scopes)),
            ).fetchall()
            if len(rows) > 1:
                raise Ambiguous(f"id prefix {ident!r} matches several blobs; give more of it")
        elif req.category and req.title:
            rows = conn.execute(
                f"SELECT {COLUMNS} FROM context_blobs WHERE category = %s AND title = %s "
                "AND scope = ANY(%s) ORDER BY (scope = %s) DESC, updated_at DESC",
                (req.category, req.title, list(who.read_scopes), who.home_scope),
            ).fetchall()
        else:
            raise ValidationError("give id, or category and title", field="id")
    if not rows:
        raise NotFound("no such blob in your scopes")
    return dict(rows[0])


def blob_chunks(app: App, blob_id: str) -> Iterator[bytes]:
    """The bytes of a blob whose row the caller has read, chunk by chunk (one at a time in
    memory, so a large file streams)."""
    with app.connection() as conn:
        # one snapshot for every chunk: a blob replaced meanwhile is read old or new, not mixed
        conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        numbers = conn.execute(
            "SELECT n FROM context_blob_chunks WHERE blob_id = %s ORDER BY n", (blob_id,)
        ).fetchall()
        for number in numbers:
            row = conn.execute(
                "SELECT data FROM context_blob_chunks WHERE blob_id = %s AND n = %s",
                (blob_id, number["n"]),
            ).fetchone()
            if row is not None:
                yield bytes(row["data"])


def fetch_blob(app: App, who: Principal, req: BlobFetch) -> dict[str, Any]:
    """The row and (unless ``meta_only``) the bytes as base64."""
    row = blob_row(app, who, req)
    if not req.meta_only:
        data = b"".join(blob_chunks(app, row["id"]))
        row["data"] = base64.b64encode(data).decode("ascii")
    return row


def search_blobs(app: App, who: Principal, req: BlobSearch) -> list[dict[str, Any]]:
    scopes = who.scopes_for([req.scope] if req.scope else None)
    mime = req.mime_type
    with app.connection() as conn:
        rows = conn.execute(
            f"""
            SELECT {COLUMNS} FROM context_blobs
             WHERE scope = ANY(%(scopes)s)
               AND (%(category)s::text IS NULL OR category = %(category)s)
               AND tags @> %(tags)s::text[]
               AND (%(mime)s::text IS NULL OR mime_type = %(mime)s
                    OR (right(%(mime)s, 1) = '/' AND mime_type LIKE %(prefix)s))
             ORDER BY updated_at DESC, id LIMIT %(limit)s
            """,
            {"scopes": scopes, "category": req.category, "tags": req.tags, "mime": mime,
             "prefix": (mime or "").replace("%", "").replace("_", "\\_") + "%",
             "limit": req.limit},
        ).fetchall()  # fmt: skip
    return [dict(r) for r in rows]


def manage_blob(app: App, who: Principal, req: BlobManage) -> dict[str, Any]:
    if req.action == "get":
        return {"blob": blob_row(app, who, BlobFetch(id=req.id))}
    if req.action == "list":
        return {"blobs": search_blobs(app, who, BlobSearch(scope=req.scope, limit=req.limit))}
    if req.action == "stats":
        scopes = who.scopes_for([req.scope] if req.scope else None)
        with app.connection() as conn:
            rows = conn.execute(
                "SELECT scope, count(*) AS blobs, coalesce(sum(size), 0)::bigint AS bytes "
                "FROM context_blobs WHERE scope = ANY(%s) GROUP BY scope ORDER BY scope",
                (scopes,),
            ).fetchall()
        return {"stats": {"blobs": sum(r["blobs"] for r in rows),
                          "bytes": sum(r["bytes"] for r in rows),
                          "by_scope": {r["scope"]: r["blobs"] for r in rows}}}  # fmt: skip
    row = blob_row(app, who, BlobFetch(id=req.id))
    if row["scope"] != who.home_scope:
        raise Forbidden(f"this key deletes only in its home scope {who.home_scope!r}")
    with app.connection() as conn:
        conn.execute("DELETE FROM context_blobs WHERE id = %s", (row["id"],))
        detail = {"blob_id": row["id"], "title": row["title"]}
        audit(conn, who, "blob.deleted", None, row["scope"], detail)
    return {"id": row["id"], "action": "deleted"}
