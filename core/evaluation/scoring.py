"""The figures of a gold set: recall at 1, 5 and 10 and the mean reciprocal rank.

A question's rank is where the first block marked as answering it stands in a ranking (1 is
first; None: not there). R@k is the share of questions ranked at k or better; MRR the mean of
1 / rank, a rank beyond the last cut-off (10) counting 0, so every ranking is measured over the
same ten places whatever its length.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ctx.core.evaluation.schemas import CUTOFFS

Ranks = Sequence[int | None]
Figures = dict[str, float | None]


def first_rank(ranking: Iterable[str], answers: frozenset[str]) -> int | None:
    """The place (from 1) of the first of ``answers`` in ``ranking``."""
    return next((i for i, block in enumerate(ranking, 1) if block in answers), None)


def figures(ranks: Ranks) -> Figures:
    """R@1, R@5, R@10 and MRR of these ranks (all None without questions)."""
    n = len(ranks)
    out: Figures = {}
    for k in CUTOFFS:
        out[f"r@{k}"] = (
            round(sum(1 for r in ranks if r is not None and r <= k) / n, 4) if n else None
        )
    deepest = CUTOFFS[-1]
    mrr = sum(1 / r for r in ranks if r is not None and r <= deepest)
    out["mrr"] = round(mrr / n, 4) if n else None
    return out


def difference(
    current: Mapping[str, float | None], candidate: Mapping[str, float | None]
) -> Figures:
    """Candidate minus current, figure by figure (None where either is None)."""
    return {
        key: None if value is None or candidate.get(key) is None
        else round(float(candidate[key]) - value, 4)  # type: ignore[arg-type]
        for key, value in current.items()
    }  # fmt: skip
