"""The ``local`` backend kind: the in-process embedder as a backend of the embed role."""

from __future__ import annotations

import pytest

from ctx.core import App, CtxError, llm


def test_local_kind_serves_embed_without_a_server(app: App) -> None:
    with app.connection() as conn:
        b = llm.create_backend(conn, app.backend_kinds, "inproc", {
            "kind": "local", "roles": ["embed"], "model_map": {"embed": "minilm"},
            "trust": "full-trust"})  # fmt: skip
        with pytest.raises(CtxError, match="cannot serve"):
            llm.create_backend(conn, app.backend_kinds, "chatty", {
                "kind": "local", "roles": ["chat"], "model_map": {"default": "e5"}})  # fmt: skip
    app.backends.invalidate()
    [result] = llm.probe_backend(app, b)
    assert result["ok"] and result["detail"] == "384 dimensions"
    vectors, reply = llm.embed(app, [llm.Piece("credentials", "a local text stays local")])
    assert len(vectors[0]) == 384 and reply.backend == "inproc"
