"""The evaluation operations, each declared once (``ctx.core.operations``): marking which source
answered a question, the marks, removing one, and replaying the marked questions. Only models
are imported here; the services are named."""

from __future__ import annotations

from ctx.core.evaluation.schemas import EvalRequest, MarkRequest, MarksRequest, UnmarkRequest
from ctx.core.operations import Operation, Rest, Tool

MARKS = "ctx.core.evaluation.marking"

MARK = Operation(
    name="eval.mark",
    summary="Mark a source as answering a question (or not): the scope's gold set.",
    description="Mark a source as answering a question (``answered``) or not (``not_answered``). "
    "The block must be one the key reads; the mark lives in the block's scope, which must be "
    "the key's home scope (a mark is a write). Marking the same question and block again "
    "replaces the verdict.",
    service=f"{MARKS}:mark",
    input=MarkRequest,
    kind="write",
    reach="home",
    rest=Rest(
        "POST",
        "/api/eval/marks",
        errors={
            403: "The block's scope is not the key's home scope.",
            404: "No such block in the key's scopes.",
            409: "Ambiguous id prefix.",
        },
        tags=("eval",),
    ),
    tool=Tool(
        "mark",
        "After a `query`, record which source answered the question (verdict answered) or which "
        "did not (not_answered). ctx keeps these marks as a gold set of the source's scope and "
        "`ctx eval` measures retrieval on them. Pass the question as it was asked and the "
        "source's id.",
        idempotent=True,
    ),
    cli=True,
)

MARKS_LIST = Operation(
    name="eval.marks",
    summary="The marks of the key's readable scopes, newest first.",
    service=f"{MARKS}:marks",
    input=MarksRequest,
    rest=Rest("GET", "/api/eval/marks", tags=("eval",)),
    cli=True,
)

UNMARK = Operation(
    name="eval.unmark",
    summary="Remove a mark.",
    service=f"{MARKS}:unmark",
    input=UnmarkRequest,
    kind="write",
    reach="home",
    rest=Rest(
        "DELETE",
        "/api/eval/marks/{id}",
        errors={
            403: "The mark's scope is not the key's home scope.",
            404: "No such mark in the key's scopes.",
        },
        tags=("eval",),
    ),
    cli=True,
)

EVAL_RUN = Operation(
    name="eval.run",
    summary="Replay the marked questions: R@1, R@5, R@10 and MRR per stage and channel.",
    description="Replay every marked question of the key's readable scopes (or of one) through "
    "the query path, at most 500, the most recently marked first, each with the day it was "
    "asked as its 'now'. Figures for the fused ranking, the ranking after the later stages and "
    "the sources the query returns, and for each channel alone; with ``settings``, the same for "
    "that candidate set of retrieval settings side by side, and the difference. Nothing is "
    "written.",
    service="ctx.core.evaluation.replay:evaluate",
    input=EvalRequest,
    rest=Rest(
        "POST",
        "/api/eval",
        errors={422: "A candidate setting is unknown, not a retrieval setting, or out of range."},
        tags=("eval",),
    ),
    cli=True,
)
