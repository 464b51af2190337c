"""The OpenAI-compatible embeddings client, against a real HTTP server on loopback."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import numpy as np
import openai_server
import pytest

from ctx.core import ConfigError, EmbeddingError
from ctx.core.embed import create_embedder, embedder_factories, l2_normalize
from ctx.core.runtime import PluginHost
from ctx.plugins.embed.openai_embedder import OpenAIEmbedder

NATIVE = 64


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    with openai_server.OpenAIServer(native_dimensions=NATIVE) as srv:
        yield srv


@pytest.fixture
def fresh(server: Any) -> Any:
    server.reset("ok")
    return server


def _factories() -> dict[str, Any]:
    """The embedders the plugin alone provides."""
    return embedder_factories(PluginHost(("embed-openai",), load_entry_points=False))


def _embedder(server: Any, **options: Any) -> OpenAIEmbedder:
    opts = {"base_url": server.base_url, "model": "test-embed", "dimensions": NATIVE, **options}
    embedder = create_embedder(_factories(), "openai", opts)
    assert isinstance(embedder, OpenAIEmbedder)
    return embedder


def _expected(text: str, dims: int = NATIVE) -> np.ndarray:
    return l2_normalize(openai_server.hash_vector(text, NATIVE)[:dims])


def test_documents_are_embedded_normalised_and_in_order(fresh: Any) -> None:
    texts = ["alpha", "beta", "gamma"]
    vecs = _embedder(fresh).embed_documents(texts)
    assert vecs.shape == (3, NATIVE) and vecs.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-6)
    np.testing.assert_allclose(vecs, np.stack([_expected(t) for t in texts]), atol=1e-6)
    [request] = fresh.requests
    assert request.path == "/v1/embeddings"
    assert request.body["model"] == "test-embed"
    assert request.body["input"] == texts


def test_prefixes_arrive_at_the_server(fresh: Any) -> None:
    embedder = _embedder(
        fresh,
        query_prefix="Instruct: Represent the query for retrieving relevant documents\nQuery: ",
        document_prefix="Represent the document for retrieval: ",
    )
    doc = embedder.embed_documents(["the backup runs at night"])[0]
    query = embedder.embed_query("when does the backup run?")
    assert [r.body["input"] for r in fresh.requests] == [
        ["Represent the document for retrieval: the backup runs at night"],
        [
            "Instruct: Represent the query for retrieving relevant documents\nQuery: "
            "when does the backup run?"
        ],
    ]
    np.testing.assert_allclose(
        doc, _expected("Represent the document for retrieval: the backup runs at night"), atol=1e-6
    )
    assert query.shape == (NATIVE,)


def test_matryoshka_truncation_keeps_the_prefix_renormalised(fresh: Any) -> None:
    embedder = _embedder(fresh, dimensions=16)
    vecs = embedder.embed_documents(["one", "two"])
    assert embedder.dimensions == 16
    assert vecs.shape == (2, 16)
    np.testing.assert_allclose(vecs[1], _expected("two", 16), atol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-6)


def test_results_are_realigned_by_index(fresh: Any) -> None:
    fresh.reset("reversed")
    texts = ["first", "second", "third", "fourth"]
    vecs = _embedder(fresh).embed_documents(texts)
    np.testing.assert_allclose(vecs, np.stack([_expected(t) for t in texts]), atol=1e-6)


def test_batches_of_batch_size(fresh: Any) -> None:
    texts = [f"text {i}" for i in range(7)]
    vecs = _embedder(fresh, batch_size=3).embed_documents(texts)
    assert [len(r.body["input"]) for r in fresh.requests] == [3, 3, 1]
    np.testing.assert_allclose(vecs, np.stack([_expected(t) for t in texts]), atol=1e-6)


def test_api_key_is_sent_as_bearer_token(fresh: Any) -> None:
    _embedder(fresh, api_key="sk-test-123").embed_query("hello")
    assert fresh.requests[0].headers["Authorization"] == "Bearer sk-test-123"
    fresh.reset("ok")
    _embedder(fresh).embed_query("hello")
    assert "Authorization" not in fresh.requests[0].headers


@pytest.mark.parametrize("suffix", ["", "/", "/v1", "/v1/embeddings"])
def test_base_url_forms(fresh: Any, suffix: str) -> None:
    embedder = _embedder(fresh, base_url=fresh.base_url + suffix)
    assert embedder.url == fresh.base_url + "/v1/embeddings"
    assert embedder.embed_query("x").shape == (NATIVE,)


@pytest.mark.parametrize(
    ("behaviour", "message"),
    [
        ("constant", r"embedding 0 of 2 failed the quality gate: .*variance"),
        ("zero", r"embedding 0 of 2 failed the quality gate: .*zero vector"),
        ("nan", r"embedding 0 of 2 failed the quality gate: .*NaN"),
    ],
)
def test_degenerate_vectors_are_rejected(fresh: Any, behaviour: str, message: str) -> None:
    fresh.reset(behaviour)
    with pytest.raises(EmbeddingError, match=message):
        _embedder(fresh).embed_documents(["a", "b"])


def test_wrong_length_vectors_are_rejected(fresh: Any) -> None:
    fresh.reset("short")
    with pytest.raises(EmbeddingError, match="malformed response: vectors of different lengths"):
        _embedder(fresh).embed_documents(["a", "b"])


def test_vectors_shorter_than_configured_dimensions_are_rejected(fresh: Any) -> None:
    with pytest.raises(EmbeddingError, match=r"returned 64-dimensional vectors but 128"):
        _embedder(fresh, dimensions=128).embed_query("a")


def test_http_error_becomes_embedding_error_with_server_message(fresh: Any) -> None:
    fresh.reset("error500")
    with pytest.raises(EmbeddingError, match=r"answered HTTP 500: model failed to load") as err:
        _embedder(fresh).embed_query("a")
    assert err.value.status_code == 502


def test_malformed_response_is_rejected(fresh: Any) -> None:
    fresh.reset("malformed")
    with pytest.raises(EmbeddingError, match='malformed response: no "data" list'):
        _embedder(fresh).embed_documents(["a"])


def test_unknown_path_is_reported(fresh: Any) -> None:
    embedder = _embedder(fresh, base_url=fresh.base_url + "/nope")
    with pytest.raises(EmbeddingError, match="HTTP 404: no route /nope/v1/embeddings"):
        embedder.embed_query("a")


def test_unreachable_server_is_an_embedding_error() -> None:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    embedder = OpenAIEmbedder(f"http://127.0.0.1:{port}", "m", 8, timeout=2)
    with pytest.raises(EmbeddingError, match="cannot reach the embedding server"):
        embedder.embed_query("a")


def test_timeout_is_an_embedding_error() -> None:
    with socket.socket() as sock:  # accepts connections but never answers
        sock.bind(("127.0.0.1", 0))
        sock.listen(1)
        port = sock.getsockname()[1]
        embedder = OpenAIEmbedder(f"http://127.0.0.1:{port}", "m", 8, timeout=0.3)
        with pytest.raises(EmbeddingError, match="timed out"):
            embedder.embed_query("a")


def test_empty_input_makes_no_request(fresh: Any) -> None:
    assert _embedder(fresh).embed_documents([]).shape == (0, NATIVE)
    assert fresh.requests == []


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"model": "m", "dimensions": 8}, "'base_url' is required"),
        ({"base_url": "http://x", "dimensions": 8}, "'model' is required"),
        ({"base_url": "http://x", "model": "m"}, "'dimensions' is required"),
        ({"base_url": "http://x", "model": "m", "dimensions": "wide"}, "whole number"),
        ({"base_url": "http://x", "model": "m", "dimensions": 8, "timeout": "soon"}, "a number"),
    ],
)
def test_option_errors(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        create_embedder(_factories(), "openai", options)
