"""Embedding generations and embed jobs, against the local e5 model and a loopback OpenAI server."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
import openai_server
import pytest
from psycopg.types.json import Jsonb

from ctx.core import App, EmbeddingError, Principal, StoreRequest, blocks, embed
from ctx.core.embed import l2_normalize
from ctx.core.runtime import drain, set_setting

ALPHA = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")
BETA = Principal(key_id="00000000-0000-0000-0000-0000000000b1", name="b", home_scope="beta")
DIMS = 16


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    with openai_server.OpenAIServer(native_dimensions=64) as srv:
        yield srv


@pytest.fixture
def fresh(server: Any) -> Any:
    server.reset("ok")
    return server


def _openai_options(server: Any) -> dict[str, Any]:
    return {"base_url": server.base_url, "model": "test-embed", "dimensions": DIMS}


def _use_openai(app: App, server: Any) -> dict[str, Any]:
    """Retire the e5 generation and make an OpenAI-server generation the active one."""
    with app.connection() as conn:
        conn.execute("UPDATE context_embedding_generations SET status = 'retired'")
    return embed.create_generation(app, "openai", _openai_options(server), active=True)


def _store(app: App, who: Principal, title: str, content: str = "body", **extra: Any) -> str:
    req = StoreRequest.model_validate({"title": title, "content": content, **extra})
    return str(blocks.store_block(app, who, req)["id"])


def _rows(app: App, sql: str, *params: Any) -> list[dict[str, Any]]:
    with app.connection() as conn:
        return conn.execute(sql, params).fetchall()


def _embed_jobs(app: App) -> list[dict[str, Any]]:
    return _rows(
        app,
        "SELECT payload->>'block_id' AS block_id, status, attempts, last_error, "
        "run_after - now() AS wait FROM context_jobs WHERE kind = 'embed' ORDER BY id",
    )


def _embeddings(app: App) -> dict[tuple[str, int], str]:
    rows = _rows(app, "SELECT block_id, generation, content_hash FROM context_block_embeddings")
    return {(str(r["block_id"]), r["generation"]): r["content_hash"] for r in rows}


# -- helpers ----------------------------------------------------------------------------------


def test_block_text_joins_title_and_content_and_caps_length() -> None:
    assert embed.block_text("  Title ", "\nbody\n") == "Title\n\nbody"
    long = embed.block_text("T", "x" * 10_000)
    assert len(long) == embed.MAX_TEXT_CHARS and long.startswith("T\n\nxxx")


def test_vector_literal_is_a_pgvector_literal() -> None:
    assert embed.vector_literal(np.array([0.5, -1.0, 1e-7], dtype=np.float32)) == ("[0.5,-1,1e-07]")


# -- generations ------------------------------------------------------------------------------


def test_the_template_has_one_active_e5_generation(app: App) -> None:
    with app.connection() as conn:
        gens = embed.generations(conn)
        active = embed.active_generation(conn)
    assert [g["status"] for g in gens] == ["active"]
    assert active is not None
    assert (active["provider"], active["dimensions"]) == ("e5", 384)
    # Starting again finds it rather than making another.
    assert embed.ensure_active_generation(app) == active


def test_a_missing_generation_is_created_from_the_settings(app: App) -> None:
    with app.connection() as conn:
        conn.execute("UPDATE context_embedding_generations SET status = 'retired'")
    gen = embed.ensure_active_generation(app)
    assert gen is not None
    assert (gen["provider"], gen["status"], gen["dimensions"]) == ("e5", "active", 384)
    assert gen["options"] == {"batch_size": 64}
    indexes = _rows(
        app,
        "SELECT indexname FROM pg_indexes WHERE tablename = 'context_block_embeddings' "
        "AND indexname = %s",
        f"context_block_embeddings_hnsw_{gen['id']}",
    )
    assert len(indexes) == 1


def test_an_unbuildable_embedder_leaves_ctx_without_a_generation(
    database_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    other = App(
        database_url=database_url,
        home=tmp_path / "home",
        load_entry_points=False,
        environ={"CTX_EMBED_PROVIDER": "openai"},  # no base_url, model or dimensions
    )
    other.open(ensure_generation=False)
    try:
        with other.connection() as conn:
            conn.execute("UPDATE context_embedding_generations SET status = 'retired'")
        with caplog.at_level(logging.WARNING, logger="ctx.indexing"):
            assert embed.ensure_active_generation(other) is None
        assert "no embedding generation" in caplog.text
        assert "'dimensions' is required" in caplog.text
        with other.connection() as conn:
            assert embed.active_generation(conn) is None
    finally:
        other.close()


def test_create_generation_records_the_embedder(app: App, fresh: Any) -> None:
    gen = embed.create_generation(app, "openai", _openai_options(fresh), active=False)
    assert gen["provider"] == "openai" and gen["model"] == "test-embed"
    assert gen["dimensions"] == DIMS and gen["status"] == "building"
    assert gen["options"] == _openai_options(fresh)
    with app.connection() as conn:
        assert embed.building_generation(conn) == gen
        assert embed.active_generation(conn)["provider"] == "e5"
    index = _rows(
        app,
        "SELECT indexdef FROM pg_indexes WHERE indexname = %s",
        f"context_block_embeddings_hnsw_{gen['id']}",
    )
    assert f"halfvec({DIMS})" in index[0]["indexdef"]
    assert f"generation = {gen['id']}" in index[0]["indexdef"]


# -- embed_blocks -----------------------------------------------------------------------------


def test_embed_blocks_fills_the_active_and_the_building_generation(app: App, fresh: Any) -> None:
    building = embed.create_generation(app, "openai", _openai_options(fresh), active=False)
    block_id = _store(app, ALPHA, "Backup window", "Backups run at night.")
    meta = _store(app, ALPHA, "Bookkeeping", "internal", block_type="system-meta")
    with app.connection() as conn:
        active = embed.active_generation(conn)
        assert active is not None
        written = embed.embed_blocks(app, conn, [block_id, meta])
    assert written == 2  # one block into two generations; system-meta is never embedded
    digest = blocks.content_hash("Backups run at night.")
    assert _embeddings(app) == {
        (block_id, active["id"]): digest,
        (block_id, building["id"]): digest,
    }
    stored = _rows(
        app,
        "SELECT embedding::text AS v FROM context_block_embeddings WHERE generation = %s",
        building["id"],
    )[0]["v"]
    vec = np.array([float(x) for x in stored.strip("[]").split(",")])
    expected = l2_normalize(
        openai_server.hash_vector("Backup window\n\nBackups run at night.", 64)[:DIMS]
    )
    np.testing.assert_allclose(vec, expected, atol=2e-3)  # halfvec precision
    with app.connection() as conn:
        assert embed.embed_blocks(app, conn, [meta]) == 0
        assert embed.embed_blocks(app, conn, []) == 0


def test_embed_blocks_rejects_vectors_of_the_wrong_size(app: App, fresh: Any) -> None:
    with app.connection() as conn:
        conn.execute("UPDATE context_embedding_generations SET status = 'retired'")
        conn.execute(
            "INSERT INTO context_embedding_generations (provider, model, dimensions, status, "
            "options) VALUES ('openai', 'test-embed', 8, 'active', %s)",
            (Jsonb(_openai_options(fresh)),),
        )
    block_id = _store(app, ALPHA, "Backup window")
    with pytest.raises(EmbeddingError, match=r"expects 8 dimensions"), app.connection() as conn:
        embed.embed_blocks(app, conn, [block_id])
    assert _embeddings(app) == {}


# -- run_embed_jobs ---------------------------------------------------------------------------


def test_run_embed_jobs_completes_and_deletes_queued_jobs(app: App, fresh: Any) -> None:
    gen = _use_openai(app, fresh)
    ids = [_store(app, ALPHA, f"Block {i}") for i in range(5)]
    assert [j["block_id"] for j in _embed_jobs(app)] == ids
    assert drain(app, "embed", batch=2) == 5  # three rounds of claims
    assert _embed_jobs(app) == []
    assert set(_embeddings(app)) == {(i, gen["id"]) for i in ids}
    assert [len(r.body["input"]) for r in fresh.requests] == [2, 2, 1]
    assert drain(app, "embed") == 0


def test_run_embed_jobs_for_scopes_leaves_other_scopes_queued(app: App, fresh: Any) -> None:
    _use_openai(app, fresh)
    mine = _store(app, ALPHA, "Mine")
    theirs = _store(app, BETA, "Theirs")
    assert embed.embed_pending(app, ["alpha"]) == 1
    assert [(j["block_id"], j["status"]) for j in _embed_jobs(app)] == [(theirs, "queued")]
    assert [k[0] for k in _embeddings(app)] == [mine]


def test_a_failing_embedder_puts_jobs_back_with_backoff(app: App, fresh: Any) -> None:
    gen = _use_openai(app, fresh)
    block_id = _store(app, ALPHA, "Backup window", "Backups run at night.")
    fresh.reset("error500")
    with pytest.raises(EmbeddingError, match="HTTP 500: model failed to load"):
        drain(app, "embed")
    [job] = _embed_jobs(app)
    assert job["status"] == "queued" and job["attempts"] == 1
    assert "model failed to load" in job["last_error"]
    assert timedelta(seconds=1) < job["wait"] <= timedelta(seconds=2)
    assert _embeddings(app) == {}
    # The block itself is untouched and still found by text.
    assert blocks.get_block(app, ALPHA, block_id)["content"] == "Backups run at night."
    # Backoff holds: the worker does not retry early.
    assert drain(app, "embed") == 0
    # Once due and the server is healthy again, the job completes.
    fresh.reset("ok")
    with app.connection() as conn:
        conn.execute("UPDATE context_jobs SET run_after = now()")
    assert drain(app, "embed") == 1
    assert _embed_jobs(app) == [] and set(_embeddings(app)) == {(block_id, gen["id"])}


def test_repeated_failures_quarantine_the_job_not_the_block(app: App, fresh: Any) -> None:
    _use_openai(app, fresh)
    set_setting(app, "jobs.max_attempts", 2)
    block_id = _store(app, ALPHA, "Backup window")
    fresh.reset("error500")
    for _ in range(2):
        with app.connection() as conn:
            conn.execute("UPDATE context_jobs SET run_after = now()")
        with pytest.raises(EmbeddingError):
            drain(app, "embed")
    [job] = _embed_jobs(app)
    assert (job["status"], job["attempts"]) == ("quarantined", 2)
    assert blocks.get_block(app, ALPHA, block_id)["title"] == "Backup window"


def test_a_failing_building_generation_does_not_block_the_active_one(app: App, fresh: Any) -> None:
    # A rebuild towards a broken embedder must not stop new blocks from becoming findable
    # by meaning in the generation that serves queries.
    active = _use_openai(app, fresh)
    broken = dict(_openai_options(fresh), base_url=fresh.base_url + "/broken")
    building = embed.create_generation(app, "openai", broken, active=False)
    block_id = _store(app, ALPHA, "Backup window")
    stale = "[" + ",".join(["0.25"] * DIMS) + "]"  # as if the rebuild had embedded old content
    with app.connection() as conn:
        conn.execute(
            "INSERT INTO context_block_embeddings (block_id, generation, content_hash, embedding) "
            "VALUES (%s, %s, 'old', %s::halfvec)",
            (block_id, building["id"], stale),
        )
    assert drain(app, "embed") == 1
    # Active row written; the stale building row is gone so the rebuild embeds it afresh.
    assert set(_embeddings(app)) == {(block_id, active["id"])}
    assert _embed_jobs(app) == []
    with app.connection() as conn:
        assert embed.building_generation(conn)["id"] == building["id"]
