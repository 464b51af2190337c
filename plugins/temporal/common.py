"""Helpers the language plugins share to spell out a ``Lexicon``."""

from __future__ import annotations

from collections.abc import Iterable

from ctx.core import TokSpec


def tok(kind: str, value: object = None) -> TokSpec:
    """One token: ``tok("wd", 1)``."""
    return ((kind, value),)


def forms(spec: TokSpec, *words: str) -> dict[str, TokSpec]:
    """Several spellings of one token: ``forms(tok("rel", -1), "last", "previous")``."""
    return dict.fromkeys(words, spec)


def indexed(kind: str, names: Iterable[Iterable[str]], start: int = 0) -> dict[str, TokSpec]:
    """Numbered tokens: the n-th group of ``names`` gets value ``start + n``."""
    out: dict[str, TokSpec] = {}
    for n, group in enumerate(names):
        out.update(forms(tok(kind, start + n), *group))
    return out


def negatives(*phrases: str) -> dict[tuple[str, ...], TokSpec]:
    """Phrases that look temporal but are not ("sunday times"): read as one plain word."""
    return {tuple(p.split()): tok("word", p) for p in phrases}


def phrases(mapping: dict[str, TokSpec]) -> dict[tuple[str, ...], TokSpec]:
    """Multi-word phrases keyed by their words: ``{"day before yesterday": tok("kw", -2)}``."""
    return {tuple(k.split()): v for k, v in mapping.items()}
