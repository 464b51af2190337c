"""Text matches weighed by how much of the question they hold, before the later stages rank.

Rank fusion gives a block that full text ranks first the same share whether it holds every word
of the question or one rare word of it, so a lone keyword match can outrank the block the
meaning points to, and a question in the other language than the notes (whose words no note
holds) is ordered by whatever its few shared words happen to hit. With ``query.text_support``
``s`` above 0, the full-text part of each candidate's fused score is multiplied by
``(1 - s) + s x coverage``, the rarity-weighted share of the question's words the block holds
(the measure the rescore stage and the confidence class read); the dense, trigram and date
parts stay. Queries without the dense channel keep their order: there is nothing to lean on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ctx.core.retrieval.candidates import Candidate, by_score
from ctx.core.retrieval.rescore import TEXT_CHANNELS, coverage_of

if TYPE_CHECKING:
    from ctx.core.retrieval.pipeline import QueryRun


def text_support(q: QueryRun, candidates: list[Candidate]) -> list[Candidate]:
    share = float(q.app.settings["query.text_support"])
    if share <= 0 or q.weights.get("dense", 0.0) <= 0 or len(candidates) < 2:
        return candidates
    texty = [c for c in candidates if any(c.ranks.get(n) for n in TEXT_CHANNELS)]
    if not texty:
        return candidates
    k = float(q.app.settings["query.rrf_k"])
    covered = coverage_of(q, [c.block_id for c in texty])
    for c in texty:
        fused = sum(w / (k + r) for name, w in q.weights.items() if (r := c.ranks.get(name)))
        text = sum(q.weights.get(n, 0.0) / (k + r) for n in TEXT_CHANNELS if (r := c.ranks.get(n)))
        if fused <= 0 or text <= 0:
            continue
        keep = (1.0 - share) + share * covered.get(c.block_id, 0.0)
        c.rescore("text_support", (fused - text * (1.0 - keep)) / fused)
    q.note(weighed=len(texty))
    return by_score(candidates)
