"""The exact counters (``tokenizer``, ``tiktoken``), the plugin's registrations and the framing.

The tokenizer file is MiniLM's ``tokenizer.json`` extracted to a temporary folder. The tiktoken
counter reads a cache folder prepared from the reference tables (named by the SHA-1 of the URL,
as tiktoken names its downloads); with no network here, a counter that tried to download would
fail or hang, so passing tests also show it never does.
"""

from __future__ import annotations

import hashlib
import importlib.util
import threading
from pathlib import Path
from typing import Any

import pytest
import samples
import token_references
from tokenizers import Tokenizer

import ctx.plugins.tokens as plugin
from ctx.core import ConfigError
from ctx.core.governor import (
    TokenCounter,
    choose_counter,
    count_messages,
    message_tokens,
    token_counters,
)
from ctx.core.runtime import DEFAULT_PLUGINS, PluginHost, Registry, Settings
from ctx.plugins.tokens import estimate_counter, tiktoken_counter, tokenizer_counter
from ctx.plugins.tokens.exact import TIKTOKEN_FILES
from ctx.plugins.tokens.settings import SETTINGS

TEXTS = [
    "",
    "Hello world",
    samples.ENGLISH[:400],
    samples.GERMAN[:300],
    samples.CHINESE[:120],
    samples.PYTHON[:500],
    "[CLS] literal special tokens [SEP] and <|endoftext|>",
    "   \n\n\t  ",
]


@pytest.fixture
def tokenizer_file(tmp_path: Path) -> Path:
    try:
        raw = token_references.minilm_tokenizer_json()
    except LookupError as exc:
        pytest.skip(str(exc))
    path = tmp_path / "tokenizer.json"
    path.write_bytes(raw)
    return path


def _raw_tokenizer(path: Path) -> Tokenizer:
    tok = Tokenizer.from_file(str(path))
    tok.no_padding()  # MiniLM's file pads every encoding to 128 ids
    tok.no_truncation()
    return tok


# -- tokenizer.json ------------------------------------------------------------------------------


def test_tokenizer_counts_exactly(tokenizer_file: Path) -> None:
    counter = tokenizer_counter(lambda: str(tokenizer_file))
    assert counter.unavailable() is None
    assert counter.exact and counter.preference == 10
    raw = _raw_tokenizer(tokenizer_file)
    for text in TEXTS:
        assert counter.count(text) == len(raw.encode(text, add_special_tokens=False).ids), text


def test_tokenizer_never_truncates(tokenizer_file: Path) -> None:
    counter = tokenizer_counter(lambda: str(tokenizer_file))
    assert counter.count(samples.ENGLISH) > 128  # the file itself truncates at 128


def test_tokenizer_loads_once_for_all_threads(tokenizer_file: Path) -> None:
    counter = tokenizer_counter(lambda: str(tokenizer_file))
    results: list[int] = []

    def work() -> None:
        results.append(counter.count(samples.ENGLISH[:300]))

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(results)) == 1 and len(results) == 8
    loaded = plugin.exact._TOKENIZERS.loaded(str(tokenizer_file))
    assert loaded is not None and plugin.exact._tokenizer(lambda: str(tokenizer_file)) is loaded


def test_tokenizer_unavailable_says_why(tmp_path: Path) -> None:
    empty = tokenizer_counter(lambda: "")
    assert "tokens.tokenizer_file is not set" in (empty.unavailable() or "")
    missing = tokenizer_counter(lambda: str(tmp_path / "nope.json"))
    assert "does not exist" in (missing.unavailable() or "")
    broken_path = tmp_path / "broken.json"
    broken_path.write_text("{not json")
    broken = tokenizer_counter(lambda: str(broken_path))
    assert f"cannot read the tokenizer file {broken_path}" in (broken.unavailable() or "")
    with pytest.raises(ConfigError):
        broken.count("text")


def test_tokenizer_file_fixed_later_is_read(tmp_path: Path, tokenizer_file: Path) -> None:
    path = tmp_path / "later.json"
    path.write_text("{}")
    counter = tokenizer_counter(lambda: str(path))
    assert counter.unavailable() is not None
    path.write_bytes(tokenizer_file.read_bytes())  # another size: the failure is not reused
    assert counter.unavailable() is None
    assert counter.count("Hello world") == 2


# -- tiktoken ------------------------------------------------------------------------------------


