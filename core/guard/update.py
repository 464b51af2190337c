"""Is a block an update of an earlier one? The same note saved again with changed values.

Agents rarely re-save a note under the same category and title: a changed backup time, a new
owner, a flipped decision or a follow-up sentence arrives as another block that says the rest of
the note again. The Guard records such a block as an update (a ``supersedes`` link newer ->
older) instead of asking a person when the changes
(``ctx.core.guard.wording.changed_stretches``) are few and the rest stays:

- at most ``STRETCHES_PER_WORD`` changed stretches per word of the older note, and never fewer
  than ``MIN_STRETCHES`` allowed (a short note may change a date, a time and a name);
- the newer block keeps at least ``MIN_KEPT`` of the older one's words; words added (a
  follow-up sentence, a reason) are not counted against it;
- the words removed are not the words added: a sentence moved elsewhere changes nothing.

A paraphrase rewords nearly every sentence: on our labelled set it changes 16 or more stretches
per 100 words, where a revised note changes up to 13. A sibling note (same area, another
subject) keeps less than a fifth of the words. Both stay with review (a sibling at the review
similarity at all). The figures were tuned on half A of ``bench/guard_pairs.py --updates`` and
confirmed on half B (docs/benchmarks.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

STRETCHES_PER_WORD = 0.12
MIN_STRETCHES = 3
MIN_KEPT = 0.4
MAX_SHOWN = 10  # stretches kept in a decision's details
_WORD = re.compile(r"[^\W_]+")


def _count(text: str) -> int:
    return len(_WORD.findall(text))


def is_update(stretches: list[tuple[str, str]], older: str) -> bool:
    """Whether ``stretches`` (before, after), the changes from ``older`` to a newer text, are a
    few values changed or words added, the rest of ``older`` said again."""
    total = _count(older)
    if not stretches or not total:
        return False
    removed = sum(_count(before) for before, _ in stretches)
    allowed = max(MIN_STRETCHES, STRETCHES_PER_WORD * total)
    if len(stretches) > allowed or (total - removed) / total < MIN_KEPT:
        return False
    return _words(b for b, _ in stretches) != _words(a for _, a in stretches)


def _words(texts: Iterable[str]) -> list[str]:
    return sorted(w.casefold() for t in texts for w in _WORD.findall(t))


def shown(stretches: list[tuple[str, str]]) -> list[dict[str, str]]:
    """The stretches as a decision's details show them: before and after."""
    return [{"before": b, "after": a} for b, a in stretches[:MAX_SHOWN]]
