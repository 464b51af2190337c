"""Typo tolerance for temporal keywords ("yesterdy", "gesten"... but see ``is_typo_of``)."""

from __future__ import annotations


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance with adjacent transpositions counted as one edit (restricted Damerau).

    Typing errors are mostly one wrong, missing, extra or swapped letter; counting a swap as one
    edit keeps "tomorow" and "yesterdya" within reach without widening the threshold.
    """
    if a == b:
        return 0
    la, lb = len(a), len(b)
    if not la or not lb:
        return la or lb
    before_prev: list[int] = []
    prev = list(range(lb + 1))
    for i in range(1, la + 1):
        cur = [i] + [0] * lb
        for j in range(1, lb + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            best = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                best = min(best, before_prev[j - 2] + 1)
            cur[j] = best
        before_prev, prev = prev, cur
    return prev[lb]


def max_typos(target: str) -> int:
    """Edits allowed for a keyword: none up to 5 letters, one up to 8, two beyond."""
    n = len(target)
    if n <= 5:
        return 0
    if n <= 8:
        return 1
    return 2


def is_typo_of(token: str, target: str) -> bool:
    """True when ``token`` is ``target`` or a plausible misspelling of it.

    Short words are matched exactly: at five letters one edit already turns "heute" into "Leute"
    or "haute". Longer ones must keep the first letter, which rules out "western" for "gestern".
    """
    if token == target:
        return True
    allowed = max_typos(target)
    if not allowed or not token or token[0] != target[0]:
        return False
    if abs(len(token) - len(target)) > allowed:
        return False
    return edit_distance(token, target) <= allowed
