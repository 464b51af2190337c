"""Citations in an answer: ``[n]`` mapped back to the sources the model was shown, checked.

A number that cites no source is removed from the text (and reported); ``[1, 2]`` and ``[1][2]``
both cite two sources. ``NO_RELEVANT_SOURCES`` becomes an honest "I don't know" in the
question's language.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ctx.core.llm import strip_reasoning

NO_SOURCES = "NO_RELEVANT_SOURCES"
DONT_KNOW = {
    "en": "I don't know based on the available sources.",
    "de": "Ich weiß es nicht auf Grundlage der verfügbaren Quellen.",
}
CITE_RE = re.compile(r"\[(\s*\d{1,3}(?:\s*[,;]\s*\d{1,3})*\s*)\]")


@dataclass
class CheckedAnswer:
    text: str
    citations: list[dict[str, Any]] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    no_answer: bool = False


def dont_know(language: str) -> str:
    return DONT_KNOW.get(language, DONT_KNOW["en"])


def is_no_answer(text: str) -> bool:
    return text.strip().strip(".").strip() == NO_SOURCES or (
        NO_SOURCES in text and len(text.strip()) <= len(NO_SOURCES) + 20
    )


def keep_citations(text: str, count: int) -> tuple[str, list[int], list[int]]:
    """``text`` with every ``[n]`` that names no source (1..``count``) removed, and the space
    left behind tidied; the numbers cited (in order of first use) and the ones removed."""
    cited: list[int] = []
    removed: list[int] = []

    def replace(match: re.Match[str]) -> str:
        kept = []
        for part in re.split(r"[,;]", match.group(1)):
            n = int(part.strip())
            if 1 <= n <= count:
                kept.append(n)
                if n not in cited:
                    cited.append(n)
            else:
                removed.append(n)
        return "".join(f"[{n}]" for n in kept)

    cleaned = CITE_RE.sub(replace, text)
    cleaned = re.sub(r"[ \t]+([.,;:!?])", r"\1", cleaned)
    cleaned = re.sub(r"[ \t]{2,}", " ", cleaned).strip()
    return cleaned, cited, removed


def check_citations(text: str, shown: Sequence[dict[str, Any]], language: str) -> CheckedAnswer:
    """``shown[i]`` is the source the model saw as number ``i + 1``."""
    text = strip_reasoning(text)
    if not text or is_no_answer(text):
        return CheckedAnswer(dont_know(language), no_answer=True)
    cleaned, numbers, removed = keep_citations(text, len(shown))
    cited = [{"n": n, "id": shown[n - 1]["id"], "title": shown[n - 1]["title"]} for n in numbers]
    return CheckedAnswer(cleaned, cited, removed)
