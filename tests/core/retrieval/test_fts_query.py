"""ctx_fts_query: OR-ed lexemes; common words left out when the caller's scopes are large, counted
over those scopes only (no side channel into scopes the caller cannot read)."""

from __future__ import annotations

import threading
from importlib import resources
from typing import Any

import psycopg
from psycopg.rows import dict_row

from ctx.core import (
    App,
    Principal,
    QueryRequest,
    StoreRequest,
    delete_block,
    query,
    set_archived,
    store_block,
)
from ctx.core.retrieval import term_stats
from ctx.core.runtime import drain, set_setting

TEAM = Principal(key_id="00000000-0000-0000-0000-0000000000c1", name="t", home_scope="team")


def _fts(app: App, text: str, scopes: list[str], cutoff: float, min_blocks: float) -> set[str]:
    with app.connection() as conn:
        row = conn.execute(
            "SELECT ctx_fts_query(p_config => 'english', p_text => %s::text, "
            "p_scopes => %s::text[], p_common_cutoff => %s::real, p_min_blocks => %s::real)::text "
            "AS q",
            (text, scopes, cutoff, min_blocks),
        ).fetchone()
    assert row is not None
    return {part.strip().strip("'") for part in row["q"].split("|") if part.strip()}


def _bulk(app: App, scope: str, n: int, content: str) -> None:
    """n blocks at SQL speed (no embedding needed for these tests)."""
    with app.connection() as conn:
        conn.execute(
            "INSERT INTO context_blocks (scope, category, title, content, block_type, "
            "content_hash) SELECT %s, 'bulk', 'Row ' || g, %s, 'knowledge', md5(g::text) "
            "FROM generate_series(1, %s) g",
            (scope, content, n),
        )
        term_stats.refresh_scope(conn, scope)
        conn.execute("ANALYZE context_blocks")  # what the old, table-wide cutoff read


def test_lexemes_are_ored_and_common_ones_dropped_in_large_scopes(app: App) -> None:
    for i in range(40):
        extra = " kangaroo" if i == 0 else ""
        req = StoreRequest(title=f"Note {i}", content=f"The server restarted again{extra}.")
        store_block(app, TEAM, req)
    assert drain(app, "scope_terms") >= 1  # the writes queued a recount of the scope

    # Small scope (below min_blocks): every word stays.
    assert _fts(app, "server kangaroo", ["team"], 0.05, 1e9) == {"server", "kangaroo"}
    # Large enough: "server" is in every block, so only the rare word is searched.
    assert _fts(app, "server kangaroo", ["team"], 0.05, 0) == {"kangaroo"}
    # Only common words: the rarest one is kept rather than an empty query.
    assert len(_fts(app, "server restarted", ["team"], 0.05, 0)) == 1
    # Cutoff 1 keeps every word whatever the size.
    assert _fts(app, "server kangaroo", ["team"], 1.0, 0) == {"server", "kangaroo"}
    # Stopwords only: an empty query, no error.
    assert _fts(app, "the and of", ["team"], 0.05, 0) == set()
    # Scopes without counts (never written, or not readable) cut nothing.
    assert _fts(app, "server kangaroo", ["elsewhere"], 0.05, 0) == {"server", "kangaroo"}


def test_other_scopes_never_shape_a_query(app: App, keys: Any) -> None:
    """The side channel the fuzzing review found: 6,000 blocks with a word in scope a made
    scope b's own block drop to low confidence. Now b's answer is the same with or without a."""
    set_setting(app, "query.weight_dense", 0.0)
    set_setting(app, "query.fts_cutoff_min_blocks", 1000)
    b = Principal(key_id="00000000-0000-0000-0000-0000000000b2", name="b", home_scope="b")
    store_block(app, b, StoreRequest(title="Zebra crossing", content="The zebra crossing is new."))
    _bulk(app, "b", 1200, "unrelated filler about parking")
    drain(app, "scope_terms")
    request = QueryRequest(query="zebra crossing", explain=True)
    before = query(app, b, request)

    _bulk(app, "a", 6000, "a zebra a zebra crossing everywhere")
    after = query(app, b, request)
    keep = ("confidence", "sources")
    assert {k: before[k] for k in keep} == {k: after[k] for k in keep}
    assert before["confidence"] == "confident"
    # Whether a word is common elsewhere is not visible either: the tsquery is the same.
    assert _fts(app, "zebra crossing", ["b"], 0.05, 1000) == {"zebra", "cross"}
    # A reader of scope a alone does see "zebra" and "crossing" as common there.
    assert _fts(app, "zebra crossing", ["a"], 0.05, 1000) != {"zebra", "cross"}


