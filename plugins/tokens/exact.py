"""The exact counters an operator configures: a HuggingFace ``tokenizer.json`` and a tiktoken
encoding, read from disk (the tables that ship with ctx are in ``bundled``).

Each loads on first use, once per process for every thread, and never over the network: the
tokenizer file is named by a setting, and tiktoken (not a dependency of ctx) is used only when
the encoding's files are already in its cache with the published checksums, because on a miss
tiktoken downloads them, which on a machine without internet would stall the prompt that asked.
A load that failed is tried again only when the file changes.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ctx.core import ConfigError, TokenCounter

#: Chat framing: OpenAI documents 3 tokens per message (+1 for a name) and 3 to prime the reply;
#: 4 per message keeps a margin for templates that spend more.
PER_MESSAGE = 4
PER_REPLY = 3

_OPENAI = "https://openaipublic.blob.core.windows.net"
_O200K = (
    f"{_OPENAI}/encodings/o200k_base.tiktoken",
    "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
)
_P50K = (
    f"{_OPENAI}/encodings/p50k_base.tiktoken",
    "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069",
)
#: tiktoken's encodings: the files it would download, with the SHA-256 it expects. Its cache
#: names a file by the SHA-1 of its URL.
TIKTOKEN_FILES: dict[str, tuple[tuple[str, str], ...]] = {
    "o200k_base": (_O200K,),
    "o200k_harmony": (_O200K,),
    "cl100k_base": (
        (
            f"{_OPENAI}/encodings/cl100k_base.tiktoken",
            "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        ),
    ),
    "p50k_base": (_P50K,),
    "p50k_edit": (_P50K,),
    "r50k_base": (
        (
            f"{_OPENAI}/encodings/r50k_base.tiktoken",
            "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930",
        ),
    ),
    "gpt2": (
        (
            f"{_OPENAI}/gpt-2/encodings/main/vocab.bpe",
            "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5",
        ),
        (
            f"{_OPENAI}/gpt-2/encodings/main/encoder.json",
            "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783",
        ),
    ),
}


class Loader:
    """Loads one object per key, once for all threads; a failure is remembered with the stamp
    (the file's size and time) it was seen with, so a fixed file is read again."""

    def __init__(self, load: Callable[[str], Any]) -> None:
        self._load = load
        self._lock = threading.Lock()
        self._loaded: dict[str, Any] = {}
        self._failed: dict[str, tuple[object, str]] = {}

    def loaded(self, key: str) -> Any | None:
        return self._loaded.get(key)

    def get(self, key: str, stamp: object) -> Any:
        """The object for ``key``; ``ConfigError`` saying why when it cannot be loaded."""
        found = self._loaded.get(key)
        if found is not None:
            return found
        with self._lock:
            found = self._loaded.get(key)
            if found is not None:
                return found
            failed = self._failed.get(key)
            if failed is not None and failed[0] == stamp:
                raise ConfigError(failed[1])
            try:
                found = self._loaded[key] = self._load(key)
            except Exception as exc:
                why = str(exc) if isinstance(exc, ConfigError) else f"{type(exc).__name__}: {exc}"
                self._failed[key] = (stamp, why)
                raise ConfigError(why) from exc
            return found


def _stamp(path: str) -> object:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_size, info.st_mtime_ns)


# -- a HuggingFace tokenizer.json ----------------------------------------------------------------


def _load_tokenizer(path: str) -> Any:
    from tokenizers import Tokenizer

    try:
        tokenizer = Tokenizer.from_file(path)
    except Exception as exc:
        raise ConfigError(f"cannot read the tokenizer file {path}: {exc}") from exc
    # A count must see the whole text: files made for training truncate and pad (MiniLM: 128).
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return tokenizer


_TOKENIZERS = Loader(_load_tokenizer)


def _tokenizer(path_setting: Callable[[], str]) -> Any:
    setting = path_setting()
    path = str(Path(setting).expanduser()) if setting else ""
    found = _TOKENIZERS.loaded(path)
    if found is not None:
        return found
    if not path:
        raise ConfigError("tokens.tokenizer_file is not set (the path of a tokenizer.json)")
    if not os.path.isfile(path):
        raise ConfigError(f"the tokenizer file {path} (tokens.tokenizer_file) does not exist")
    return _TOKENIZERS.get(path, _stamp(path))


