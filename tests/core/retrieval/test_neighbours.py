"""The neighbours stage: candidates next to other candidates in their sequence gain a share of
their scores; nothing new is added."""

from __future__ import annotations

import pytest

from ctx.core import App, Candidate, Principal, QueryRequest, StoreRequest, blocks
from ctx.core.blocks import ManageRequest
from ctx.core.embed import active_generation
from ctx.core.retrieval.neighbours import gated, neighbour_pairs, neighbours
from ctx.core.retrieval.pipeline import QueryRun
from ctx.core.runtime import drain, set_setting

ALPHA = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")


def _seq(app: App, n: int, category: str = "chat") -> list[str]:
    return [
        str(
            blocks.store_block(
                app,
                ALPHA,
                StoreRequest(title=f"{category} {i}", content=f"turn {i}", category=category),
            )["id"]
        )
        for i in range(n)
    ]


def _run(app: App) -> QueryRun:
    return QueryRun(app, ALPHA, QueryRequest(query="q"), weights={})


def test_candidates_within_the_window_share_their_scores(app: App) -> None:
    ids = _seq(app, 5)
    (note,) = _seq(app, 1, category="notes")
    cands = [
        Candidate(ids[0], 0.10),
        Candidate(note, 0.08),
        Candidate(ids[2], 0.05),
        Candidate(ids[4], 0.01),
    ]
    out = {c.block_id: c for c in neighbours(_run(app), cands)}
    assert out[ids[0]].score == pytest.approx(0.10 + 0.3 * 0.05)
    assert out[ids[2]].score == pytest.approx(0.05 + 0.3 * (0.10 + 0.01))
    assert out[ids[4]].score == pytest.approx(0.01 + 0.3 * 0.05)
    assert out[note].score == pytest.approx(0.08)  # another category: no neighbour
    assert "neighbours" not in out[note].factors
    assert set(out) == {ids[0], ids[2], ids[4], note}  # nothing added


def test_the_window_counts_positions_not_candidates(app: App) -> None:
    ids = _seq(app, 4)
    assert neighbour_pairs(_run(app), [ids[0], ids[3]], 2) == set()
    assert neighbour_pairs(_run(app), [ids[0], ids[2]], 2) == {(ids[0], ids[2])}
    # An archived block leaves the sequence: 0 and 3 are now two apart.
    blocks.manage(app, ALPHA, ManageRequest(action="archive", id=ids[1]))
    assert neighbour_pairs(_run(app), [ids[0], ids[3]], 2) == {(ids[0], ids[3])}


def test_a_gap_in_writing_time_ends_the_sequence(app: App) -> None:
    ids = _seq(app, 3)
    with app.connection() as conn:
        conn.execute(
            "UPDATE context_blocks SET created_at = created_at + interval '1 hour' WHERE id = %s",
            (ids[2],),
        )
    assert neighbour_pairs(_run(app), ids, 2) == {(ids[0], ids[1])}


def test_weight_zero_keeps_the_fusion_scores(app: App) -> None:
    ids = _seq(app, 2)
    set_setting(app, "query.neighbour_weight", 0.0)
    cands = [Candidate(ids[0], 0.1), Candidate(ids[1], 0.05)]
    assert [c.score for c in neighbours(_run(app), cands)] == [0.1, 0.05]


def test_the_gate_keeps_only_neighbours_as_similar_as_the_band(app: App) -> None:
    texts = [
        "We booked the flights to Lisbon for the conference in May.",
        "The Lisbon conference flights in May are booked now.",
        "Invoice template: the VAT line moves below the subtotal.",
    ]
    ids = [
        str(blocks.store_block(app, ALPHA, StoreRequest(title=f"t{i}", content=t, category="c"))
            ["id"])
        for i, t in enumerate(texts)
    ]  # fmt: skip
    drain(app, "embed")
    run = QueryRun(app, ALPHA, QueryRequest(query="Lisbon flights"), weights={})
    with app.connection() as conn:
        run.generation = active_generation(conn)
    run.embedding = "[0]"  # a query vector exists; its value is not read here
    pairs = {(ids[0], ids[1]), (ids[1], ids[2])}
    set_setting(app, "query.neighbour_gate", "none")
    assert gated(run, pairs) == pairs
    set_setting(app, "query.neighbour_gate", "related")
    with app.connection() as conn:
        sims = {
            (a, b): float(r["sim"])
            for a, b in pairs
            for r in conn.execute(
                "SELECT 1 - (x.embedding <=> y.embedding) AS sim FROM context_block_embeddings x, "
                "context_block_embeddings y WHERE x.block_id = %s AND y.block_id = %s",
                (a, b),
            ).fetchall()
        }
    floor = sorted(sims.values())[0] + 1e-4  # between the two pairs
    set_setting(app, "query.related_similarity", floor)
    set_setting(app, "query.confident_similarity", max(floor, 0.99))
    assert sims[(ids[0], ids[1])] > sims[(ids[1], ids[2])]
    assert gated(run, pairs) == {(ids[0], ids[1])}
