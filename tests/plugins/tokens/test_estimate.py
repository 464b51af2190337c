"""The ``estimate`` counter never counts fewer tokens than a reference tokenizer, on any text.

References (``token_references``): o200k (GPT-4o), cl100k (GPT-4), Llama 3 and Qwen byte-level
BPEs run by tiktoken, and BERT's WordPiece; each one missing here is a skip, not a failure.
Hypothesis draws random text of every Unicode category, ASCII, prose in nine scripts, code and
recombinations of them; seeded bulk batches cover many more texts cheaply (tokenizers count
batches in Rust).
"""

from __future__ import annotations

import random
import string
import time

import pytest
import samples
import token_references
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ctx.plugins.tokens.estimate import GLUE, count, lexicon

PROPERTY = settings(
    max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)

# What tokenizers treat specially around words: blanks, controls BERT deletes, soft hyphen,
# zero-width space, combining marks, fullwidth and compatibility forms, CJK, emoji, digits.
SEPARATORS = [
    *" \t\n\r",
    "  ",
    "\t\t",
    "\r\n",
    "\n\n\n",
    " " * 9,
    "\x0b",
    "\x0c",
    "\x1f",
    "\x00",
    "\x7f",
    "\u00ad",
    "\u200b",
    "\u2028",
    "\u3000",
    "\u0301",
    "\uff0c",
    "\uff21",
    "\ufb01",
    "\ufdfa",
    "中",
    "😀",
    "é",
    "ß",
    "0",
    "42",
    "1234567",
    "'s",
    "'ll",
    "",
    *string.punctuation,
    *GLUE,
]
SENTENCES = [s for text in samples.PROSE.values() for s in text.replace("\n", " ").split(". ")]
CODE_LINES = [line for text in samples.CODE.values() for line in text.splitlines()]


def assert_never_under(references: dict[str, token_references.Reference], text: str) -> None:
    estimate = count(text)
    for ref in references.values():
        exact = ref(text)
        assert estimate >= exact, f"{ref.name}: estimate {estimate} < {exact} for {text!r}"


@pytest.mark.parametrize("name", ["o200k", "cl100k", "llama3", "qwen", "wordpiece"])
def test_reference_is_available(
    references: dict[str, token_references.Reference], name: str
) -> None:
    if name not in references:
        pytest.skip(f"reference {name}: {token_references.MISSING.get(name, 'missing')}")
    assert references[name]("Hello world") == 2


@PROPERTY
@given(st.text(st.characters(blacklist_categories=("Cs",)), max_size=60))
def test_random_unicode(references: dict[str, token_references.Reference], text: str) -> None:
    assert_never_under(references, text)


@PROPERTY
@given(st.text(st.characters(max_codepoint=0x7F), max_size=120))
def test_random_ascii(references: dict[str, token_references.Reference], text: str) -> None:
    assert_never_under(references, text)


@PROPERTY
@given(
    st.lists(
        st.text(string.ascii_letters, min_size=1, max_size=12) | st.sampled_from(SEPARATORS),
        max_size=20,
    )
)
def test_random_letters_between_separators(
    references: dict[str, token_references.Reference], parts: list[str]
) -> None:
    assert_never_under(references, "".join(parts))


@PROPERTY
@given(st.data())
def test_lexicon_words_in_any_context(
    references: dict[str, token_references.Reference], data: st.DataObject
) -> None:
    words = st.sampled_from(sorted(lexicon()))
    cased = st.one_of(words, words.map(str.upper), words.map(str.capitalize), words.map(str.lower))
    parts = data.draw(st.lists(st.one_of(cased, st.sampled_from(SEPARATORS)), max_size=16))
    assert_never_under(references, "".join(parts))


@PROPERTY
@given(
    st.lists(st.sampled_from(SENTENCES), min_size=1, max_size=4),
    st.sampled_from([" ", "\n", "", " — ", "\n\n", "。", ": "]),
    st.integers(0, 40),
)
def test_multilingual_prose(
    references: dict[str, token_references.Reference], sentences: list[str], glue: str, cut: int
) -> None:
    text = glue.join(sentences)
    assert_never_under(references, text)
    assert_never_under(references, text[cut:])  # a slice may start inside a word


@PROPERTY
@given(
    st.lists(st.sampled_from(CODE_LINES), min_size=1, max_size=8),
    st.sampled_from(["\n", "\n\n", "\r\n", "; ", " "]),
    st.lists(st.sampled_from(["", "    ", "\t", "        ", "\t\t", "  "]), min_size=1, max_size=8),
)
def test_code_recombined(
    references: dict[str, token_references.Reference],
    lines: list[str],
    newline: str,
    indents: list[str],
) -> None:
    text = newline.join(
        indent + line.strip() for indent, line in zip(indents * 8, lines, strict=False)
    )
    assert_never_under(references, text)


