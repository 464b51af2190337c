"""The part of the input rule that plain strings obey, with nothing to import: the command line
checks its arguments with it before anything heavy loads (``ctx.core.validation`` has the rest)."""

from __future__ import annotations


def text_problem(text: str) -> str | None:
    """Why a string cannot be stored, or None."""
    if "\x00" in text:
        return "must not contain NUL characters"
    try:  # UTF-8 cannot encode a lone surrogate; the codec finds one at C speed
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "must be valid Unicode (it contains a lone surrogate)"
    return None