@pytest.fixture
def tiktoken_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A tiktoken cache holding o200k and cl100k, as tiktoken would have left it."""
    if importlib.util.find_spec("tiktoken") is None:
        pytest.skip("needs the dev extra tiktoken")
    cache = tmp_path / "tiktoken-cache"
    cache.mkdir()
    for name, ref in (("o200k_base", "o200k"), ("cl100k_base", "cl100k")):
        try:
            data = token_references.bpe_table(ref)
        except LookupError as exc:
            pytest.skip(str(exc))
        ((url, _sha),) = TIKTOKEN_FILES[name]
        (cache / hashlib.sha1(url.encode()).hexdigest()).write_bytes(data)
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(cache))
    return cache


@pytest.mark.parametrize(
    ("encoding", "reference"), [("o200k_base", "o200k"), ("cl100k_base", "cl100k")]
)
def test_tiktoken_counts_exactly(
    tiktoken_cache: Path,
    references: dict[str, token_references.Reference],
    encoding: str,
    reference: str,
) -> None:
    counter = tiktoken_counter(lambda: encoding)
    assert counter.unavailable() is None
    assert counter.exact and counter.preference == 20
    for text in TEXTS:
        assert counter.count(text) == references[reference](text), text


def test_tiktoken_without_cache_is_unavailable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if importlib.util.find_spec("tiktoken") is None:
        pytest.skip("needs the dev extra tiktoken")
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    counter = tiktoken_counter(lambda: "o200k_base")
    assert "would be downloaded" in (counter.unavailable() or "")
    with pytest.raises(ConfigError):
        counter.count("text")
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")
    assert "switched off" in (counter.unavailable() or "")
    assert "unknown tiktoken encoding 'nope'" in (
        tiktoken_counter(lambda: "nope").unavailable() or ""
    )


def test_tiktoken_damaged_cache_is_not_downloaded_again(tiktoken_cache: Path) -> None:
    ((url, _sha),) = TIKTOKEN_FILES["cl100k_base"]
    cached = tiktoken_cache / hashlib.sha1(url.encode()).hexdigest()
    cached.write_bytes(cached.read_bytes()[:-10])
    counter = tiktoken_counter(lambda: "cl100k_base")
    assert "damaged" in (counter.unavailable() or "")
    assert cached.exists()  # tiktoken would have deleted it and gone to the network


def test_tiktoken_not_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec

    def without_tiktoken(name: str, *args: Any) -> Any:
        return None if name == "tiktoken" else real(name, *args)

    monkeypatch.setattr(importlib.util, "find_spec", without_tiktoken)
    reason = tiktoken_counter(lambda: "o200k_base").unavailable() or ""
    assert "tiktoken is not installed" in reason


# -- the plugin: registrations, settings, picking and framing -----------------------------------


def _host_counters(**environ: str) -> dict[str, TokenCounter]:
    return token_counters(PluginHost(("tokens",), load_entry_points=False), _settings(**environ))


def test_builtin_registration() -> None:
    assert DEFAULT_PLUGINS["tokens"] == "ctx.plugins.tokens"
    counters = _host_counters()
    bundled = {"o200k", "o200k_harmony", "cl100k", "llama3", "qwen"}
    assert set(counters) == {"estimate", "tokenizer", "tiktoken", *bundled}
    assert not counters["estimate"].exact and counters["estimate"].unavailable() is None
    for name in ("estimate", "tokenizer", "tiktoken", "o200k", "cl100k"):
        assert (counters[name].per_message, counters[name].per_reply) == (4, 3)
    for name in bundled:
        assert counters[name].exact and counters[name].unavailable() is None


def test_settings_are_registered() -> None:
    host = PluginHost(("tokens",), load_entry_points=False)
    registry = Registry()
    for reg in host.registrations("register_settings"):
        for item in reg.args:
            registry.add_registered(item, reg.plugin)
    assert registry.get("tokens.tokenizer_file").default == ""
    assert registry.get("tokens.tiktoken_encoding").default == "o200k_base"
    assert not any(s.hot for s in SETTINGS)


def _settings(**environ: str) -> Settings:
    registry = Registry()
    for setting in SETTINGS:
        registry.add(setting)
    return Settings(registry, environ)


def test_counters_read_the_apps_settings(tokenizer_file: Path) -> None:
    assert choose_counter(_host_counters(), "auto", ["gpt-4o"]).counter.name == "o200k"
    picked = choose_counter(
        _host_counters(CTX_TOKENS_TOKENIZER_FILE=str(tokenizer_file)), "auto", ["gpt-4o"]
    ).counter
    assert picked.name == "tokenizer" and picked.exact


def test_auto_takes_the_operators_tokenizer_for_every_model_and_tiktoken_only_by_name(
    tokenizer_file: Path, tiktoken_cache: Path
) -> None:
    estimate = estimate_counter()
    tokenizer = tokenizer_counter(lambda: str(tokenizer_file))
    tiktoken = tiktoken_counter(lambda: "o200k_base")
    off = tokenizer_counter(lambda: "")
    both = {c.name: c for c in (estimate, tokenizer, tiktoken)}
    for models in (["gpt-4o"], ["mistral-small"], []):
        assert choose_counter(both, "auto", models).counter is tokenizer
    # the tiktoken counter's encoding says nothing about the model: auto never guesses with it
    without = {"estimate": estimate, "tiktoken": tiktoken}
    assert choose_counter(without, "auto", ["gpt-4o"]).counter is estimate
    assert choose_counter(without, "tiktoken", ["llama3"]).counter is tiktoken
    assert choose_counter({"estimate": estimate, "tokenizer": off}, "auto").counter is estimate
    with pytest.raises(ConfigError, match=r"tokens\.tokenizer_file is not set"):
        choose_counter({"tokenizer": off}, "tokenizer")


MESSAGES = [
    {"role": "system", "content": "You are a careful assistant."},
    {"role": "user", "content": samples.ENGLISH[:500], "name": "alice"},
    {"role": "assistant", "content": samples.PYTHON[:300]},
    {"role": "tool", "content": None},
    {"role": "user", "content": samples.CHINESE[:60]},
]


def test_framing(tokenizer_file: Path) -> None:
    for counter in (estimate_counter(), tokenizer_counter(lambda: str(tokenizer_file))):
        expected = counter.per_reply
        for m in MESSAGES:
            expected += counter.per_message + counter.count(m["content"] or "")
            if m.get("name"):
                expected += 1 + counter.count(m["name"])
        assert count_messages(counter, MESSAGES) == expected
        assert message_tokens(counter, MESSAGES[0]) == 4 + counter.count(MESSAGES[0]["content"])
        assert count_messages(counter, []) == 3
