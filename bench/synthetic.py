"""The synthetic corpus of the latency benchmarks: pseudo-words with Zipf-Mandelbrot
frequencies plus English function words (``Corpus``), the 25 categories blocks are spread over,
and real English content words for texts whose token count must be realistic (embedding cost)."""

from __future__ import annotations

import numpy as np

FUNCTION_WORDS = [
    "the",
    "of",
    "and",
    "to",
    "in",
    "a",
    "is",
    "that",
    "for",
    "it",
    "as",
    "was",
    "with",
    "be",
    "by",
    "on",
    "not",
    "he",
    "this",
    "are",
    "or",
    "his",
    "from",
    "at",
    "which",
    "but",
    "have",
    "an",
    "they",
    "you",
    "were",
    "her",
    "she",
    "there",
    "been",
    "one",
    "all",
    "we",
    "their",
    "has",
    "would",
    "when",
    "if",
    "will",
    "can",
    "more",
    "no",
    "so",
    "what",
    "about",
    "up",
    "out",
    "into",
    "than",
    "them",
    "some",
    "could",
    "these",
    "two",
    "may",
    "then",
    "do",
    "first",
    "any",
    "my",
    "now",
    "such",
    "like",
    "our",
    "over",
    "only",
    "also",
    "its",
    "after",
    "how",
    "where",
    "most",
]
CATEGORIES = [f"area-{i:02d}" for i in range(25)]
# Real English content words for the write test: embedding cost depends on the token count, and
# pseudo-words split into several word pieces each (about twice the tokens of English text).
ENGLISH_WORDS: list[str] = str.split(
    "system data user service server database query index block memory agent model search "
    "result team project release version change issue test build deploy config setting file "
    "network request response error update backup storage cache worker job queue schedule "
    "time date meeting decision note plan goal task review customer report design document "
    "policy access key scope account password security audit log metric alert performance "
    "latency throughput cost budget price contract partner product feature interface screen "
    "page button form field value option default limit threshold weight score rank vector "
    "text language english german translation summary topic question answer source reference "
    "morning evening week month year today yesterday tomorrow office home travel city train "
    "flight hotel family friend doctor school course book music movie game garden kitchen "
    "recipe dinner coffee walk run trip weekend holiday birthday gift picture phone email "
    "message call chat letter paper pen desk chair window door light power battery laptop "
    "keyboard mouse monitor printer cable router cloud region cluster node container image "
    "package library module function method class object record table column row migration"
)


class Corpus:
    """Deterministic text generator: pseudo-words with Zipf-Mandelbrot frequencies."""

    def __init__(self, seed: int, vocabulary: int = 20000, words: list[str] | None = None) -> None:
        self.rng = np.random.default_rng(seed)
        if words is not None:
            self._init_words(words)
            return
        onsets = [*"bcdfghjklmnprstvwz", "br", "ch", "st", "tr", "pl", "gr", "sh", "kr", "fl"]
        vowels = ["a", "e", "i", "o", "u", "ai", "ou", "ea", "y"]
        codas = ["", "", "n", "r", "s", "t", "l", "m", "nd", "st", "ck", "rk"]
        words: set[str] = set()
        while len(words) < vocabulary:
            n = int(self.rng.integers(1, 4))
            w = "".join(
                self.rng.choice(onsets) + self.rng.choice(vowels) + self.rng.choice(codas)
                for _ in range(n)
            )
            if len(w) >= 3:
                words.add(w)
        self._init_words(sorted(words, key=lambda w: (len(w), w)))

    def _init_words(self, words: list[str]) -> None:
        self.words = np.array(words)
        ranks = np.arange(1, len(words) + 1, dtype=np.float64)
        p = 1.0 / (ranks + 20.0)  # Zipf-Mandelbrot: the top content word is ~0.7% of tokens
        self.p = p / p.sum()
        self.rng.shuffle(self.words)

    def content_words(self, n: int) -> list[str]:
        return list(self.words[self.rng.choice(len(self.words), size=n, p=self.p)])

    def text(self, chars: int) -> str:
        """Sentences of 8-20 tokens, ~40% function words, until ``chars`` is reached."""
        n = max(8, chars // 6)
        content = self.content_words(n)
        func = self.rng.choice(FUNCTION_WORDS, size=n)
        is_func = self.rng.random(n) < 0.4
        tokens = [str(f) if is_f else c for c, f, is_f in zip(content, func, is_func, strict=True)]
        out: list[str] = []
        length = 0
        i = 0
        while length < chars and i < n:
            k = int(self.rng.integers(8, 21))
            sentence = " ".join(tokens[i : i + k])
            i += k
            sentence = sentence[:1].upper() + sentence[1:] + "."
            out.append(sentence)
            length += len(sentence) + 1
        return " ".join(out)[:chars].rstrip() + "."

    def title(self) -> str:
        words = self.content_words(int(self.rng.integers(2, 7)))
        return " ".join(w.capitalize() if i == 0 else w for i, w in enumerate(words))

    def query(self) -> str:
        lead = str(self.rng.choice(["how does", "what is", "why", "where is", "when did", ""]))
        return (lead + " " + " ".join(self.content_words(int(self.rng.integers(2, 7))))).strip()

    def length(self) -> int:
        return int(self.rng.integers(200, 1501))


# -- bulk load ---------------------------------------------------------------------------------