@PROPERTY
@given(
    st.lists(
        st.one_of(
            st.text(" \t\n\r\x0b\x0c", min_size=1, max_size=40),
            st.text(string.digits, min_size=1, max_size=40),
            st.text(string.punctuation, min_size=1, max_size=20),
            st.text(string.ascii_letters, min_size=1, max_size=30),
            st.text("\u00a0\u3000\u2003\u2009\u202f\u205f", min_size=1, max_size=5),
        ),
        max_size=12,
    )
)
def test_runs_of_one_kind(
    references: dict[str, token_references.Reference], parts: list[str]
) -> None:
    assert_never_under(references, "".join(parts))


@pytest.mark.parametrize("kind", [*samples.PROSE, *samples.CODE])
def test_samples(references: dict[str, token_references.Reference], kind: str) -> None:
    text = {**samples.PROSE, **samples.CODE}[kind]
    assert_never_under(references, text)
    for cut in range(0, len(text), 37):  # every prefix length class, cheaply
        assert_never_under(references, text[cut : cut + 80])


def _random_texts(seed: int, n: int) -> list[str]:
    """Bulk texts: random code points, random ASCII and word salad with hostile separators."""
    rng = random.Random(seed)
    words = sorted(lexicon())

    def code_point() -> str:
        while True:
            cp = rng.choice(
                [
                    rng.randint(0, 0x7F),
                    rng.randint(0x80, 0x7FF),
                    rng.randint(0x800, 0xFFFF),
                    rng.randint(0x10000, 0x10FFFF),
                ]
            )
            if not 0xD800 <= cp <= 0xDFFF:
                return chr(cp)

    def salad() -> str:
        parts = []
        for _ in range(rng.randint(1, 8)):
            word = (
                rng.choice(words)
                if rng.random() < 0.7
                else "".join(rng.choices(string.ascii_letters, k=rng.randint(1, 9)))
            )
            parts += [rng.choice([word, word.upper(), word.capitalize()]), rng.choice(SEPARATORS)]
        return "".join(parts)

    makers = [
        lambda: "".join(code_point() for _ in range(rng.randint(1, 30))),
        lambda: "".join(rng.choices(string.printable, k=rng.randint(1, 40))),
        salad,
        salad,
    ]
    return [rng.choice(makers)() for _ in range(n)]


@pytest.mark.parametrize("seed", [1, 2])
def test_bulk_random_texts(references: dict[str, token_references.Reference], seed: int) -> None:
    texts = _random_texts(seed, 10_000)
    assert token_references.shortfalls(count, texts) == []


def test_tight_on_english_prose(references: dict[str, token_references.Reference]) -> None:
    if "cl100k" not in references:
        pytest.skip(f"cl100k: {token_references.MISSING.get('cl100k')}")
    ratio = count(samples.ENGLISH) / references["cl100k"](samples.ENGLISH)
    assert ratio <= 1.6, f"estimate is {ratio:.2f} times cl100k on English prose"
    code = "\n".join(samples.CODE.values())
    assert count(code) / references["cl100k"](code) <= 2.5


def test_simple_values() -> None:
    assert count("") == 0
    assert count(" the") == 1  # a lexicon word after a space
    assert count("the") == 3  # at the start of a text: min(len, 3)
    assert count("zqx") == 3  # any other word: one token per letter
    assert count("The cat sat on the mat.") <= 9
    assert count("    ") == 1
    assert count("12345") == 5  # some tokenizers split digits one by one
    assert count("日本") == 6  # UTF-8 bytes: byte fallback spends one token each


def test_fast_and_linear() -> None:
    text = samples.ENGLISH[:200]
    count(text)  # loads the lexicon
    runs = 2000
    started = time.perf_counter()
    for _ in range(runs):
        count(text)
    per_call = (time.perf_counter() - started) / runs
    assert per_call < 200e-6, f"{per_call * 1e6:.0f} µs for 200 characters"
    # no pattern backtracks: long runs of one kind cost time in proportion to their length
    for hostile in (
        "a" * 200_000,
        " " * 200_000,
        "!" * 200_000,
        " a" * 100_000,
        "\t \n" * 70_000,
        "é" * 200_000,
    ):
        started = time.perf_counter()
        count(hostile)
        assert time.perf_counter() - started < 0.5
