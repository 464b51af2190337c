"""Bounded work per query in ctx_rrf (issue 18): the full-text channels rank at most
``query.fts_budget`` rows chosen by their rarest words, the title channel stops searching every
title above ``query.trigram_scan_max`` readable blocks, and the dense channel compares every
vector of a small scope (``query.dense_exact_max``) instead of walking a graph the filters thin
out. Each test shows the bound changes the outcome, so none passes without it."""

from __future__ import annotations

from typing import Any

import numpy as np

from ctx.core import App
from ctx.core.embed import active_generation, vector_literal
from ctx.core.retrieval import term_stats
from ctx.core.retrieval.fusion import rrf_arguments, rrf_sql
from ctx.core.runtime import set_setting

ONLY_EN = {"dense": 0.0, "fts_en": 1.0, "fts_de": 0.0, "trigram": 0.0, "dates": 0.0}
ONLY_TITLE = {"dense": 0.0, "fts_en": 0.0, "fts_de": 0.0, "trigram": 1.0, "dates": 0.0}
ONLY_DENSE = {"dense": 1.0, "fts_en": 0.0, "fts_de": 0.0, "trigram": 0.0, "dates": 0.0}


def _bulk(app: App, scope: str, rows: list[tuple[str, str]]) -> list[str]:
    """(title, content) rows at SQL speed, then the scope's word counts; returns the ids."""
    with app.connection() as conn:
        ids = [
            str(r["id"])
            for r in conn.execute(
                "INSERT INTO context_blocks (scope, category, title, content, block_type, "
                "content_hash) SELECT %s, 'bulk', t.title, t.content, 'knowledge', "
                "md5(t.title || t.n) FROM unnest(%s::text[], %s::text[]) WITH ORDINALITY "
                "AS t(title, content, n) RETURNING id",
                (scope, [r[0] for r in rows], [r[1] for r in rows]),
            ).fetchall()
        ]
        term_stats.refresh_scope(conn, scope)
    return ids


def _fuse(app: App, query: str, scopes: list[str], weights: dict[str, float], **extra: Any) -> list:
    args = rrf_arguments(app, query=query, scopes=scopes, weights=weights, result_limit=500)
    args.update(extra)
    with app.connection() as conn:
        return conn.execute(rrf_sql(), args).fetchall()


def _plan(app: App, text: str, scopes: list[str], budget: int) -> dict[str, Any]:
    with app.connection() as conn:
        row = conn.execute(
            "SELECT q_rank::text AS r, q_match::text AS m FROM ctx_fts_plan(p_config => "
            "'english', p_text => %s, p_scopes => %s, p_common_cutoff => 1, p_min_blocks => 0, "
            "p_budget => %s)",
            (text, scopes, budget),
        ).fetchone()
    assert row is not None
    return row


def _bound_from(app: App, blocks: int) -> None:
    """Bound from this store size on (default 5,000, like the common-word cutoff), which keeps
    every word (the cutoff is another rule)."""
    set_setting(app, "query.fts_cutoff_min_blocks", blocks)
    set_setting(app, "query.fts_common_cutoff", 1.0)


def _common_and_rare(app: App, scope: str) -> tuple[set[str], set[str]]:
    rows = [(f"Server note {i}", "The server restarted after the update.") for i in range(150)]
    rows += [(f"Animal note {i}", "A kangaroo crossed the road.") for i in range(8)]
    rows += [(f"Both note {i}", "The server restarted; a kangaroo watched.") for i in range(2)]
    ids = _bulk(app, scope, rows)
    return set(ids[:150]), set(ids[150:])


