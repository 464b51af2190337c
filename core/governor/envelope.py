"""Building an envelope inside its budget: a pure function of what goes in and the counter.

Order of the messages: system prompt, protected items, the reading desk, the recent ring (oldest
first), the current event. The system prompt, the protected items and the current event must fit
(the event is shortened, and says so, when only it does not); the ring takes the newest events
that fit within its count and its share of the budget; the desk fills the rest by rank. A final
count of the whole list, framing included, enforces the budget: whatever an estimate of the parts
missed costs a desk item, never the limit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ctx.core.errors import ValidationError
from ctx.core.governor.events import Event
from ctx.core.governor.tokens import TokenCounter, count_messages, message_tokens

NAME_RE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
TRUNCATED = " […shortened to fit the budget]"


@dataclass(frozen=True)
class DeskItem:
    id: str
    text: str  # the rendered line
    score: float
    visibility: str  # thread, project or team
    sensitivity: str
    seq: int | None = None
    scope: str = ""
    category: str = ""


@dataclass(frozen=True)
class Pin:
    id: int
    text: str
    sensitivity: str = "internal"


@dataclass
class Built:
    messages: list[dict[str, Any]]
    parts: dict[str, int]
    tokens: int
    ring: list[Event]
    desk: list[DeskItem]
    truncated: bool = False
    #: per message: the sensitivities of what it carries (the gateway's trust gate reads them)
    sensitivities: list[list[str]] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)


def event_message(event: Event, content: str | None = None) -> dict[str, Any]:
    """A stored event as a chat message. A name that the OpenAI format refuses, and every tool
    result (which the format only accepts right after the call that asked for it), is written
    into the content instead."""
    text = event.content if content is None else content
    if event.role == "tool":
        return {"role": "user", "content": f"[tool {event.name or 'result'}]\n{text}"}
    message: dict[str, Any] = {"role": event.role, "content": text}
    if event.name:
        if NAME_RE.match(event.name):
            message["name"] = event.name
        else:
            message["content"] = f"{event.name}: {text}"
    return message


def when(value: datetime | None) -> str:
    """A record's day as a desk line shows it: ``8 May 2023`` costs about half the tokens of
    ``2023-05-08 13:56`` (every digit can be a token), and a desk holds many lines."""
    return f"{value.day} {value:%b} {value.year}" if value else "undated"


def shorten(counter: TokenCounter, text: str, tokens: int) -> str:
    """The longest prefix of ``text`` (plus a marker) that costs at most ``tokens``."""
    if counter.count(text) <= tokens:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if counter.count(text[:mid] + TRUNCATED) <= tokens:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo] + TRUNCATED if lo else ""


def _system(text: str) -> dict[str, Any]:
    return {"role": "system", "content": text}


def build(
    counter: TokenCounter,
    budget: int,
    *,
    system: str | None,
    pins: Sequence[Pin],
    event: Event,
    ring: Sequence[Event],
    desk: Sequence[DeskItem],
    ring_events: int,
    ring_share: float,
    desk_items: int,
    desk_header: str,
    pins_header: str,
) -> Built:
    head: list[dict[str, Any]] = [_system(system)] if system else []
    if pins:
        head.append(_system(pins_header + "\n" + "\n\n".join(p.text for p in pins)))
    fixed = count_messages(counter, [*head, event_message(event, "")])
    if fixed > budget:
        raise ValidationError(
            f"budget {budget} is too small: the system prompt and the protected items alone need "
            f"{fixed} tokens; raise the budget or release protected items",
            field="budget",
        )
    current = event_message(event)
    truncated = False
    if count_messages(counter, [*head, current]) > budget:
        room = budget - fixed
        current = event_message(event, shorten(counter, event.content, room))
        truncated = True
    used = count_messages(counter, [*head, current])

    # The recent ring: newest first, contiguous, within its count and its share of the budget.
    ring_cap = int(budget * ring_share)
    taken: list[Event] = []
    ring_tokens = 0
    for e in list(ring)[:ring_events]:
        cost = message_tokens(counter, event_message(e))
        if ring_tokens + cost > ring_cap or used + cost > budget:
            break
        taken.append(e)
        ring_tokens += cost
        used += cost

    # The desk: by rank, whatever fits; the header and framing are paid once.
    shown = {e.record_id for e in taken} | {event.record_id}
    lines: list[DeskItem] = []
    room = budget - used - counter.per_message - counter.count(desk_header) - 1
    for item in desk:
        if len(lines) >= desk_items or room <= 0:
            break
        if item.id in shown:
            continue
        cost = counter.count(item.text) + 1  # the newline that joins it
        if cost <= room:
            lines.append(item)
            shown.add(item.id)
            room -= cost

    while True:
        messages = list(head)
        kinds = ["system"] * (1 if system else 0) + (["protected"] if pins else [])
        sens: list[list[str]] = [[] for _ in messages]
        if pins:
            sens[-1] = [p.sensitivity for p in pins]
        if lines:
            messages.append(_system(desk_header + "\n" + "\n".join(i.text for i in lines)))
            kinds.append("desk")
            sens.append([i.sensitivity for i in lines])
        for e in reversed(taken):
            messages.append(event_message(e))
            kinds.append("ring")
            sens.append([e.sensitivity])
        messages.append(current)
        kinds.append("event")
        sens.append([event.sensitivity])
        total = count_messages(counter, messages)
        if total <= budget or not (lines or taken):
            break
        if lines:  # the parts' sum under-counted the joined text: the lowest-ranked item goes
            lines.pop()
        else:
            taken.pop()
    if total > budget:  # only the head and the current event are left; they fitted above
        raise AssertionError(f"envelope of {total} tokens over budget {budget}")
    parts = {"system": 0, "protected": 0, "desk": 0, "ring": 0, "event": 0}
    for kind, message in zip(kinds, messages, strict=True):
        parts[kind] += message_tokens(counter, message)
    parts["reply"] = counter.per_reply
    return Built(messages, parts, total, taken, lines, truncated, sens, kinds)
