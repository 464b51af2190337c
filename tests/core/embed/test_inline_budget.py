"""A query never waits on the embedding backlog: inline embedding is bounded in time, holds no
connection while the model runs, and the blocks left waiting are reported and found by text."""

from __future__ import annotations

import threading
from typing import Any

from ctx.core import App, Principal, QueryRequest, StoreRequest, blocks, embed, retrieval
from ctx.core.runtime import drain, set_setting

ALPHA = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")


def _store(app: App, title: str, content: str) -> str:
    req = StoreRequest(title=title, content=content)
    return str(blocks.store_block(app, ALPHA, req)["id"])


def _ask(app: App, query: str) -> dict[str, Any]:
    return retrieval.query(app, ALPHA, QueryRequest(query=query, explain=True))


def _embed_notes(res: dict[str, Any]) -> dict[str, Any]:
    return dict(next(s["notes"] for s in res["stages"] if s["name"] == "embed"))


def _waiting(app: App) -> int:
    with app.connection() as conn:
        row = conn.execute("SELECT count(*) AS n FROM context_jobs WHERE kind = 'embed'").fetchone()
    return int(row["n"])


def _vectors(app: App) -> int:
    with app.connection() as conn:
        row = conn.execute(
            "SELECT count(*) AS n FROM context_block_embeddings e "
            "JOIN context_embedding_generations g ON g.id = e.generation WHERE g.status = 'active'"
        ).fetchone()
    return int(row["n"])


def test_with_no_inline_budget_a_query_leaves_the_backlog_and_says_so(
    app: App, loopback: Any
) -> None:
    for i in range(12):
        _store(app, f"Harbour note {i}", f"the tugboat schedule, entry {i}")
    _store(app, "Lighthouse keeper", "the lamp is checked at dusk")
    set_setting(app, "query.inline_embed_ms", 0)

    res = _ask(app, "lighthouse keeper")

    notes = _embed_notes(res)
    assert notes["embedded_inline"] == 0 and notes["not_yet_embedded"] == 13
    assert "13 blocks of these scopes are not embedded yet: found by text only" in res["warnings"]
    assert res["sources"][0]["title"] == "Lighthouse keeper"  # the text channels found it
    assert _waiting(app) == 13 and _vectors(app) == 0  # still queued for the worker

    drain(app, "embed")
    res = _ask(app, "lighthouse keeper")
    assert _embed_notes(res)["not_yet_embedded"] == 0
    assert not [w for w in res["warnings"] if "not embedded yet" in w]


def test_a_spent_budget_embeds_one_small_batch_and_leaves_the_rest(app: App, loopback: Any) -> None:
    """The first batch runs whatever the budget; a budget spent by then claims no more."""
    for i in range(20):
        _store(app, f"Backlog {i}", f"imported note {i}")

    done = embed.embed_pending(app, ["alpha"], budget_ms=1)

    assert 1 <= done < 20
    assert _vectors(app) == done and _waiting(app) == 20 - done
    assert embed.waiting_for_scopes(app, ["alpha"]) == 20 - done
    assert embed.waiting_for_scopes(app, ["beta"]) == 0


def test_a_query_with_a_backlog_answers_without_embedding_all_of_it(
    app: App, loopback: Any
) -> None:
    for i in range(40):
        _store(app, f"Bulk import {i}", f"row {i} of the spreadsheet")
    set_setting(app, "query.inline_embed_ms", 1)
    set_setting(app, "query.inline_embed_max_waiting", 100)

    res = _ask(app, "spreadsheet row")

    notes = _embed_notes(res)
    assert notes["embedded_inline"] < 40
    assert notes["not_yet_embedded"] == 40 - notes["embedded_inline"] == _waiting(app)
    assert res["sources"]  # found by text meanwhile


