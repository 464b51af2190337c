"""Vectors travel as binary halfvec (pgvector's psycopg adapters), and the embed status reports
throughput and what is left."""

from __future__ import annotations

import numpy as np
from pgvector import HalfVector

from ctx.core import App, Principal, StoreRequest, blocks
from ctx.core.embed import status
from ctx.core.embed.wire import as_array, binary_vectors, halfvec
from ctx.core.runtime import drain

WHO = Principal(key_id="00000000-0000-0000-0000-0000000000e1", name="w", home_scope="wire")


def test_a_vector_round_trips_in_binary_as_the_column_stores_it(app: App) -> None:
    rng = np.random.default_rng(3)
    vec = rng.standard_normal(384).astype(np.float32)
    vec /= np.linalg.norm(vec)
    with app.connection() as conn:
        binary_vectors(conn)
        assert binary_vectors(conn) is conn  # registered once, then a no-op
        row = conn.execute(
            "SELECT %s::halfvec AS h, (%s::halfvec)::text AS t",
            (halfvec(vec), halfvec(vec)),
            binary=True,
        ).fetchone()
    assert row is not None and isinstance(row["h"], HalfVector)
    back = as_array(row["h"])
    assert back.dtype == np.float32 and np.array_equal(back, as_array(row["t"]))
    assert np.abs(back - vec).max() < 1e-3  # half precision, rounded once


def test_embed_jobs_write_binary_vectors_and_status_shows_the_rate(app: App) -> None:
    for i in range(3):
        blocks.store_block(app, WHO, StoreRequest(title=f"Wire {i}", content=f"note number {i}"))
    before = status(app)
    active = next(g for g in before["generations"] if g["status"] == "active")
    assert active["left"] == 3 and active["eta_s"] is None  # nothing embedded yet: no rate
    assert drain(app, "embed") == 3
    with app.connection() as conn:
        rows = conn.execute(
            "SELECT e.embedding::text AS t, e.context::text AS c FROM context_block_embeddings e "
            "JOIN context_blocks b ON b.id = e.block_id WHERE b.scope = 'wire'"
        ).fetchall()
    vecs = [as_array(r["t"]) for r in rows]
    assert len(vecs) == 3 and all(abs(float(np.linalg.norm(v)) - 1) < 0.01 for v in vecs)
    after = next(g for g in status(app)["generations"] if g["status"] == "active")
    assert after["left"] == 0 and after["eta_s"] == 0 and after["per_s"] > 0
