"""The ``estimate`` token counter: an upper bound on what real tokenizers count, in pure Python.

The governor falls back on it when no exact tokenizer is configured, so it must never count fewer
tokens than the tokenizers of the models people use: byte-level BPEs (GPT-4o's o200k, GPT-4's
cl100k, Llama 3, Qwen), sentencepiece with byte fallback and BERT's WordPiece. It splits a text
the way the GPT pre-tokenizers do and prices each piece at the worst case of its kind:

- Non-ASCII characters: their UTF-8 bytes. A byte-level BPE spends at most one token per byte,
  byte fallback the same, WordPiece at most one per character. Where the text is not already in
  NFC and NFKC (Qwen normalises to NFC, some sentencepiece models to NFKC, and either can grow a
  character: U+FDFA becomes 18 letters), each run costs the bytes of its NFD or NFKD form if
  longer, since composing after the per-character decomposition only shortens it.
- Digits, ASCII punctuation and control characters: one token each. Qwen and sentencepiece split
  digits one by one; WordPiece splits every punctuation character.
- Runs of spaces, tabs or newlines: one token per eight (the BPEs have single tokens for 16
  newlines or tabs and 64 spaces; WordPiece drops blanks). The last blank before anything else
  is priced as a token of its own, since the pre-tokenizers split it off and glue it to what
  follows; except one space before an ASCII word or punctuation, which every vocabulary merges
  (" the", " (") and which the word's price below covers.
- An ASCII word (a run of letters): one token per letter. On random letters WordPiece does spend
  that, the BPEs up to 0.9 per letter. A word in ``lexicon.json`` costs 1 after a space, and
  ``min(len, 3)`` at the start of the text, after a newline or glued to a ``GLUE`` character
  (which keeps its own price) — provided what follows cannot join it in any tokenizer: ASCII
  punctuation, a digit, a blank, a ``GLUE`` character or the end (WordPiece splits there; a BPE
  word ends at any non-letter). ``tests/plugins/tokens/build_lexicon.py`` keeps only the words
  whose price in each of those contexts every reference tokenizer confirms (o200k, cl100k, Llama
  3, Qwen, BERT uncased), and ``test_lexicon.py`` checks the shipped list.

No sentencepiece model was at hand to test against: for it the bound rests on the byte count
(its byte fallback) and, for ASCII words, on the WordPiece vocabulary (30,000 pieces, like
Llama 2's 32,000) agreeing. The property tests compare the estimate with the references on random
text of every Unicode category, prose in nine scripts, code, and runs of blanks, digits and
punctuation. Measured against cl100k it counts about 1.3 times on English prose, 2 on code, 2.5
to 2.8 on German, French, Chinese and Japanese, 3.8 on Russian.
"""

from __future__ import annotations

import json
import re
import string
import unicodedata
from functools import cache
from importlib import resources

#: the most a ``lexicon.json`` word costs where no space precedes it
OTHER_CONTEXT_CAP = 3

ASCII_PUNCTUATION = frozenset(string.punctuation)
#: non-ASCII characters the pre-tokenizers glue to a following word, whose effect the lexicon
#: was measured with: no-break space, guillemets, inverted marks, middle dot, dashes, curly
#: quotes, bullet, ellipsis. All are punctuation or spaces, so WordPiece splits at them too.
GLUE_NON_ASCII = "\u00a0\u00ab\u00bb\u00a1\u00bf\u00b7\u2013\u2014\u2018\u2019\u201a\u201c\u201d\u201e\u2022\u2026\u2039\u203a"
GLUE = frozenset(ASCII_PUNCTUATION | {"\t"} | set(GLUE_NON_ASCII))