def test_the_plan_matches_the_rarest_words_first_and_ranks_with_all(app: App) -> None:
    _common_and_rare(app, "zoo")
    bounded = _plan(app, "server kangaroo", ["zoo"], 50)
    assert bounded["m"] == "'kangaroo'"  # 10 blocks fit the budget, 'server' (152) does not
    assert set(bounded["r"].split(" | ")) == {"'server'", "'kangaroo'"}  # ranking keeps both
    assert _plan(app, "server kangaroo", ["zoo"], 0)["m"] is None  # unbounded: every match
    assert _plan(app, "server kangaroo", ["zoo"], 500)["m"] is None  # the scope fits the budget
    with app.connection() as conn:  # a scope under p_min_blocks is never bounded
        row = conn.execute(
            "SELECT q_match FROM ctx_fts_plan(p_config => 'english', p_text => 'server kangaroo', "
            "p_scopes => '{zoo}', p_common_cutoff => 1, p_min_blocks => 1000, p_budget => 50)"
        ).fetchone()
    assert row == {"q_match": None}
    # another scope's counts never shape the plan: in an empty scope nothing is bounded
    assert _plan(app, "server kangaroo", ["elsewhere"], 50)["m"] is None


def test_rows_matching_only_common_words_are_not_ranked_under_a_budget(app: App) -> None:
    common, rare = _common_and_rare(app, "zoo")
    set_setting(app, "query.fts_budget", 50)
    _bound_from(app, 1000)  # 160 blocks: too small to bound
    assert len(_fuse(app, "server kangaroo", ["zoo"], ONLY_EN)) == 100
    _bound_from(app, 100)
    found = {str(r["block_id"]) for r in _fuse(app, "server kangaroo", ["zoo"], ONLY_EN)}
    assert found == rare  # the 8 kangaroo notes and the 2 with both words
    set_setting(app, "query.fts_budget", 0)  # the seed's behaviour: every matching row
    found = {str(r["block_id"]) for r in _fuse(app, "server kangaroo", ["zoo"], ONLY_EN)}
    # ts_rank_cd knows no word rarity: 100 of the 160 matches, server-only notes among them
    # (and some kangaroo notes pushed out by them)
    assert len(found) == 100 and len(found & common) >= 90


def test_a_channel_never_ranks_more_rows_than_its_budget(app: App) -> None:
    _common_and_rare(app, "zoo")
    set_setting(app, "query.fts_budget", 30)
    _bound_from(app, 100)
    rows = _fuse(app, "server", ["zoo"], ONLY_EN, limit_fts_en=500)
    assert len(rows) == 30  # 'server' alone is common: the hard cap holds
    set_setting(app, "query.fts_budget", 0)
    assert len(_fuse(app, "server", ["zoo"], ONLY_EN, limit_fts_en=500)) == 152


def test_large_scopes_compare_titles_of_other_channels_candidates_only(app: App) -> None:
    rows = [(f"Quarterly planning {i}", "Budget figures and headcount.") for i in range(40)]
    rows.append(("Kubernetes upgrade runbook", "Steps for the cluster."))
    ids = _bulk(app, "ops", rows)
    typo = "kubernets upgrad runbok"  # no full-text match, only trigram similarity
    found = [str(r["block_id"]) for r in _fuse(app, typo, ["ops"], ONLY_TITLE)]
    assert found[:1] == [ids[-1]]  # 41 readable blocks: every title is searched
    set_setting(app, "query.trigram_scan_max", 10)
    assert _fuse(app, typo, ["ops"], ONLY_TITLE) == []  # only candidates (none) are compared
    both = {**ONLY_TITLE, "fts_en": 1.0}
    hit = _fuse(app, "runbook kubernets upgrad", ["ops"], both)
    assert str(hit[0]["block_id"]) == ids[-1] and hit[0]["trigram_rank"] == 1


def _vectors(app: App, ids: list[str], vecs: np.ndarray) -> dict[str, Any]:
    with app.connection() as conn:
        gen = active_generation(conn)
        assert gen is not None
        conn.execute(
            "INSERT INTO context_block_embeddings (block_id, generation, content_hash, embedding, "
            "context) SELECT b.id, %s, b.content_hash, v::halfvec, v::halfvec FROM unnest("
            "%s::uuid[], %s::text[]) AS t(id, v) JOIN context_blocks b ON b.id = t.id",
            (gen["id"], ids, [vector_literal(v) for v in vecs]),
        )
        conn.execute("ANALYZE context_block_embeddings")
    return gen


