"""Evaluation: marks of which source answered a question (a gold set per scope) and the replay
of the marked questions, with R@1, R@5, R@10 and MRR per stage and channel, for the current
settings and a candidate set side by side (docs/evaluation.md)."""

from typing import TYPE_CHECKING

from ctx.core.lazy import lazy_exports

if TYPE_CHECKING:
    from ctx.core.evaluation.marking import Question, gold_set, mark, marks, unmark
    from ctx.core.evaluation.operations import EVAL_RUN, MARK, MARKS_LIST, UNMARK
    from ctx.core.evaluation.replay import STAGES, evaluate
    from ctx.core.evaluation.schemas import (
        MAX_QUESTIONS,
        VERDICTS,
        EvalRequest,
        MarkRequest,
        MarksRequest,
        UnmarkRequest,
        setting_pairs,
    )
    from ctx.core.evaluation.scoring import difference, figures, first_rank

__all__ = [
    "EVAL_RUN",
    "MARK",
    "MARKS_LIST",
    "MAX_QUESTIONS",
    "STAGES",
    "UNMARK",
    "VERDICTS",
    "EvalRequest",
    "MarkRequest",
    "MarksRequest",
    "Question",
    "UnmarkRequest",
    "difference",
    "evaluate",
    "figures",
    "first_rank",
    "gold_set",
    "mark",
    "marks",
    "setting_pairs",
    "unmark",
]

# Imported on first use (see ctx.core.lazy): a thin client loads only what it touches.
__getattr__, __dir__ = lazy_exports(__name__, __file__, globals())
