"""Context vectors: each block's embedding blended with its neighbours' (same scope and category,
writing order, within the gap), kept current on writes, deletes and archives."""

from __future__ import annotations

import numpy as np
import pytest

from ctx.core import App, Principal, QueryRequest, StoreRequest, blocks, retrieval
from ctx.core.blocks import BlockChanges, ManageRequest
from ctx.core.embed import context as ctxvec
from ctx.core.runtime import drain, set_setting

ALPHA = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")
BETA = Principal(key_id="00000000-0000-0000-0000-0000000000b1", name="b", home_scope="beta")
TURNS = [
    "Which colour did you pick for the new bike?",
    "The blue one, it matched the helmet.",
    "Nice. Did the shop fit the lights too?",
    "Yes, front and back, and a bell.",
    "Then the commute starts on Monday.",
]


def _store(app: App, who: Principal, title: str, content: str, category: str = "chat") -> str:
    req = StoreRequest(title=title, content=content, category=category)
    return str(blocks.store_block(app, who, req)["id"])


def _vectors(app: App) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    with app.connection() as conn:
        rows = conn.execute(
            "SELECT block_id::text AS id, embedding::text AS e, context::text AS c "
            "FROM context_block_embeddings"
        ).fetchall()
    return {r["id"]: (ctxvec.parse_vector(r["e"]), ctxvec.parse_vector(r["c"])) for r in rows}


def _expected(own: np.ndarray, neighbours: list[np.ndarray], weight: float = 0.2) -> np.ndarray:
    acc = own + weight * sum(neighbours, np.zeros_like(own))
    return acc / np.linalg.norm(acc)


def _assert_close(a: np.ndarray, b: np.ndarray) -> None:
    assert float(np.max(np.abs(a - b))) < 2e-3  # halfvec storage


def _assert_sequence(v: dict[str, tuple[np.ndarray, np.ndarray]], ids: list[str]) -> None:
    """Each of ``ids`` (one sequence, in order) blends up to two neighbours a side."""
    e = [v[i][0] for i in ids]
    for pos, block_id in enumerate(ids):
        near = [e[j] for j in range(max(0, pos - 2), min(len(ids), pos + 3)) if j != pos]
        _assert_close(v[block_id][1], _expected(e[pos], near))


def _conversation(app: App, who: Principal = ALPHA, category: str = "chat") -> list[str]:
    ids = [_store(app, who, f"turn {i}", t, category) for i, t in enumerate(TURNS)]
    drain(app, "embed")
    return ids


def test_each_vector_blends_up_to_two_neighbours_a_side(app: App) -> None:
    ids = _conversation(app)
    v = _vectors(app)
    _assert_sequence(v, ids)
    # The blend is a different vector from the block's own, still of unit length.
    assert float(np.dot(v[ids[2]][0], v[ids[2]][1])) < 0.999
    assert abs(float(np.linalg.norm(v[ids[2]][1])) - 1.0) < 2e-3


def test_blocks_of_another_category_or_scope_are_not_neighbours(app: App) -> None:
    first = _store(app, ALPHA, "a chat", TURNS[0])
    _store(app, ALPHA, "a note", TURNS[1], category="notes")
    _store(app, BETA, "their chat", TURNS[2])
    second = _store(app, ALPHA, "a chat 2", TURNS[3])
    drain(app, "embed")
    v = _vectors(app)
    _assert_close(v[first][1], _expected(v[first][0], [v[second][0]]))
    _assert_close(v[second][1], _expected(v[second][0], [v[first][0]]))


def test_blocks_written_further_apart_than_the_gap_are_not_neighbours(app: App) -> None:
    early = _store(app, ALPHA, "monday", TURNS[0])
    late = _store(app, ALPHA, "friday", TURNS[1])
    with app.connection() as conn:
        conn.execute(
            "UPDATE context_blocks SET created_at = created_at + interval '2 hours' WHERE id = %s",
            (late,),
        )
    drain(app, "embed")
    v = _vectors(app)
    _assert_close(v[early][1], v[early][0])
    _assert_close(v[late][1], v[late][0])


def test_a_deleted_block_leaves_its_neighbours_blended_without_it(app: App) -> None:
    ids = _conversation(app)
    blocks.delete_block(app, ALPHA, ids[2])
    assert drain(app, "embed_context") == 1
    _assert_sequence(_vectors(app), [i for i in ids if i != ids[2]])


