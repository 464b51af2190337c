"""Vector hygiene (normalise, Matryoshka truncation, quality gate) and the embedder registry."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pytest
from plugin_kit import host_with

from ctx.core import ConfigError, EmbeddingError, PluginError, hookimpl
from ctx.core.embed import (
    Embedder,
    create_embedder,
    embedder_factories,
    l2_normalize,
    quality_gate,
    truncate_matryoshka,
)
from ctx.core.runtime import PluginHost

# --- l2_normalize -----------------------------------------------------------------------------


def test_l2_normalize_scales_each_row_to_unit_length() -> None:
    vecs = np.array([[3.0, 4.0], [0.0, -2.0]])
    out = l2_normalize(vecs)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, [[0.6, 0.8], [0.0, -1.0]], atol=1e-7)
    np.testing.assert_array_equal(vecs, [[3.0, 4.0], [0.0, -2.0]])  # input untouched


def test_l2_normalize_accepts_a_single_vector() -> None:
    out = l2_normalize([1.0, 1.0, 1.0, 1.0])
    assert out.shape == (4,)
    np.testing.assert_allclose(out, [0.5] * 4, atol=1e-7)


def test_l2_normalize_leaves_zero_vector_for_the_gate() -> None:
    out = l2_normalize(np.zeros((2, 3)))
    assert not np.isnan(out).any()
    np.testing.assert_array_equal(out, np.zeros((2, 3)))


# --- truncate_matryoshka ----------------------------------------------------------------------


def test_truncate_keeps_prefix_and_renormalises() -> None:
    rng = np.random.default_rng(1)
    vecs = l2_normalize(rng.standard_normal((3, 16)))
    out = truncate_matryoshka(vecs, 4)
    assert out.shape == (3, 4)
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, atol=1e-6)
    # Same direction as the prefix: only the length changed.
    prefix = vecs[:, :4] / np.linalg.norm(vecs[:, :4], axis=1, keepdims=True)
    np.testing.assert_allclose(out, prefix, atol=1e-6)


def test_truncate_to_full_width_only_normalises() -> None:
    out = truncate_matryoshka(np.array([[2.0, 0.0, 0.0]]), 3)
    np.testing.assert_allclose(out, [[1.0, 0.0, 0.0]])


def test_truncate_wider_than_the_vectors_fails_clearly() -> None:
    with pytest.raises(EmbeddingError, match=r"returned 8-dimensional vectors but 16"):
        truncate_matryoshka(np.ones((2, 8)), 16)


def test_truncate_to_zero_dimensions_is_a_config_error() -> None:
    with pytest.raises(ConfigError):
        truncate_matryoshka(np.ones((1, 8)), 0)


# --- quality_gate -----------------------------------------------------------------------------


def _good(rows: int = 3, dims: int = 32) -> np.ndarray:
    return l2_normalize(np.random.default_rng(7).standard_normal((rows, dims)))


def test_gate_passes_good_vectors_through() -> None:
    vecs = _good()
    out = quality_gate(vecs)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, vecs)


def test_gate_accepts_a_single_vector() -> None:
    assert quality_gate(_good(1)[0]).shape == (32,)


def test_gate_rejects_constant_vector_naming_the_row() -> None:
    vecs = _good()
    vecs[1] = l2_normalize(np.ones(32))  # unit length, but every value the same
    with pytest.raises(EmbeddingError, match=r"embedding 1 of 3 .*variance .*constant"):
        quality_gate(vecs)


def test_gate_rejects_zero_vector() -> None:
    vecs = _good()
    vecs[2] = 0.0
    with pytest.raises(EmbeddingError, match=r"embedding 2 of 3 .*norm is 0, .*zero vector"):
        quality_gate(vecs)


def test_gate_rejects_nan() -> None:
    vecs = _good()
    vecs[0, 5] = np.nan
    with pytest.raises(EmbeddingError, match=r"embedding 0 of 3 .*NaN"):
        quality_gate(vecs)


def test_gate_rejects_infinity() -> None:
    vecs = _good()
    vecs[1, 0] = np.inf
    with pytest.raises(EmbeddingError, match=r"embedding 1 .*infinite"):
        quality_gate(vecs)


def test_gate_rejects_unnormalised_vector() -> None:
    vecs = _good()
    vecs[0] *= 1.5
    with pytest.raises(EmbeddingError, match=r"norm is 1\.5, outside \[0\.99, 1\.01\]"):
        quality_gate(vecs)


def test_gate_rejects_vector_with_almost_no_spread() -> None:
    vec = np.full(32, 1.0)
    vec[0] += 0.01  # variance ~3e-6: nearly constant
    with pytest.raises(EmbeddingError, match="variance"):
        quality_gate(l2_normalize(vec))


def test_gate_rejects_empty_width() -> None:
    with pytest.raises(EmbeddingError, match="shape"):
        quality_gate(np.zeros((2, 0)))


# --- registry ---------------------------------------------------------------------------------


class FakeEmbedder:
    name = "fake"
    model = "fake-model"

    def __init__(self, options: Mapping[str, Any]) -> None:
        self.options = dict(options)
        self.dimensions = int(options.get("dimensions", 4))

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        return l2_normalize(np.ones((len(texts), self.dimensions)))

    def embed_query(self, text: str) -> np.ndarray:
        return self.embed_documents([text])[0]


class FakePlugin:
    @hookimpl
    def register_embedders(self, register: Callable[..., None]) -> None:
        register("fake", FakeEmbedder)
        register("broken", lambda options: object())


class DuplicatePlugin:
    @hookimpl
    def register_embedders(self, register: Callable[..., None]) -> None:
        register("fake", FakeEmbedder)


class MalformedPlugin:
    @hookimpl
    def register_embedders(self, register: Callable[..., None]) -> None:
        register("no-factory")


def _factories(**plugins: object) -> dict[str, Any]:
    """The embedder registry of a host holding exactly ``plugins`` (besides the core's own)."""
    return embedder_factories(host_with(*plugins.items()))


def test_registry_lists_factories_by_name() -> None:
    factories = _factories(fake=FakePlugin())
    assert sorted(factories) == ["broken", "fake"]
    assert factories["fake"] is FakeEmbedder


def test_create_embedder_passes_options_as_a_plain_dict() -> None:
    embedder = create_embedder(_factories(fake=FakePlugin()), "fake", {"dimensions": 8})
    assert isinstance(embedder, FakeEmbedder)
    assert isinstance(embedder, Embedder)
    assert embedder.options == {"dimensions": 8}
    assert embedder.embed_documents(["a", "b"]).shape == (2, 8)


def test_unknown_embedder_lists_the_known_ones() -> None:
    with pytest.raises(
        ConfigError, match=r"unknown embedder 'nope'; known embedders: broken, fake"
    ):
        create_embedder(_factories(fake=FakePlugin()), "nope", {})


def test_unknown_embedder_without_any_plugin() -> None:
    with pytest.raises(ConfigError, match="no embedder plugin"):
        create_embedder(_factories(), "minilm", {})


def test_duplicate_embedder_names_both_plugins() -> None:
    with pytest.raises(
        PluginError, match=r"embedder 'fake' registered twice: by \w+ and by \w+"
    ) as err:
        _factories(first=FakePlugin(), second=DuplicatePlugin())
    assert "first" in err.value.message
    assert "second" in err.value.message


def test_malformed_registration_is_a_plugin_error() -> None:
    with pytest.raises(PluginError, match=r"plugin bad must call register\(name, factory\)"):
        _factories(bad=MalformedPlugin())


def test_factory_returning_a_non_embedder_is_a_plugin_error() -> None:
    with pytest.raises(PluginError, match="'broken' factory returned object"):
        create_embedder(_factories(fake=FakePlugin()), "broken", {})


def test_builtin_plugins_register_local_and_openai_embedders() -> None:
    host = PluginHost(("embed-local", "embed-openai"), load_entry_points=False)
    assert sorted(embedder_factories(host)) == ["e5", "minilm", "openai"]
