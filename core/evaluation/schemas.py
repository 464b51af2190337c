"""The evaluation's request models: a mark, the marks to list or remove, an evaluation run with its
candidate settings. Only models: the declarations import them without the services."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from ctx.core.access import ScopeName
from ctx.core.blocks import BlockRef, QueryText
from ctx.core.errors import ValidationError
from ctx.core.validation import IsoDate, Strict

Verdict = Literal["answered", "not_answered"]
VERDICTS: tuple[str, ...] = ("answered", "not_answered")
#: questions one run replays at most (the most recently marked first)
MAX_QUESTIONS = 500
#: the figures' cut-offs: R@1, R@5, R@10 (and MRR counts ranks up to the last)
CUTOFFS = (1, 5, 10)
#: a candidate setting's name: retrieval settings only (``query.*``)
SettingName = Annotated[str, Field(min_length=7, max_length=100, pattern=r"^query\.[a-z0-9_.]+$")]
SettingValue = bool | int | float | Annotated[str, Field(max_length=200)]


class MarkRequest(Strict):
    question: QueryText = Field(description="The question as it was asked.")
    id: BlockRef = Field(max_length=36, description="The source (block id or a unique prefix).")
    verdict: Verdict = Field(
        default="answered",
        description="answered: this source answers the question; not_answered: it does not.",
    )
    now: IsoDate | None = Field(
        default=None,
        description="The day the question was asked (its time words are read from it when it "
        "is replayed); default today.",
    )


class MarksRequest(Strict):
    scope: ScopeName | None = Field(default=None, description="Only this readable scope's marks.")
    question: Annotated[str, Field(min_length=1, max_length=2000)] | None = Field(
        default=None, description="Only the marks of this question."
    )
    limit: int = Field(default=100, ge=1, le=1000)


class UnmarkRequest(Strict):
    id: int = Field(ge=1, le=2**63 - 1, description="The mark's id.")


class EvalRequest(Strict):
    scope: ScopeName | None = Field(
        default=None,
        description="Replay the marks of this readable scope, searching it alone (default: every "
        "readable scope's marks, searching them all).",
    )
    settings: dict[SettingName, SettingValue] = Field(
        default_factory=dict,
        max_length=50,
        description="A candidate set of retrieval settings (name -> value) measured beside the "
        "current ones for this run only; nothing is written.",
    )


def setting_pairs(pairs: list[str]) -> dict[str, str]:
    """``["query.rrf_k=60", ...]`` (the command line's ``--set``, the page's lines) as a mapping;
    blank entries are skipped, the server checks names and values."""
    out: dict[str, str] = {}
    for pair in pairs:
        if not pair.strip():
            continue
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise ValidationError(
                f"candidate settings: {pair.strip()!r} is no name=value (e.g. query.rrf_k=60)",
                field="settings",
            )
        out[name.strip()] = value.strip()
    return out