def test_a_small_scope_in_a_large_store_gets_its_full_dense_list(app: App) -> None:
    rng = np.random.default_rng(5)
    with app.connection() as conn:
        dims = int(active_generation(conn)["dimensions"])  # type: ignore[index]
    big = _bulk(app, "big", [(f"Big {i}", f"filler {i}") for i in range(3000)])
    small = _bulk(app, "small", [(f"Small {i}", f"rare {i}") for i in range(30)])
    vecs = rng.standard_normal((3030, dims)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    gen = _vectors(app, big + small, vecs)
    q = rng.standard_normal(dims).astype(np.float32)
    q /= np.linalg.norm(q)
    exact = [small[i] for i in np.argsort(-(vecs[3000:] @ q), kind="stable")]

    def dense(**settings: Any) -> list[str]:
        for key, value in settings.items():
            set_setting(app, key, value)
        rows = _fuse(
            app,
            "",
            ["small"],
            ONLY_DENSE,
            embedding=vector_literal(q),
            generation=gen["id"],
            dims=gen["dimensions"],
        )
        return [str(r["block_id"]) for r in sorted(rows, key=lambda r: r["dense_rank"])]

    assert dense() == exact  # 30 readable blocks <= dense_exact_max: every vector compared
    # Without the exact scan the planner walks the graph (iterative, so the filter cannot starve
    # it) or filters first; either way the list is full. bench/dense_scopes.py measures recall
    # and latency at 100,000 blocks, where the graph walk is what answers.
    walked = dense(**{"query.dense_exact_max": 0, "query.hnsw_iterative_scan": "relaxed_order"})
    assert set(walked) == set(exact)


def test_hnsw_settings_reach_the_fusion_call(app: App) -> None:
    args = rrf_arguments(app, query="x", scopes=["a"], weights=ONLY_DENSE)
    assert args["hnsw_ef_search"] == max(40, 2 * int(app.settings["query.limit_dense"]))
    set_setting(app, "query.hnsw_ef_search", 300)
    set_setting(app, "query.hnsw_iterative_scan", "strict_order")
    set_setting(app, "query.hnsw_max_scan_tuples", 50000)
    args = rrf_arguments(app, query="x", scopes=["a"], weights=ONLY_DENSE)
    assert (args["hnsw_ef_search"], args["hnsw_iterative"], args["hnsw_max_tuples"]) == (
        300,
        "strict_order",
        50000,
    )
    with app.connection() as conn:  # and ctx_rrf applies them to its transaction
        conn.execute(rrf_sql(), args).fetchall()
        row = conn.execute(
            "SELECT current_setting('hnsw.ef_search') AS ef, "
            "current_setting('hnsw.iterative_scan') AS it, "
            "current_setting('hnsw.max_scan_tuples') AS mx"
        ).fetchone()
    assert row == {"ef": "300", "it": "strict_order", "mx": "50000"}


def test_words_the_counts_did_not_keep_count_as_the_floor_not_as_nothing(app: App) -> None:
    # 2,000 notes: the recount keeps words in 10 or more blocks; alpha, beta and gamma are in 8
    # each, uncounted. Were they counted as 0, all three would "fit" a budget of 10, the channel
    # would rank the first 10 matches in storage order, and the note with all three words,
    # written last, would be lost.
    rows = [(f"Filler {i}", "Nothing to see in this note.") for i in range(2000)]
    for word in ("alpha", "beta", "gamma"):
        rows += [(f"Release {word[0]}{i}", f"The {word} release shipped.") for i in range(7)]
    rows.append(("Release notes", "The alpha, beta and gamma releases shipped together."))
    ids = _bulk(app, "mid", rows)
    set_setting(app, "query.fts_budget", 10)
    _bound_from(app, 100)
    plan = _plan(app, "alpha beta gamma", ["mid"], 10)
    assert plan["m"] is not None and "&" in plan["m"]  # one word, plus every other one together
    found = [str(r["block_id"]) for r in _fuse(app, "alpha beta gamma", ["mid"], ONLY_EN)]
    assert found[0] == ids[-1]
