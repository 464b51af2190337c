"""The counters whose tables ship with ctx: each counts exactly what its model's tokenizer counts
(tiktoken running the published table, ``token_references``), and ``auto`` gives each model its
family's counter, or the estimate, saying why, for a model of no known family."""

from __future__ import annotations

import random
import subprocess
import sys
import unicodedata

import pytest
import samples
import token_references

from ctx.core.governor import TokenCounter, choose_counter, count_messages, token_counters
from ctx.core.runtime import PluginHost, Registry, Settings
from ctx.plugins.tokens import FAMILIES, bundled_counter, estimate_counter, family_of
from ctx.plugins.tokens.families import Family
from ctx.plugins.tokens.settings import SETTINGS


def _random_texts(n: int) -> list[str]:
    """Seeded texts of every kind: letters, digits, blanks, punctuation, any Unicode."""
    rnd = random.Random(36)
    pools = [
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "0123456789 ,.;:!?'\"()[]{}<>-_/\\\n\t  ",
        "äöüßéèñçÅØæœ’“”—…€",
        "日本語中文한국어Русскийαβγ\u0301\u0308\ufdfa🚀👍🏽",
    ]
    texts = []
    for _ in range(n):
        size = rnd.randrange(1, 60)
        texts.append("".join(rnd.choice(rnd.choice(pools)) for _ in range(size)))
    return texts


TEXTS = [
    "",
    "Hello world",
    *samples.PROSE.values(),
    samples.PYTHON,
    "literal special tokens <|endoftext|> <|im_start|> <|begin_of_text|>",
    "   \n\n\t  " * 5,
    unicodedata.normalize("NFD", "Café, naïve, Ångström"),  # Qwen normalises to NFC first
    *_random_texts(400),
]
#: the counter's family and the reference tokenizer that checks it
REFERENCES = {
    "o200k": "o200k",
    "o200k_harmony": "o200k",
    "cl100k": "cl100k",
    "llama3": "llama3",
    "qwen": "qwen",
}


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_bundled_counters_count_exactly(
    references: dict[str, token_references.Reference], family: Family
) -> None:
    counter = bundled_counter(family)
    reference = references.get(REFERENCES[counter.name])
    if reference is None:
        pytest.skip(token_references.MISSING.get(REFERENCES[counter.name], "no reference"))
    assert counter.exact and counter.unavailable() is None
    wrong = [
        (text, got, want)
        for text, want in zip(TEXTS, reference.batch(TEXTS), strict=True)
        if (got := counter.count(text)) != want
    ]
    assert wrong == []


@pytest.mark.parametrize(
    ("model", "family"),
    [
        ("gpt-4o", "o200k"),
        ("gpt-4o-mini-2024-07-18", "o200k"),
        ("openai/gpt-4.1-nano", "o200k"),
        ("chatgpt-4o-latest", "o200k"),
        ("gpt-5", "o200k"),
        ("o1", "o200k"),
        ("o3-mini", "o200k"),
        ("o4-mini", "o200k"),
        ("ft:gpt-4o-mini:acme::abc123", "o200k"),
        ("gpt-oss:20b", "o200k_harmony"),
        ("openai/gpt-oss-120b", "o200k_harmony"),
        ("gpt-4", "cl100k"),
        ("gpt-4-turbo", "cl100k"),
        ("gpt-4-0613", "cl100k"),
        ("gpt-3.5-turbo", "cl100k"),
        ("gpt-35-turbo", "cl100k"),
        ("text-embedding-3-small", "cl100k"),
        ("llama3", "llama3"),
        ("llama3.1:8b", "llama3"),
        ("llama3.2:latest", "llama3"),
        ("meta-llama/Llama-3.3-70B-Instruct", "llama3"),
        ("Meta-Llama-3-8B-Instruct-Q4_K_M.gguf", "llama3"),
        ("hermes-3-llama-3.1-8b", "llama3"),
        ("qwen2.5-coder:7b", "qwen"),
        ("Qwen/Qwen3-8B", "qwen"),
        ("qwen2:1.5b", "qwen"),
        ("qwq:32b", "qwen"),
        # other vocabularies, or versions the table does not name: no known tokenizer
        ("codellama:7b", None),
        ("llama2", None),
        ("llama-4-scout", None),
        ("llama3.5", None),
        ("qwen3.5", None),
        ("gpt-40", None),
        ("mistral-small", None),
        ("gemma3:4b", None),
        ("deepseek-r1", None),
        ("tinyllama", None),
        ("my-azure-deployment", None),
        ("", None),
    ],
)
def test_family_of_a_model_name(model: str, family: str | None) -> None:
    found = family_of(model)
    assert (found.name if found else None) == family