def _lexeme_blocks(app: App, scope: str, lexeme: str) -> int | None:
    with app.connection() as conn:
        row = conn.execute(
            "SELECT blocks FROM context_scope_terms WHERE scope = %s AND config = 'english' "
            "AND lexeme = %s",
            (scope, lexeme),
        ).fetchone()
    return None if row is None else int(row["blocks"])


def test_counts_follow_deletes_archiving_and_revival(app: App) -> None:
    """Every change goes through the public calls; their hooks queue the recounts."""
    ids = [
        str(store_block(app, TEAM, StoreRequest(title=f"Log {i}", content="server logs"))["id"])
        for i in range(20)
    ]
    drain(app, "scope_terms")
    assert _lexeme_blocks(app, "team", "server") == 20
    for ident in ids[:2]:
        delete_block(app, TEAM, ident)
    for ident in ids[2:5]:
        set_archived(app, TEAM, ident, True)
    drain(app, "scope_terms")
    assert _lexeme_blocks(app, "team", "server") == 15
    set_archived(app, TEAM, ids[2], False)
    # Storing an archived block's key again, unchanged, brings it back: that counts too.
    store_block(app, TEAM, StoreRequest(title="Log 3", content="server logs"))
    drain(app, "scope_terms")
    assert _lexeme_blocks(app, "team", "server") == 17


def test_large_scope_counts_skip_archived_blocks(app: App) -> None:
    _bulk(app, "team", 300, "server logs")
    with app.connection() as conn:
        conn.execute("UPDATE context_blocks SET is_archived = true WHERE title LIKE 'Row 1%%'")
        assert term_stats.needs_refresh(conn, "team")
        live = term_stats.refresh_scope(conn, "team")
    assert live == 300 - 111 and _lexeme_blocks(app, "team", "server") == live


def test_two_recounts_of_one_scope_take_turns(app: App, database_url: str) -> None:
    """The second waits for the first instead of colliding with the rows it has not committed."""
    _bulk(app, "team", 30, "server logs")
    errors: list[BaseException] = []

    def second() -> None:
        try:
            with psycopg.connect(database_url, row_factory=dict_row) as conn:
                term_stats.refresh_scope(conn, "team")
        except BaseException as exc:  # reported below, in the test's thread
            errors.append(exc)

    with psycopg.connect(database_url, row_factory=dict_row) as first:
        term_stats.refresh_scope(first, "team")  # its rows are not committed yet
        other = threading.Thread(target=second)
        other.start()
        other.join(timeout=0.5)
        assert other.is_alive()  # waiting its turn
        first.commit()
    other.join(timeout=30)
    assert errors == [] and _lexeme_blocks(app, "team", "server") == 30


def test_the_upgrade_counts_every_existing_scope_once(app: App) -> None:
    """0006 queues a recount per scope: a database upgraded with blocks gets its counts without
    waiting for a write."""
    _bulk(app, "team", 5, "server logs")
    _bulk(app, "quiet", 5, "server logs")
    sql = (resources.files("ctx.migrations") / "0006_scope_terms_backfill.sql").read_text()
    with app.connection() as conn:
        conn.execute("DELETE FROM context_scope_terms")
        conn.execute("DELETE FROM context_scope_stats")
        conn.execute("DELETE FROM context_jobs")
        conn.execute(sql)
        conn.execute(sql)  # once per scope, however often it runs
        queued = conn.execute(
            "SELECT payload->>'scope' AS scope FROM context_jobs WHERE kind = 'scope_terms' "
            "ORDER BY 1"
        ).fetchall()
    assert [r["scope"] for r in queued] == ["quiet", "team"]
    drain(app, "scope_terms")
    assert _lexeme_blocks(app, "quiet", "server") == 5
