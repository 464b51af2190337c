"""The sync's rows: links, bases (the last synced version of each record), conflicts and webhook
deliveries. Plain SQL on the plugin's own tables; no forge names."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from ctx.core import App, Conflict, NotFound
from ctx.plugins.issues.sync.merge import Snapshot, digest

LINK_COLUMNS = (
    "id, scope, forge, repo, base_url, token_secret, webhook_secret, interval_s, issues_since, "
    "issues_etag, comments_since, comments_etag, next_pull_at, paused_until, last_sync_at, "
    "last_report, last_error, created_at"
)


def create_link(app: App, values: dict[str, Any]) -> dict[str, Any]:
    with app.connection() as conn:
        try:
            row = conn.execute(
                "INSERT INTO issue_forge_links (scope, forge, repo, base_url, token_secret, "
                "webhook_secret, interval_s) VALUES (%(scope)s, %(forge)s, %(repo)s, "
                f"%(base_url)s, %(token_secret)s, %(webhook_secret)s, %(interval_s)s) "
                f"RETURNING {LINK_COLUMNS}",
                values,
            ).fetchone()
        except psycopg.errors.UniqueViolation:
            raise Conflict(
                f"scope {values['scope']!r} or {values['forge']} repository {values['repo']!r} "
                "is already linked",
                field="scope",
            ) from None
    assert row is not None
    return dict(row)


def links(app: App, scopes: list[str] | None = None) -> list[dict[str, Any]]:
    with app.connection() as conn:
        rows = conn.execute(
            f"SELECT {LINK_COLUMNS} FROM issue_forge_links "
            "WHERE %(scopes)s::text[] IS NULL OR scope = ANY(%(scopes)s) ORDER BY scope",
            {"scopes": scopes},
        ).fetchall()
    return [dict(r) for r in rows]


def link(app: App, link_id: int) -> dict[str, Any]:
    with app.connection() as conn:
        row = conn.execute(
            f"SELECT {LINK_COLUMNS} FROM issue_forge_links WHERE id = %s", (link_id,)
        ).fetchone()
    if row is None:
        raise NotFound(f"no forge link {link_id}")
    return dict(row)


def link_of_scope(app: App, scope: str) -> dict[str, Any]:
    with app.connection() as conn:
        row = conn.execute(
            f"SELECT {LINK_COLUMNS} FROM issue_forge_links WHERE scope = %s", (scope,)
        ).fetchone()
    if row is None:
        raise NotFound(f"scope {scope!r} is not linked to a forge (ctx issues link ...)")
    return dict(row)


def links_of_repo(app: App, forge: str, repo: str) -> list[dict[str, Any]]:
    with app.connection() as conn:
        rows = conn.execute(
            f"SELECT {LINK_COLUMNS} FROM issue_forge_links "
            "WHERE forge = %s AND lower(repo) = lower(%s)",
            (forge, repo),
        ).fetchall()
    return [dict(r) for r in rows]


def delete_link(app: App, link_id: int) -> None:
    with app.connection() as conn:
        if conn.execute("DELETE FROM issue_forge_links WHERE id = %s", (link_id,)).rowcount == 0:
            raise NotFound(f"no forge link {link_id}")


def save_cursor(
    app: App, link_id: int, listing: str, since: datetime | None, etag: str | None
) -> None:
    """Where a listing resumes (``issues`` or ``comments``): saved after every page."""
    assert listing in ("issues", "comments")
    with app.connection() as conn:
        conn.execute(
            f"UPDATE issue_forge_links SET {listing}_since = %s, {listing}_etag = %s WHERE id = %s",
            (since, etag, link_id),
        )


def finish_run(
    app: App,
    link_id: int,
    report: dict[str, Any],
    error: str | None,
    paused_until: datetime | None,
    full: bool = True,
) -> None:
    """Record a run's outcome; only a full run moves the next periodic pull (a webhook's
    targeted runs must not keep postponing the pushes a full run makes)."""
    with app.connection() as conn:
        conn.execute(
            "UPDATE issue_forge_links SET last_sync_at = now(), last_report = %s, "
            "last_error = %s, paused_until = %s, "
            "next_pull_at = CASE WHEN %s THEN greatest(coalesce(%s, now()), "
            "now() + make_interval(secs => interval_s)) "
            "ELSE greatest(next_pull_at, coalesce(%s, next_pull_at)) END "
            "WHERE id = %s",
            (Jsonb(report), error, paused_until, full, paused_until, paused_until, link_id),
        )


def due_links(conn: psycopg.Connection[Any]) -> list[int]:
    rows = conn.execute(
        "SELECT id FROM issue_forge_links WHERE next_pull_at <= now() "
        "AND (paused_until IS NULL OR paused_until <= now()) ORDER BY next_pull_at"
    ).fetchall()
    return [int(r["id"]) for r in rows]


# -- bases -----------------------------------------------------------------------------------


def base_by_forge_id(app: App, link_id: int, kind: str, forge_id: int) -> dict[str, Any] | None:
    with app.connection() as conn:
        row = conn.execute(
            "SELECT * FROM issue_sync_state WHERE link_id = %s AND kind = %s AND forge_id = %s",
            (link_id, kind, forge_id),
        ).fetchone()
    return None if row is None else dict(row)


def base_by_number(app: App, link_id: int, number: int) -> dict[str, Any] | None:
    with app.connection() as conn:
        row = conn.execute(
            "SELECT * FROM issue_sync_state WHERE link_id = %s AND kind = 'issue' "
            "AND forge_number = %s AND gone IS NULL",
            (link_id, number),
        ).fetchone()
    return None if row is None else dict(row)


def issue_by_forge_id(app: App, scope: str, repo: str, forge_id: int) -> str | None:
    """A local issue that was synced with this remote issue under an earlier link."""
    with app.connection() as conn:
        row = conn.execute(
            "SELECT id::text AS id FROM context_blocks WHERE scope = %s AND block_type = 'issue' "
            "AND lower(metadata->>'forge_repo') = lower(%s) AND metadata->>'forge_id' = %s "
            "AND NOT EXISTS (SELECT 1 FROM issue_sync_state s WHERE s.block_id = id) LIMIT 1",
            (scope, repo, str(forge_id)),
        ).fetchone()
    return None if row is None else str(row["id"])


def comment_by_forge_id(app: App, scope: str, forge_id: int) -> str | None:
    with app.connection() as conn:
        row = conn.execute(
            "SELECT id::text AS id FROM context_blocks WHERE scope = %s "
            "AND block_type = 'issue-comment' AND metadata->>'forge_id' = %s "
            "AND NOT EXISTS (SELECT 1 FROM issue_sync_state s WHERE s.block_id = id) LIMIT 1",
            (scope, str(forge_id)),
        ).fetchone()
    return None if row is None else str(row["id"])


def base_of_block(app: App, block_id: str) -> dict[str, Any] | None:
    with app.connection() as conn:
        row = conn.execute(
            "SELECT * FROM issue_sync_state WHERE block_id = %s", (block_id,)
        ).fetchone()
    return None if row is None else dict(row)


def save_base_in(
    conn: psycopg.Connection[Any],
    link_id: int,
    block_id: str,
    kind: str,
    forge_id: int,
    forge_number: int,
    snapshot: Snapshot,
) -> None:
    conn.execute(
        """
        INSERT INTO issue_sync_state
            (block_id, link_id, kind, forge_id, forge_number, snapshot, hash)
        VALUES (%s, %s, %s, %s, %s, %s, %s)
        ON CONFLICT (block_id) DO UPDATE SET snapshot = EXCLUDED.snapshot, hash = EXCLUDED.hash,
            forge_id = EXCLUDED.forge_id, forge_number = EXCLUDED.forge_number,
            synced_at = now(), gone = NULL
        """,
        (block_id, link_id, kind, forge_id, forge_number, Jsonb(snapshot), digest(snapshot)),
    )


def save_base(
    app: App, link_id: int, block_id: str, kind: str, forge_id: int, number: int, snapshot: Snapshot
) -> None:
    with app.connection() as conn:
        save_base_in(conn, link_id, block_id, kind, forge_id, number, snapshot)


def mark_gone(app: App, block_id: str, why: str) -> None:
    with app.connection() as conn:
        conn.execute(
            "UPDATE issue_sync_state SET gone = %s, synced_at = now() WHERE block_id = %s",
            (why, block_id),
        )


def unsynced_issues(app: App, link_id: int, scope: str, repo: str) -> list[dict[str, Any]]:
    """Issues of the scope the remote has not seen yet (no base, and no forge id of this
    repository from an earlier link): to create there."""
    with app.connection() as conn:
        rows = conn.execute(
            """
            SELECT b.id::text AS id FROM context_blocks b
             WHERE b.scope = %s AND b.block_type = 'issue' AND NOT b.is_archived
               AND NOT EXISTS (SELECT 1 FROM issue_sync_state s WHERE s.block_id = b.id)
               AND NOT (b.metadata ? 'forge_id' AND lower(b.metadata->>'forge_repo') = lower(%s))
             ORDER BY b.created_at, b.id
            """,
            (scope, repo),
        ).fetchall()
    return [dict(r) for r in rows]


def locally_changed(app: App, link_id: int) -> list[dict[str, Any]]:
    """Synced records written locally since their last sync (a cheap filter: the caller
    compares content hashes), without an open conflict and still on the remote."""
    with app.connection() as conn:
        rows = conn.execute(
            """
            SELECT s.*, b.id::text AS id FROM issue_sync_state s
              JOIN context_blocks b ON b.id = s.block_id
             WHERE s.link_id = %s AND s.gone IS NULL AND b.updated_at > s.synced_at
               AND NOT EXISTS (SELECT 1 FROM issue_sync_conflicts c
                                WHERE c.block_id = s.block_id AND c.resolved_at IS NULL)
             ORDER BY s.kind DESC, b.updated_at
            """,
            (link_id,),
        ).fetchall()
    return [dict(r) for r in rows]


def unsynced_comments(app: App, link_id: int, scope: str) -> list[dict[str, Any]]:
    """Local comments on synced issues that the remote has not seen yet."""
    with app.connection() as conn:
        rows = conn.execute(
            """
            SELECT c.id::text AS id, s.forge_number FROM context_blocks c
              JOIN issue_sync_state s ON s.block_id = (c.metadata->>'issue_id')::uuid
             WHERE c.scope = %s AND c.block_type = 'issue-comment' AND NOT c.is_archived
               AND s.link_id = %s AND s.kind = 'issue' AND s.gone IS NULL
               AND NOT EXISTS (SELECT 1 FROM issue_sync_state x WHERE x.block_id = c.id)
               AND NOT c.metadata ? 'forge_id'
             ORDER BY c.created_at, c.id
            """,
            (scope, link_id),
        ).fetchall()
    return [dict(r) for r in rows]


# -- conflicts -------------------------------------------------------------------------------


def open_conflict(app: App, block_id: str) -> dict[str, Any] | None:
    with app.connection() as conn:
        row = conn.execute(
            "SELECT * FROM issue_sync_conflicts WHERE block_id = %s AND resolved_at IS NULL",
            (block_id,),
        ).fetchone()
    return None if row is None else dict(row)


def record_conflict_in(conn: psycopg.Connection[Any], values: dict[str, Any]) -> bool:
    """Open a conflict unless one is open for the record already; True when opened."""
    row = conn.execute(
        """
        INSERT INTO issue_sync_conflicts (link_id, block_id, kind, scope, number, fields, base,
                                          local, remote)
        VALUES (%(link_id)s, %(block_id)s, %(kind)s, %(scope)s, %(number)s, %(fields)s,
                %(base)s, %(local)s, %(remote)s)
        ON CONFLICT (block_id) WHERE resolved_at IS NULL DO NOTHING
        RETURNING id
        """,
        {
            **values,
            "base": None if values["base"] is None else Jsonb(values["base"]),
            "local": Jsonb(values["local"]),
            "remote": Jsonb(values["remote"]),
        },
    ).fetchone()
    return row is not None


def conflicts(app: App, scopes: list[str], include_resolved: bool = False) -> list[dict[str, Any]]:
    with app.connection() as conn:
        rows = conn.execute(
            """
            SELECT id, block_id::text AS block_id, kind, scope, number, fields, base, local,
                   remote, created_at, resolved_at, resolution, resolved_by
              FROM issue_sync_conflicts
             WHERE scope = ANY(%s) AND (%s OR resolved_at IS NULL)
             ORDER BY created_at DESC, id DESC LIMIT 200
            """,
            (scopes, include_resolved),
        ).fetchall()
    return [dict(r) for r in rows]


def conflict(app: App, conflict_id: int) -> dict[str, Any]:
    with app.connection() as conn:
        row = conn.execute(
            "SELECT id, link_id, block_id::text AS block_id, kind, scope, number, fields, base, "
            "local, remote, created_at, resolved_at, resolution, resolved_by "
            "FROM issue_sync_conflicts WHERE id = %s",
            (conflict_id,),
        ).fetchone()
    if row is None:
        raise NotFound(f"no sync conflict {conflict_id}")
    return dict(row)


def resolve_in(
    conn: psycopg.Connection[Any], conflict_id: int, take: str, by: str, new_base: Snapshot
) -> bool:
    """Close the conflict and make ``new_base`` the base, so the next sync carries the chosen
    side over; False when someone resolved it first."""
    row = conn.execute(
        "UPDATE issue_sync_conflicts SET resolved_at = now(), resolution = %s, resolved_by = %s "
        "WHERE id = %s AND resolved_at IS NULL RETURNING block_id",
        (take, by, conflict_id),
    ).fetchone()
    if row is None:
        return False
    conn.execute(
        "UPDATE issue_sync_state SET snapshot = %s, hash = %s, synced_at = now() "
        "WHERE block_id = %s",
        (Jsonb(new_base), digest(new_base), row["block_id"]),
    )
    return True


# -- webhook deliveries ----------------------------------------------------------------------


def take_delivery(app: App, forge: str, delivery_id: str, body_sha256: str) -> bool:
    """True the first time a delivery (by id, or by an identical body) is seen."""
    with app.connection() as conn:
        conn.execute(
            "DELETE FROM issue_webhook_deliveries WHERE received_at < now() - interval '30 days'"
        )
        row = conn.execute(
            "INSERT INTO issue_webhook_deliveries (forge, delivery_id, body_sha256) "
            "VALUES (%s, %s, %s) ON CONFLICT DO NOTHING RETURNING delivery_id",
            (forge, delivery_id, body_sha256),
        ).fetchone()
    return row is not None


# -- one run at a time ------------------------------------------------------------------------

LEASE = "15 minutes"  # a run holding it longer is taken to be dead


def take_run(app: App, link_id: int, token: str) -> bool:
    """Start a run of the link unless another live one holds it."""
    with app.connection() as conn:
        row = conn.execute(
            "UPDATE issue_forge_links SET running_since = now(), running_token = %s "
            f"WHERE id = %s AND (running_since IS NULL OR running_since < now() - interval '{LEASE}') "
            "RETURNING id",
            (token, link_id),
        ).fetchone()
    return row is not None


def renew_run(app: App, link_id: int, token: str) -> bool:
    """Extend a run's lease; False when another run has taken the link."""
    with app.connection() as conn:
        row = conn.execute(
            "UPDATE issue_forge_links SET running_since = now() "
            "WHERE id = %s AND running_token = %s RETURNING id",
            (link_id, token),
        ).fetchone()
    return row is not None