def test_a_backlog_larger_than_a_few_fresh_writes_is_left_to_the_worker(
    app: App, loopback: Any
) -> None:
    """Above ``query.inline_embed_max_waiting`` a query embeds nothing (it would pay the model's
    time on every call without finishing); at or below it, the fresh blocks are embedded."""
    for i in range(6):
        _store(app, f"Bulk import {i}", f"row {i} of the spreadsheet")
    set_setting(app, "query.inline_embed_max_waiting", 5)

    res = _ask(app, "spreadsheet row")

    notes = _embed_notes(res)
    assert notes["backlog_left_to_worker"] is True and "embedded_inline" not in notes
    assert notes["not_yet_embedded"] == 6 == _waiting(app)
    assert "row 0" not in loopback.sent_text()
    assert res["sources"]  # found by text meanwhile

    set_setting(app, "query.inline_embed_max_waiting", 6)
    set_setting(app, "query.inline_embed_ms", 60_000)
    notes = _embed_notes(_ask(app, "spreadsheet row"))
    assert notes["embedded_inline"] == 6 and notes["not_yet_embedded"] == 0
    assert _vectors(app) == 6


def test_no_connection_is_held_while_the_model_runs(app: App, loopback: Any) -> None:
    """The model call happens between two short transactions: while it hangs, the pool has
    every connection back, and a writer changes the block freely; the vector of the first wording
    is then not written (the change queued a newer job, which the same call embeds next)."""
    block = _store(app, "Draft", "first wording")
    loopback.reset("hang")
    worker = threading.Thread(target=embed.embed_pending, args=(app, ["alpha"], 60_000))
    worker.start()
    try:
        for _ in range(2000):  # until the embedding request reached the hanging model
            if any(r.path == "/v1/embeddings" for r in loopback.requests):
                break
            worker.join(0.01)
        assert any(r.path == "/v1/embeddings" for r in loopback.requests)
        assert app.db.pool is not None
        stats = app.db.pool.get_stats()
        assert stats["pool_size"] - stats["pool_available"] == 0  # none lent out
        _store(app, "Draft", "second wording")  # a concurrent writer is not blocked
    finally:
        loopback.release.set()
        worker.join()
    drain(app, "embed")
    with app.connection() as conn:
        rows = conn.execute(
            "SELECT e.content_hash = b.content_hash AS current FROM context_block_embeddings e "
            "JOIN context_blocks b ON b.id = e.block_id WHERE e.block_id = %s",
            (block,),
        ).fetchall()
    assert rows == [{"current": True}]  # only the second wording's vector
    assert embed.waiting_for_scopes(app, ["alpha"]) == 0


def test_a_query_never_waits_for_a_workers_turn_at_the_model(app: App, loopback: Any) -> None:
    """A worker's batch holds the model (``batch_lock``: one batch at a time per process); a
    query's inline embedding goes ahead of it, and the worker's batch waits for its turn."""
    _store(app, "Tide table", "high water at noon")
    app.embedders.batch_lock.acquire()  # a worker loop's batch is in the model
    try:
        asking = threading.Thread(target=embed.embed_pending, args=(app, ["alpha"], 60_000))
        asking.start()
        asking.join(60)  # bounded: were the query to wait for the lock, it would never return
        assert not asking.is_alive() and _vectors(app) == 1 and _waiting(app) == 0

        _store(app, "Ferry times", "the last ferry leaves at ten")
        loopback.requests.clear()
        working = threading.Thread(target=drain, args=(app, "embed"))
        working.start()
        for _ in range(2000):  # until the worker has claimed its batch
            with app.connection() as conn:
                row = conn.execute(
                    "SELECT count(*) AS n FROM context_jobs WHERE kind = 'embed' "
                    "AND status = 'running'"
                ).fetchone()
            if row and row["n"]:
                break
            working.join(0.01)
        working.join(1)
        assert working.is_alive()  # its batch waits for the model
        assert not [r for r in loopback.requests if r.path == "/v1/embeddings"]
    finally:
        app.embedders.batch_lock.release()
    working.join(60)
    assert not working.is_alive() and _vectors(app) == 2 and _waiting(app) == 0
