"""Candidates: what every query stage takes in and hands on."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Candidate:
    """A block the query path is still considering.

    ``score`` is what the next stage ranks by. ``ranks`` and ``channel_scores`` say how each
    fusion channel saw the block (``None``: not found by that channel); ``factors`` records the
    multipliers later stages applied (``gravity``, a rerank score, ...), for ``explain``.
    """

    block_id: str
    score: float
    ranks: dict[str, int | None] = field(default_factory=dict)
    channel_scores: dict[str, float | None] = field(default_factory=dict)
    factors: dict[str, float] = field(default_factory=dict)

    def rescore(self, factor_name: str, factor: float) -> None:
        """Multiply the score by ``factor`` and remember it under ``factor_name``."""
        self.factors[factor_name] = factor
        self.score *= factor


def by_score(candidates: list[Candidate]) -> list[Candidate]:
    """Best first; a stable sort, so ties keep the order the previous stage gave them."""
    return sorted(candidates, key=lambda c: -c.score)


def explain_candidate(candidate: Candidate, labels: dict[str, str | None]) -> dict[str, Any]:
    """Per channel its rank and raw score (under the channel's label), then the factors."""
    out: dict[str, Any] = {}
    for name, label in labels.items():
        entry: dict[str, Any] = {"rank": candidate.ranks.get(name)}
        if label is not None:
            entry[label] = candidate.channel_scores.get(name)
        out[name] = entry
    out["gravity"] = candidate.factors.get("gravity", 1.0)
    out.update({k: v for k, v in candidate.factors.items() if k != "gravity"})
    return out
