"""Vectors travel as binary halfvec (pgvector's psycopg adapters), and the embed status reports
throughput and what is left (for the store, and for a scope: what ``ctx ingest`` says)."""

from __future__ import annotations

import numpy as np
from pgvector import HalfVector

from ctx.core import App, Principal, StoreRequest, blocks
from ctx.core.embed import backlog_for_scopes, backlog_line, duration_text, status
from ctx.core.embed.wire import as_array, binary_vectors, halfvec
from ctx.core.runtime import drain, run_kind

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


def test_a_scopes_backlog_waits_behind_the_jobs_queued_before_it(app: App) -> None:
    earlier = Principal(key_id="00000000-0000-0000-0000-0000000000e2", name="e", home_scope="early")
    for i in range(3):
        blocks.store_block(app, earlier, StoreRequest(title=f"Early {i}", content=f"first {i}"))
    for i in range(2):
        blocks.store_block(app, WHO, StoreRequest(title=f"Late {i}", content=f"second {i}"))
    assert backlog_for_scopes(app, ["wire"]) == {"waiting": 2, "per_s": None, "eta_s": None}

    assert run_kind(app, app.job_handlers["embed"], 2) == 2  # the two oldest: early's
    with app.connection() as conn:  # as if they took ten seconds: 0.2 vectors/s
        conn.execute("UPDATE context_block_embeddings SET created_at = now() - interval '10 s'")
    late, early = backlog_for_scopes(app, ["wire"]), backlog_for_scopes(app, ["early"])
    assert late == {"waiting": 2, "per_s": 0.2, "eta_s": 15}  # 3 jobs up to its last
    assert early == {"waiting": 1, "per_s": 0.2, "eta_s": 5}
    assert backlog_line(2, 0.2, 15) == "2 blocks waiting for embedding at 0.2/s, about 15 s left"
    assert backlog_for_scopes(app, ["nowhere"]) == {"waiting": 0, "per_s": 0.2, "eta_s": 0}


def test_time_left_reads_as_an_estimate() -> None:
    assert [duration_text(s) for s in (4.4, 59, 61, 139, 600, 3600, 4500)] == [
        "4 s", "59 s", "1 min", "2 min 10 s", "10 min", "1 h", "1 h 15 min"
    ]  # fmt: skip
    assert backlog_line(0, None, None) == "nothing waiting for embedding"
    assert backlog_line(1, None, None) == (
        "1 block waiting for embedding; nothing was embedded in the last minute "
        "(is a worker running?)"
    )