def test_archiving_and_unarchiving_move_the_blend(app: App) -> None:
    ids = _conversation(app)
    blocks.manage(app, ALPHA, ManageRequest(action="archive", id=ids[1]))
    drain(app, "embed_context")
    v = _vectors(app)
    # ids[0] now neighbours ids[2] and ids[3] only.
    _assert_close(v[ids[0]][1], _expected(v[ids[0]][0], [v[ids[2]][0], v[ids[3]][0]]))
    blocks.manage(app, ALPHA, ManageRequest(action="unarchive", id=ids[1]))
    drain(app, "embed_context")
    v = _vectors(app)
    _assert_close(v[ids[0]][1], _expected(v[ids[0]][0], [v[ids[1]][0], v[ids[2]][0]]))
    _assert_close(v[ids[1]][1], _expected(v[ids[1]][0], [v[ids[0]][0], v[ids[2]][0], v[ids[3]][0]]))


def test_a_block_moved_to_another_category_leaves_one_blend_and_joins_another(app: App) -> None:
    chat = _conversation(app)
    notes = [_store(app, ALPHA, f"note {i}", TURNS[i], category="notes") for i in range(2)]
    drain(app, "embed")
    blocks.manage(
        app,
        ALPHA,
        ManageRequest(action="update", id=chat[2], changes=BlockChanges(category="notes")),
    )
    drain(app, "embed")
    assert drain(app, "embed_context") == 2  # the place it left and the place it took
    v = _vectors(app)
    _assert_sequence(v, [i for i in chat if i != chat[2]])
    # In "notes" it was written first (before both notes): its neighbours are the two notes.
    _assert_close(v[chat[2]][1], _expected(v[chat[2]][0], [v[n][0] for n in notes]))


def test_weight_zero_keeps_each_blocks_own_embedding(app: App) -> None:
    set_setting(app, "embed.context_weight", 0.0)
    ids = _conversation(app)
    v = _vectors(app)
    for block_id in ids:
        _assert_close(v[block_id][1], v[block_id][0])


def test_a_whole_sequence_recount_matches_the_incremental_vectors(
    app: App, monkeypatch: pytest.MonkeyPatch
) -> None:
    ids = _conversation(app)
    before = _vectors(app)
    with app.connection() as conn:
        conn.execute("UPDATE context_block_embeddings SET context = embedding")
        gen = conn.execute(
            "SELECT id FROM context_embedding_generations WHERE status = 'active'"
        ).fetchone()
        assert gen is not None
        monkeypatch.setattr(ctxvec, "_PAGE", 2)  # pages of two: every page boundary is crossed
        written = ctxvec.refresh_sequence(conn, ctxvec.blend_of(app), gen["id"], "alpha", "chat")
    assert written == len(ids)
    after = _vectors(app)
    for block_id in ids:
        _assert_close(after[block_id][1], before[block_id][1])


def test_the_dense_channel_searches_the_context_vectors(app: App) -> None:
    ids = _conversation(app)
    question = "what colour is the bike"
    run, cands = retrieval.run_pipeline(
        app,
        ALPHA,
        QueryRequest(query=question),
        weights={"dense": 1.0, "fts_en": 0.0, "fts_de": 0.0, "trigram": 0.0, "dates": 0.0},
        stop_after="candidates",
    )
    assert run.generation is not None
    q = app.embedders.for_generation(run.generation).embed_query(question)
    v = _vectors(app)
    sims = {c.block_id: c.channel_scores["dense"] for c in cands}
    assert set(sims) == set(ids)
    for block_id in ids:
        _own, blended = v[block_id]
        assert abs(float(sims[block_id]) - float(np.dot(q, blended))) < 5e-3
    # ... and not the raw embeddings: some block's two similarities differ measurably.
    assert max(abs(float(np.dot(q, v[i][0])) - float(sims[i])) for i in ids) > 5e-3


def test_reblend_applies_a_changed_weight_to_stored_vectors(app: App) -> None:
    ids = _conversation(app)
    set_setting(app, "embed.context_weight", 0.0)
    before = _vectors(app)
    assert float(np.max(np.abs(before[ids[1]][1] - before[ids[1]][0]))) > 2e-3  # still blended
    from ctx.core import embed

    assert embed.queue_reblend(app) == 1  # one sequence: alpha / chat
    assert drain(app, "embed_context") == 1
    for own, blended in _vectors(app).values():
        _assert_close(blended, own)
