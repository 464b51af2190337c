"""Rebuild ``plugins/tokens/lexicon.json``, the words the estimator may count as one token.

    .venv/bin/python tests/plugins/tokens/build_lexicon.py

Candidates are the ASCII words among cl100k's 30,000 most frequent merges (rank order is merge
order, so a fair proxy for frequency). A word is kept only when every reference tokenizer
(``token_references``) agrees, in every context the estimator prices it in:

- after a space (``" word"``): one token in each BPE, and the word alone one WordPiece token;
- bare, at the start of a text or a line: at most ``min(len, 3)`` tokens;
- glued to a character the BPE pre-tokenizers join to a following word (ASCII punctuation, a tab,
  the common non-ASCII quotes, dashes and spaces in ``estimate.GLUE``): at most that character's
  own price plus ``min(len, 3)``.

``test_lexicon.py`` checks the shipped file against the same rules, so a stale or hand-edited
list fails there.
"""

from __future__ import annotations

import base64
import json
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(HERE))

import token_references  # noqa: E402  (this folder, put on the path above)

MAX_RANK = 30_000
ABOUT = (
    "ASCII words the 'estimate' token counter counts as one token after a space; every "
    "reference tokenizer agrees (tests/plugins/tokens/build_lexicon.py builds this file, "
    "tests/plugins/tokens/test_lexicon.py checks it)."
)


def glue_chars() -> str:
    from ctx.plugins.tokens.estimate import GLUE

    return "".join(sorted(GLUE))


def glue_price(char: str) -> int:
    from ctx.plugins.tokens.estimate import glue_price

    return glue_price(char)


def candidates() -> list[str]:
    """cl100k's ``" word"`` tokens of two or more ASCII letters, most frequent first."""
    word = re.compile(r"^ [A-Za-z]{2,}$")
    ranked = []
    for line in token_references.bpe_table("cl100k").splitlines():
        token, rank = line.split()
        text = base64.b64decode(token).decode("latin-1")
        if int(rank) < MAX_RANK and word.match(text):
            ranked.append((int(rank), text[1:]))
    return [w for _, w in sorted(ranked)]


def rejected(words: Sequence[str], glued_sample: int = 1) -> set[str]:
    """The words some reference prices above what the estimator would charge; glued contexts
    are tried for every ``glued_sample``-th word only (the test's shortcut)."""
    refs = token_references.references()
    if set(refs) != {"o200k", "cl100k", "llama3", "qwen", "wordpiece"}:
        raise SystemExit(
            f"every reference is needed to build the lexicon: {token_references.MISSING}"
        )
    bpe = ["o200k", "cl100k", "llama3", "qwen"]
    bad: set[str] = set()

    def check(
        prefix: str, chosen: Sequence[str], limit: Callable[[str], int], names: Sequence[str]
    ) -> None:
        texts = [prefix + w for w in chosen]
        for name in names:
            for w, n in zip(chosen, refs[name].batch(texts), strict=True):
                if n > limit(w):
                    bad.add(w)

    def cap(word: str) -> int:
        return min(len(word), 3)

    check(" ", words, lambda w: 1, bpe)
    check("", words, lambda w: 1, ["wordpiece"])
    check("", words, cap, bpe)
    for char in glue_chars():
        price = glue_price(char)
        check(
            char, words[::glued_sample], lambda w, price=price: price + cap(w), [*bpe, "wordpiece"]
        )
    return bad


def build() -> list[str]:
    words = candidates()
    bad = rejected(words)
    return sorted(w for w in words if w not in bad)


def main() -> None:
    words = build()
    target = ROOT / "plugins" / "tokens" / "lexicon.json"
    target.write_text(json.dumps({"about": ABOUT, "words": words}, indent=0) + "\n")
    print(f"{len(words)} words -> {target}")


if __name__ == "__main__":
    main()
