"""Embedding generations served by a row of the backends pool (``embed.provider = backend``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import openai_server
import pytest

from ctx.core import (
    App,
    ConfigError,
    EmbeddingError,
    Principal,
    QueryRequest,
    StoreRequest,
    blocks,
    embed,
    llm,
    query,
)
from ctx.core.runtime import drain

WHO = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")


@pytest.fixture(scope="module")
def peer() -> Iterator[openai_server.OpenAIServer]:
    with openai_server.OpenAIServer(native_dimensions=48) as srv:
        yield srv


@pytest.fixture
def srv(peer: openai_server.OpenAIServer) -> openai_server.OpenAIServer:
    peer.reset()
    return peer


def _backend(app: App, srv: Any, name: str = "emb", **fields: Any) -> None:
    data = {"kind": "openai", "base_url": srv.base_url, "roles": ["embed"],
            "model_map": {"embed": "embedder-1"}, "trust": "full-trust", **fields}  # fmt: skip
    with app.connection() as conn:
        llm.create_backend(conn, app.backend_kinds, name, data)
    app.backends.invalidate()


def test_a_rebuild_through_a_backend_serves_queries(app: App, srv: Any) -> None:
    _backend(app, srv)
    kept = blocks.store_block(app, WHO, StoreRequest(title="Pager rota", content="Ana on Monday."))
    gen = embed.start_rebuild(app, "backend", {"backend": "emb", "dimensions": 32})
    assert (gen["provider"], gen["model"], gen["dimensions"]) == ("backend", "embedder-1", 32)
    while embed.rebuild_step(app):
        pass
    drain(app, "embed")
    with app.connection() as conn:
        active = embed.active_generation(conn)
        stored = conn.execute(
            "SELECT count(*) AS n FROM context_block_embeddings WHERE generation = %s",
            (active["id"],),
        ).fetchone()["n"]
        logged = [r for r in llm.read_log(conn) if r["operation"] == "embed"]
    assert active["id"] == gen["id"] and stored == 1
    assert logged and logged[0]["backend"] == "emb" and logged[0]["outcome"] == "ok"
    out = query(app, WHO, QueryRequest(query="who is on the pager rota", explain=True))
    assert out["sources"][0]["id"] == str(kept["id"])
    assert out["sources"][0]["channels"]["dense"]["rank"] == 1
    assert any(r.path == "/v1/embeddings" for r in srv.requests)


def test_vectors_are_truncated_and_normalised(app: App, srv: Any) -> None:
    _backend(app, srv)
    emb = app.embedders.build("backend", {"backend": "emb", "dimensions": 16,
                                          "query_prefix": "query: "})  # fmt: skip
    vecs = emb.embed_documents(["one", "two"])
    assert vecs.shape == (2, 16) and np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    emb.embed_query("three")
    assert srv.requests[-1].body["input"] == ["query: three"]
    native = app.embedders.build("backend", {"backend": "emb"})
    assert native.dimensions == 48


def test_an_embedding_backend_must_be_trusted_with_everything(app: App, srv: Any) -> None:
    _backend(app, srv, trust="no-credentials")
    with pytest.raises(ConfigError, match="must be full-trust"):
        app.embedders.build("backend", {"backend": "emb", "dimensions": 16})
    with pytest.raises(ConfigError, match="no backend named 'other'"):
        app.embedders.build("backend", {"backend": "other", "dimensions": 16})


def test_a_changed_model_stops_embedding_instead_of_mixing_spaces(app: App, srv: Any) -> None:
    _backend(app, srv)
    emb = app.embedders.build("backend", {"backend": "emb", "dimensions": 16})
    with app.connection() as conn:
        llm.update_backend(conn, app.backend_kinds, "emb", {"model_map": {"embed": "embedder-2"}})
    app.backends.invalidate()
    with pytest.raises(EmbeddingError, match="start a rebuild"):
        emb.embed_documents(["one"])