def end_run(app: App, link_id: int, token: str) -> None:
    with app.connection() as conn:
        conn.execute(
            "UPDATE issue_forge_links SET running_since = NULL, running_token = NULL "
            "WHERE id = %s AND running_token = %s",
            (link_id, token),
        )


# -- creates in flight ------------------------------------------------------------------------


def begin_create(
    app: App, link_id: int, block_id: str, kind: str, snapshot: Snapshot, number: int | None
) -> None:
    """Note (and commit) a create about to be sent to the remote."""
    with app.connection() as conn:
        conn.execute(
            "INSERT INTO issue_sync_pending (block_id, link_id, kind, forge_number, snapshot) "
            "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (block_id) DO UPDATE SET "
            "snapshot = EXCLUDED.snapshot, started_at = now()",
            (block_id, link_id, kind, number, Jsonb(snapshot)),
        )


def end_create_in(conn: psycopg.Connection[Any], block_id: str) -> None:
    conn.execute("DELETE FROM issue_sync_pending WHERE block_id = %s", (block_id,))


def pending_match(
    app: App,
    link_id: int,
    kind: str,
    snapshot: Snapshot,
    number: int | None,
    created_by: datetime | None,
) -> str | None:
    """The local record whose create was sent but not recorded, if ``snapshot`` is it: same
    content, and noted before the remote record was made (``created_by``: its creation time
    plus some clock slack). Notes older than a day are dropped."""
    keys = ("title", "body") if kind == "issue" else ("body",)
    with app.connection() as conn:
        conn.execute("DELETE FROM issue_sync_pending WHERE started_at < now() - interval '1 day'")
        rows = conn.execute(
            "SELECT block_id::text AS block_id, snapshot FROM issue_sync_pending "
            "WHERE link_id = %s AND kind = %s AND (%s::int IS NULL OR forge_number = %s) "
            "AND (%s::timestamptz IS NULL OR started_at <= %s) ORDER BY started_at",
            (link_id, kind, number, number, created_by, created_by),
        ).fetchall()
    for row in rows:
        if all(row["snapshot"].get(k) == snapshot.get(k) for k in keys):
            return str(row["block_id"])
    return None