def tokenizer_counter(path_setting: Callable[[], str]) -> TokenCounter:
    """Exact counts from the ``tokenizer.json`` that ``path_setting()`` names, without the
    special tokens a model adds around a sequence (the framing costs cover those)."""

    def count(text: str) -> int:
        return len(_tokenizer(path_setting).encode(text, add_special_tokens=False).ids)

    return TokenCounter(
        name="tokenizer",
        count=count,
        exact=True,
        per_message=PER_MESSAGE,
        per_reply=PER_REPLY,
        description=(
            "Exact counts with the HuggingFace tokenizer.json named by tokens.tokenizer_file; "
            "when it is set, auto counts every model with it."
        ),
        preference=10,
        unavailable=lambda: problem(lambda: _tokenizer(path_setting)),
        # the operator named the tokenizer of their models: it wins over the bundled tables
        counts_for=lambda model: True,
    )


# -- a tiktoken encoding -------------------------------------------------------------------------


def tiktoken_cache_dir() -> str:
    """Where tiktoken keeps its downloads (its own rule); empty when caching is switched off."""
    for variable in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR"):
        if variable in os.environ:
            return os.environ[variable]
    return os.path.join(tempfile.gettempdir(), "data-gym-cache")


def _cached_files(name: str) -> list[tuple[str, str]]:
    """The cache paths of an encoding's files with their SHA-256; ``ConfigError`` if any is
    missing, since loading would download it."""
    if importlib.util.find_spec("tiktoken") is None:
        raise ConfigError("the Python package tiktoken is not installed: pip install tiktoken")
    files = TIKTOKEN_FILES.get(name)
    if files is None:
        known = ", ".join(sorted(TIKTOKEN_FILES))
        raise ConfigError(
            f"unknown tiktoken encoding {name!r} (tokens.tiktoken_encoding); known: {known}"
        )
    cache = tiktoken_cache_dir()
    if not cache:
        raise ConfigError(
            "tiktoken's cache is switched off (TIKTOKEN_CACHE_DIR is empty), so it would download"
        )
    found = []
    for url, sha256 in files:
        path = os.path.join(cache, hashlib.sha1(url.encode()).hexdigest())
        if not os.path.isfile(path):
            raise ConfigError(
                f"tiktoken encoding {name} is not in tiktoken's cache {cache} and would be "
                "downloaded; load it once where there is network and copy the cache here "
                "(TIKTOKEN_CACHE_DIR names it)"
            )
        found.append((path, sha256))
    return found


def _load_encoding(key: str) -> Any:
    name = key.split("\0")[0]
    for path, sha256 in _cached_files(name):
        # tiktoken deletes and downloads again a cached file whose checksum is wrong
        if hashlib.sha256(Path(path).read_bytes()).hexdigest() != sha256:
            raise ConfigError(f"tiktoken's cached file {path} for {name} is damaged; delete it")
    import tiktoken

    return tiktoken.get_encoding(name)


_ENCODINGS = Loader(_load_encoding)


def _encoding(name_setting: Callable[[], str]) -> Any:
    name = name_setting()
    key = f"{name}\0{tiktoken_cache_dir()}"
    found = _ENCODINGS.loaded(key)
    if found is not None:
        return found
    files = _cached_files(name)
    return _ENCODINGS.get(key, tuple(_stamp(path) for path, _ in files))


def tiktoken_counter(name_setting: Callable[[], str]) -> TokenCounter:
    """Exact counts with the tiktoken encoding ``name_setting()`` names; special-token text
    (``<|endoftext|>``) counts as ordinary text."""

    def count(text: str) -> int:
        return len(_encoding(name_setting).encode_ordinary(text))

    return TokenCounter(
        name="tiktoken",
        count=count,
        exact=True,
        per_message=PER_MESSAGE,
        per_reply=PER_REPLY,
        description=(
            "Exact counts with the tiktoken encoding named by tokens.tiktoken_encoding, from "
            "tiktoken's local cache (never downloads)."
        ),
        preference=20,
        unavailable=lambda: problem(lambda: _encoding(name_setting)),
    )


def problem(load: Callable[[], Any]) -> str | None:
    try:
        load()
    except ConfigError as exc:
        return exc.message
    return None