_PUNCT_CLASS = r"!-/:-@\[-`{-~"
# After a lexicon word, what keeps it whole in every tokenizer: ASCII punctuation, a digit, a
# blank, a glue character, or the end of the text.
_CLEAN_AFTER = rf"(?=[ \t\n\r0-9{_PUNCT_CLASS}{GLUE_NON_ASCII}]|\Z)"
# A word after one space (with the space), and a word at the start of the text or right after a
# newline or a glue character (without it): the two contexts the lexicon prices.
_SPACED_WORD = re.compile(rf" [A-Za-z]{{2,}}{_CLEAN_AFTER}")
_GLUED_WORD = re.compile(rf"[\t\n\r{_PUNCT_CLASS}{GLUE_NON_ASCII}]([A-Za-z]{{2,}}){_CLEAN_AFTER}")
_FIRST_WORD = re.compile(rf"[A-Za-z]{{2,}}{_CLEAN_AFTER}")
# Blank runs that cost something: all but a single space before an ASCII word or punctuation.
_BLANKS = re.compile(rf" {{2,}}|\t+| (?![A-Za-z{_PUNCT_CLASS}])")
_LONE_SPACE = re.compile(rf" (?![A-Za-z{_PUNCT_CLASS}])")
_MERGES_A_SPACE = frozenset(ASCII_PUNCTUATION | set(string.ascii_letters))
_BLANK_AFTER = frozenset(" \t\n\r\x0b\x0c")
_NEWLINES = re.compile(r"\n{2,}")
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


@cache
def lexicon() -> frozenset[str]:
    """The words that cost one token after a space (loaded on first use)."""
    raw = resources.files(__package__).joinpath("lexicon.json").read_text(encoding="utf-8")
    return frozenset(json.loads(raw)["words"])


@cache
def _spaced_lexicon() -> frozenset[str]:
    return frozenset(" " + word for word in lexicon())


def glue_price(char: str) -> int:
    """What ``count`` charges for one glue character standing right before a word."""
    return 1 if char < "\x80" else len(char.encode("utf-8"))


def _lexicon_discount(text: str) -> int:
    """How many tokens the lexicon words save against one token per letter."""
    spaced = list(filter(_spaced_lexicon().__contains__, _SPACED_WORD.findall(text)))
    saved = sum(map(len, spaced)) - 2 * len(spaced)  # " word" costs 1, not len - 1
    glued = _GLUED_WORD.findall(text)
    first = _FIRST_WORD.match(text)
    if first:
        glued.append(first.group())
    for word in filter(lexicon().__contains__, glued):
        saved += max(0, len(word) - OTHER_CONTEXT_CAP)
    return saved


def _blank_tokens(text: str) -> int:
    """Spaces and tabs beyond the free ones, and newline runs beyond one token each."""
    if "  " not in text and "\t" not in text:
        # only single spaces: each costs one token unless a word or punctuation takes it
        total = len(_LONE_SPACE.findall(text))
    else:
        total = _blank_run_tokens(text)
    newlines = text.count("\n")
    if "\n\n" in text:
        for run in _NEWLINES.findall(text):
            newlines -= len(run) - (len(run) + 7) // 8
    return total + newlines


def _blank_run_tokens(text: str) -> int:
    total = 0
    for match in _BLANKS.finditer(text):
        size = match.end() - match.start()
        after = text[match.end()] if match.end() < len(text) else " "
        if after in _BLANK_AFTER:
            total += (size + 7) // 8
        elif match.group()[0] == " " and after in _MERGES_A_SPACE:
            total += (size + 6) // 8  # the last space goes with the word
        else:
            total += (size + 6) // 8 + 1  # the last blank is glued to what follows, or alone
    return total


def _non_ascii_bytes(text: str, ascii_chars: int) -> int:
    if unicodedata.is_normalized("NFC", text) and unicodedata.is_normalized("NFKC", text):
        return len(text.encode("utf-8")) - ascii_chars
    # Normalising composes (shorter) after decomposing each character on its own, so the
    # decomposed forms bound what any tokenizer's NFC or NFKC leaves of each run.
    total = 0
    for run in _NON_ASCII.findall(text):
        forms = (run, unicodedata.normalize("NFD", run), unicodedata.normalize("NFKD", run))
        total += max(len(form.encode("utf-8")) for form in forms)
    return total


def count(text: str) -> int:
    """At least as many tokens as any reference tokenizer gives ``text``."""
    ascii_chars = len(text) if text.isascii() else len(text.encode("ascii", "ignore"))
    # every ASCII character but a blank costs one token: letters, digits, punctuation, controls
    total = ascii_chars - text.count(" ") - text.count("\t") - text.count("\n")
    total += _blank_tokens(text) - _lexicon_discount(text)
    if ascii_chars < len(text):
        total += _non_ascii_bytes(text, ascii_chars)
    return total
