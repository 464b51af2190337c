"""A governed thread's few readable rows (issue 38): when a thread can read at most
``query.dense_exact_max`` rows (its own records plus its scope's shared blocks, however many other
threads the scope holds), ctx_rrf reads those rows once and every channel ranks them, instead of
each channel searching its store-wide index and filtering. The answer must be the one the indexes
give: the same blocks, the same ranks, nothing of another thread."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from ctx.core import App
from ctx.core.embed import active_generation, vector_literal
from ctx.core.retrieval import term_stats
from ctx.core.retrieval.fusion import channel_weights, rrf_arguments, rrf_sql
from ctx.core.runtime import set_setting

RANKS = ("dense_rank", "fts_en_rank", "fts_de_rank", "trigram_rank")


def _rows(app: App, scope: str, category: str, block_type: str, texts: list[str]) -> list[str]:
    """Blocks with random unit vectors in the active generation, at SQL speed."""
    with app.connection() as conn:
        gen = active_generation(conn)
        assert gen is not None
        ids = [
            str(r["id"])
            for r in conn.execute(
                "INSERT INTO context_blocks (scope, category, title, content, block_type, "
                "content_hash) SELECT %s, %s, 'Note ' || t.n || ' ' || t.content, t.content, %s, "
                "md5(%s || t.content || t.n) FROM unnest(%s::text[]) WITH ORDINALITY "
                "AS t(content, n) RETURNING id",
                (scope, category, block_type, category, texts),
            ).fetchall()
        ]
        conn.execute(
            "INSERT INTO context_block_embeddings (block_id, generation, content_hash, "
            "embedding, context) SELECT b.id, %(g)s, b.content_hash, v.v, v.v "
            "FROM context_blocks b CROSS JOIN LATERAL (SELECT l2_normalize(ARRAY(SELECT "
            "random_normal() FROM generate_series(1, %(d)s) WHERE b.id IS NOT NULL)::vector)"
            "::halfvec AS v) v WHERE b.id = ANY(%(ids)s::uuid[])",
            {"g": gen["id"], "d": gen["dimensions"], "ids": ids},
        )
        term_stats.refresh_scope(conn, scope)
    return ids


def _fuse(app: App, query: str, **where: Any) -> dict[str, dict[str, Any]]:
    with app.connection() as conn:
        gen = active_generation(conn)
    assert gen is not None
    vector = np.random.default_rng(5).standard_normal(int(gen["dimensions"]))
    args = rrf_arguments(
        app,
        query=query,
        embedding=vector_literal(vector / np.linalg.norm(vector)),
        generation=gen,
        weights=channel_weights(app),
        result_limit=1000,
        **where,
    )
    with app.connection() as conn:
        # as in a large store, where the planner takes the indexes (a small table is read whole)
        conn.execute("SET LOCAL enable_seqscan = off")
        return {str(r["block_id"]): r for r in conn.execute(rrf_sql(), args).fetchall()}


WORDS = ["kettle", "harbour", "lantern", "orchard", "ledger", "compass", "meadow", "anchor"]


def _texts(n: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    return [" ".join(rng.choice(WORDS, size=4)) + f" entry {i}" for i in range(n)]


@pytest.fixture
def store(app: App) -> dict[str, list[str]]:
    return {
        "own": _rows(app, "team", "thread/own", "event", _texts(40, 1)),
        "other": _rows(app, "team", "thread/other", "event", _texts(400, 2)),
        "shared": _rows(app, "team", "notes", "knowledge", _texts(30, 3)),
        "elsewhere": _rows(app, "side", "notes", "knowledge", _texts(30, 4)),
    }


def test_few_rows_rank_as_the_indexes_do(app: App, store: dict[str, list[str]]) -> None:
    query = "kettle lantern harbour anchor"
    where: dict[str, Any] = {"scopes": ["team"], "private_category": "thread/own"}
    few = _fuse(app, query, **where)
    set_setting(app, "query.dense_exact_max", 0)  # every channel on its own index again
    indexed = _fuse(app, query, **where)
    assert few and set(few) == set(indexed)
    for block_id, row in few.items():
        for rank in RANKS[1:]:  # the text channels rank the same rows by the same scores
            assert row[rank] == indexed[block_id][rank], (block_id, rank)
    assert set(few) <= set(store["own"] + store["shared"])


def test_a_thread_among_many_finds_only_its_own_records_and_shared_blocks(
    app: App, store: dict[str, list[str]]
) -> None:
    # The scope holds 470 rows, 70 of them readable to the thread: with the bound at 100 the
    # thread's rows and the shared blocks are read directly, and nothing else of the scope.
    set_setting(app, "query.dense_exact_max", 100)
    found = _fuse(app, "ledger compass meadow", scopes=["team"], private_category="thread/own")
    assert set(found) <= set(store["own"] + store["shared"])
    assert any(i in found for i in store["own"]) and any(i in found for i in store["shared"])
    # every readable row has a vector: the dense channel ranks all 70 of them
    assert sum(1 for r in found.values() if r["dense_rank"] is not None) == 70
