"""Per-scope word counts for the full-text channels' common-word cutoff.

``refresh_scope(app, scope)`` recounts one scope: its live (unarchived) blocks, and for each
full-text configuration every lexeme found in at least ``KEEP_SHARE`` of them (rarer words can
never be cut, so they need no row). A ``scope_terms`` job per scope, queued by writes and deletes,
refreshes the counts once the scope has changed by ``REFRESH_CHANGE`` of its size (small scopes:
every change), so the cost stays proportional to how much a scope moves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ctx.core.runtime import Job, JobHandler, enqueue

if TYPE_CHECKING:
    import psycopg

    from ctx.core.app import App
    from ctx.core.blocks import BlockWrite

KIND = "scope_terms"
KEEP_SHARE = 0.005  # lexemes in fewer blocks than this share are never common
# ... and never in fewer than FLOOR_MAX blocks: ctx_fts_plan counts an uncounted word as
# floor - 1 blocks when it bounds a full-text channel, so the floor must stay well under
# query.fts_budget whatever the scope's size
FLOOR_MAX = 50
REFRESH_CHANGE = 0.10
SMALL_SCOPE = 200  # below this, every change refreshes (a recount is cheap)
LOCK_CLASS = 0x63747374  # "ctst": advisory locks of scope recounts
CONFIGS = (("english", "ts_en"), ("german", "ts_de"))


def _take_turn(conn: psycopg.Connection[Any], scope: str) -> None:
    conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (LOCK_CLASS, scope))


def _counts(conn: psycopg.Connection[Any], scope: str) -> tuple[int | None, int]:
    """The scope's counted blocks (None: never counted) and its live blocks now."""
    row = conn.execute(
        "SELECT (SELECT blocks FROM context_scope_stats WHERE scope = %(s)s) AS counted, "
        "(SELECT count(*) FROM context_blocks WHERE scope = %(s)s AND NOT is_archived) AS live",
        {"s": scope},
    ).fetchone()
    assert row is not None
    return row["counted"], int(row["live"])


def _due(counted: int | None, live: int) -> bool:
    if counted is None or live < SMALL_SCOPE:
        return True
    return abs(live - counted) >= max(1, counted * REFRESH_CHANGE)


def _recount(conn: psycopg.Connection[Any], scope: str, blocks: int) -> None:
    conn.execute("DELETE FROM context_scope_terms WHERE scope = %s", (scope,))
    floor = max(2, min(int(blocks * KEEP_SHARE), FLOOR_MAX))
    for config, column in CONFIGS:
        # ts_stat takes the statement as text: the scope is passed as a quoted literal.
        conn.execute(
            "INSERT INTO context_scope_terms (scope, config, lexeme, blocks) "
            "SELECT %(scope)s, %(config)s, word, ndoc FROM ts_stat(format("
            f"'SELECT {column} FROM context_blocks WHERE scope = %%L AND NOT is_archived', "
            "%(scope)s::text)) WHERE ndoc >= %(floor)s",
            {"scope": scope, "config": config, "floor": floor},
        )
    conn.execute(
        "INSERT INTO context_scope_stats (scope, blocks, term_floor) VALUES (%s, %s, %s) "
        "ON CONFLICT (scope) DO UPDATE SET blocks = EXCLUDED.blocks, "
        "term_floor = EXCLUDED.term_floor, refreshed_at = now()",
        (scope, blocks, floor),
    )


def refresh_scope(
    conn: psycopg.Connection[Any], scope: str, *, only_if_due: bool = False
) -> int | None:
    """Recount ``scope`` (with ``only_if_due``: only if it changed enough since its last count);
    return its number of live blocks, or None when it was not due. Two recounts of one scope take
    turns (a transaction-level advisory lock), so neither sees half of the other's rows, and the
    decision waits for a recount running now."""
    _take_turn(conn, scope)
    counted, live = _counts(conn, scope)
    if only_if_due and not _due(counted, live):
        return None
    _recount(conn, scope, live)
    return live


def needs_refresh(conn: psycopg.Connection[Any], scope: str) -> bool:
    return _due(*_counts(conn, scope))


def handle_scope_jobs(app: App, jobs: list[Job]) -> None:
    for scope in dict.fromkeys(str(j.payload["scope"]) for j in jobs):
        with app.connection() as conn:
            refresh_scope(conn, scope, only_if_due=True)


SCOPE_TERM_JOBS = JobHandler(
    KIND, handle_scope_jobs, batch_size=16, description="recount a changed scope's common words"
)


def queue_refresh(write: BlockWrite) -> None:
    """From the write hook: this scope's counts may be due (deduplicated per scope)."""
    write.queue_job(KIND, key=f"scope:{write.scope}", scope=write.scope)


def queue_refresh_after_delete(app: App, scope: str) -> None:
    with app.connection() as conn:
        enqueue(conn, KIND, {"scope": scope}, dedupe_key=f"scope:{scope}")
