"""The shipped word list holds to the rules the estimator prices it by, in every reference.

``build_lexicon.rejected`` is the builder's own check: a word is one token after a space in
every BPE and one WordPiece, and costs at most ``min(len, 3)`` bare or glued to a ``GLUE``
character beyond that character's price. A hand-edited or stale ``lexicon.json`` fails here.
"""

from __future__ import annotations

import re

import build_lexicon
import pytest
import token_references

from ctx.plugins.tokens.estimate import lexicon

pytestmark = pytest.mark.slow  # scheduled first (tests/conftest.py)


def test_words_are_ascii_letters() -> None:
    words = lexicon()
    assert len(words) > 5_000
    assert all(re.fullmatch(r"[A-Za-z]{2,}", w) for w in words)


def test_every_word_holds_in_every_reference(
    references: dict[str, token_references.Reference],
) -> None:
    missing = {"o200k", "cl100k", "llama3", "qwen", "wordpiece"} - set(references)
    if missing:
        pytest.skip(f"needs every reference: {token_references.MISSING}")
    # every word after a space and bare; glued to each GLUE character,
    # every 31st word (the builder tries them all; test_estimate draws random words in every
    # context)
    assert build_lexicon.rejected(sorted(lexicon()), glued_sample=31) == set()
