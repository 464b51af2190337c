"""Reading what a model wrote: reasoning blocks dropped, the first JSON value of a kind found."""

from __future__ import annotations

import json
import re
from typing import Any

_THINK_BLOCK = re.compile(r"<think>.*?</think>", re.IGNORECASE | re.DOTALL)
_THINK_OPEN = re.compile(r"<think>", re.IGNORECASE)
_THINK_CLOSE = re.compile(r"</think>", re.IGNORECASE)
_OPENERS = {dict: "{", list: "["}


def fence(text: str, tag: str) -> str:
    """``text`` made safe to place inside ``<tag>…</tag>``: any opening or closing ``tag``
    element in it (any case, any spacing) loses its ``<``, so content cannot end its element or
    forge another."""
    pattern = re.compile(rf"<(\s*/?\s*{re.escape(tag)})", re.IGNORECASE)
    return pattern.sub(r"&lt;\1", text)


def strip_reasoning(text: str) -> str:
    """``text`` without ``<think>…</think>`` blocks; an unclosed block runs to the end, and text
    before a lone ``</think>`` (a model that leaves out the opening tag) is reasoning too."""
    text = _THINK_BLOCK.sub(" ", text)
    closes = list(_THINK_CLOSE.finditer(text))
    if closes:
        text = text[closes[-1].end() :]
    opened = _THINK_OPEN.search(text)
    if opened:
        text = text[: opened.start()]
    return text.strip()


def first_json(text: str, kind: type[dict[str, Any]] | type[list[Any]]) -> Any:
    """The first JSON object (``dict``) or array (``list``) in ``text``, after dropping
    reasoning; prose and code fences around it are ignored. ``None`` when there is none."""
    text = strip_reasoning(text)
    decoder = json.JSONDecoder()
    opener = _OPENERS[kind]
    at = text.find(opener)
    while at >= 0:
        try:
            value, _ = decoder.raw_decode(text, at)
        except ValueError:
            value = None
        if isinstance(value, kind):
            return value
        at = text.find(opener, at + 1)
    return None