def _host_counters() -> dict[str, TokenCounter]:
    registry = Registry()
    for setting in SETTINGS:
        registry.add(setting)
    host = PluginHost(("tokens",), load_entry_points=False)
    return token_counters(host, Settings(registry, {}))


def test_auto_counts_each_model_with_its_own_tokenizer() -> None:
    counters = _host_counters()
    for model, name in (("gpt-4o", "o200k"), ("llama3.1:8b", "llama3"), ("qwen3:8b", "qwen")):
        choice = choose_counter(counters, "auto", [model])
        assert choice.counter.name == name and choice.counter.exact
        assert choice.as_json() == {
            "counter": name,
            "exact": True,
            "models": [model],
            "fallback": None,
        }


def test_auto_falls_back_to_the_estimate_and_says_why() -> None:
    counters = _host_counters()
    unknown = choose_counter(counters, "auto", ["gpt-4o", "mistral-small"])
    assert unknown.counter.name == "estimate" and not unknown.counter.exact
    assert unknown.fallback == "no tokenizer is known for 'mistral-small'"
    nothing = choose_counter(counters, "auto", [])
    assert nothing.counter.name == "estimate"
    assert nothing.fallback is not None and "no model is known" in nothing.fallback
    named = choose_counter(counters, "cl100k", ["mistral-small"])
    assert named.counter.name == "cl100k" and named.fallback is None


def test_models_with_different_tokenizers_get_the_most_either_counts(
    references: dict[str, token_references.Reference],
) -> None:
    counters = _host_counters()
    models = ["gpt-4o", "llama3.1:8b", "gpt-4o"]
    choice = choose_counter(counters, "auto", models)
    both = choice.counter
    assert both.name == "llama3+o200k" and not both.exact and choice.fallback is None
    assert choice.models == ("gpt-4o", "llama3.1:8b")
    assert (both.per_message, both.per_reply) == (5, 5)  # Llama 3's chat format costs more
    messages = [{"role": "user", "content": text} for text in TEXTS[:12]]
    for name in ("o200k", "llama3"):
        own = counters[name]
        assert count_messages(both, messages) >= count_messages(own, messages)
    for text in TEXTS[:40]:
        assert both.count(text) == max(references["o200k"](text), references["llama3"](text))


def test_the_estimate_still_bounds_every_family() -> None:
    estimate = estimate_counter()
    for family in FAMILIES:
        counter = bundled_counter(family)
        for text in TEXTS[:12]:
            assert estimate.count(text) >= counter.count(text), (family.name, text[:40])


def test_choosing_loads_only_the_tables_the_models_need() -> None:
    """Each table costs memory and a second to load: picking gpt-4o's loads o200k alone."""
    code = (
        "from ctx.core.governor import choose_counter, token_counters\n"
        "from ctx.core.runtime import PluginHost, Registry, Settings\n"
        "from ctx.plugins.tokens import bundled\n"
        "from ctx.plugins.tokens.settings import SETTINGS\n"
        "registry = Registry()\n"
        "for s in SETTINGS: registry.add(s)\n"
        "host = PluginHost(('tokens',), load_entry_points=False)\n"
        "counters = token_counters(host, Settings(registry, {}))\n"
        "assert bundled._TABLES.loaded('o200k_base') is None\n"
        "print(choose_counter(counters, 'auto', ['gpt-4o']).counter.name)\n"
        "print([e for e in ('o200k_base', 'cl100k_base', 'llama3', 'qwen3', 'o200k_harmony')"
        " if bundled._TABLES.loaded(e) is not None])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.split("\n")[:2] == ["o200k", "['o200k_base']"]
