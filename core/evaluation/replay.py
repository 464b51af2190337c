"""Replaying the gold set: every marked question through the product's query path, and its
figures per stage and per channel, for the current settings and a candidate set side by side.

One query per question and settings set (no answer is written; the synthesis stage is left
out). Three rankings are read from it: ``fusion`` (what ``ctx_rrf`` handed on), ``ranked`` (the
candidates after every later stage that re-orders them: neighbours, rescore, gravity, graph,
rerank, supersedes; what enters the thresholds) and ``returned`` (the sources the query returns,
at most 10, after the thresholds and the confidence class). Each channel's figures come from the
fused candidates' ranks in that channel (its rank among every block the channel found): a block
of the channel's first ten is always among the fused candidates with the default settings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ctx.core.embed import vector_literal
from ctx.core.evaluation.marking import Question, gold_set
from ctx.core.evaluation.schemas import CUTOFFS, MAX_QUESTIONS
from ctx.core.evaluation.scoring import Figures, difference, figures, first_rank
from ctx.core.retrieval import (
    CHANNELS,
    Candidate,
    QueryRequest,
    QueryRun,
    checked_overrides,
    run_pipeline,
)

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App
    from ctx.core.evaluation.schemas import EvalRequest

FUSION = "candidates"  # the stage that runs ctx_rrf
THRESHOLDS = "thresholds"  # the first stage that drops candidates by their evidence
STAGES = ("fusion", "ranked", "returned")
WARNINGS_KEPT = 5


@dataclass
class Replay:
    """One question under one set of settings: its rank in each ranking and channel, and
    whether the first source returned is one marked as not answering it."""

    stages: dict[str, int | None]
    channels: dict[str, int | None]
    wrong_first: bool
    warnings: list[str] = field(default_factory=list)


def _query_vectors() -> Any:
    """An ``embed_text`` that embeds each text once per run (both settings sets share it)."""
    cache: dict[tuple[int, str], str] = {}

    def embed(run: QueryRun, text: str) -> str:
        assert run.generation is not None
        key = (int(run.generation["id"]), text)
        if key not in cache:
            embedder = run.app.embedders.for_generation(run.generation)
            cache[key] = vector_literal(embedder.embed_query(text))
        return cache[key]

    return embed


def replay(
    app: App,
    who: Principal,
    question: Question,
    scopes: list[str] | None,
    settings: Mapping[str, Any],
    embed: Any,
) -> Replay:
    seen: dict[str, list[Candidate]] = {}

    def watch(name: str, candidates: list[Candidate]) -> None:
        seen[name] = list(candidates)

    names = [s.name for s in app.query_stages]
    request = QueryRequest(
        query=question.text, scopes=scopes, now=question.asked_on, limit=CUTOFFS[-1]
    )
    run, returned = run_pipeline(
        app,
        who,
        request,
        skip={"synthesis"} & set(names),
        settings=settings,
        watch=watch,
        embed_text=embed,
    )
    before = names[: names.index(THRESHOLDS)] if THRESHOLDS in names else names
    ranked = next((seen[n] for n in reversed(before) if n in seen), returned)
    fused = seen.get(FUSION, [])
    answers = question.answers
    ids = {stage: [c.block_id for c in lst] for stage, lst in
           (("fusion", fused), ("ranked", ranked), ("returned", returned))}  # fmt: skip
    channels: dict[str, int | None] = {}
    for channel in CHANNELS:
        found = [c.ranks.get(channel.name) for c in fused if c.block_id in answers]
        channels[channel.name] = min((r for r in found if r is not None), default=None)
    return Replay(
        stages={stage: first_rank(ids[stage], answers) for stage in STAGES},
        channels=channels,
        wrong_first=bool(ids["returned"]) and ids["returned"][0] in question.wrong,
        warnings=run.warnings,
    )


def summary(replays: list[Replay], questions: list[Question]) -> dict[str, Any]:
    """The figures over the questions with an answer marked, and the share of all questions
    whose first source is one marked as not answering."""
    scored = [r for r, q in zip(replays, questions, strict=True) if q.answers]
    out: dict[str, Any] = {
        "stages": {s: figures([r.stages[s] for r in scored]) for s in STAGES},
        "channels": {c.name: figures([r.channels[c.name] for r in scored]) for c in CHANNELS},
        "not_answered@1": round(sum(r.wrong_first for r in replays) / len(replays), 4)
        if replays
        else None,
    }
    return out


def _difference(current: dict[str, Any], candidate: dict[str, Any]) -> dict[str, Any]:
    def each(part: str) -> dict[str, Figures]:
        return {k: difference(v, candidate[part][k]) for k, v in current[part].items()}

    wrong = current["not_answered@1"], candidate["not_answered@1"]
    return {
        "stages": each("stages"),
        "channels": each("channels"),
        "not_answered@1": None if None in wrong else round(wrong[1] - wrong[0], 4),
    }


def evaluate(app: App, who: Principal, req: EvalRequest) -> dict[str, Any]:
    """Replay the marked questions of the key's readable scopes (or of ``req.scope``) with the
    current settings and, when ``req.settings`` names some, with those too."""
    candidate = checked_overrides(app, req.settings)  # refused before any work
    searched = [req.scope] if req.scope else None
    questions, total = gold_set(app, who.scopes_for(searched), MAX_QUESTIONS)
    embed = _query_vectors()
    sets: dict[str, Mapping[str, Any]] = {"current": {}}
    if req.settings:
        sets["candidate"] = candidate
    warnings: list[str] = []
    results: dict[str, list[Replay]] = {}
    for name, values in sets.items():
        results[name] = [replay(app, who, q, searched, values, embed) for q in questions]
        for r in results[name]:
            warnings += [w for w in r.warnings if w not in warnings]
    out: dict[str, Any] = {
        "questions": len(questions),
        "answerable": sum(1 for q in questions if q.answers),
        "left_out": total - len(questions),
        "most": MAX_QUESTIONS,
        "scope": req.scope,
        "settings": candidate,
        "current": summary(results["current"], questions),
        "candidate": None,
        "difference": None,
        "per_question": [
            {
                "question": q.text,
                "asked_on": q.asked_on.isoformat(),
                "answers": len(q.answers),
                **{name: results[name][i].stages for name in results},
            }
            for i, q in enumerate(questions)
        ],
        "warnings": warnings[:WARNINGS_KEPT],
    }
    if "candidate" in results:
        out["candidate"] = summary(results["candidate"], questions)
        out["difference"] = _difference(out["current"], out["candidate"])
    return out
