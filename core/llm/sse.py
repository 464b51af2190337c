"""Server-sent events: split a byte stream into events (``data`` joined, comments skipped)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator


def sse_events(lines: Iterable[str]) -> Iterator[str]:
    """The ``data`` of each event, in order. Comment lines (``: keep-alive``) and other fields
    (``event:``, ``id:``, ``retry:``) are skipped; an event ends at a blank line. A final event
    without its blank line is still yielded (the caller decides whether the stream was whole)."""
    data: list[str] = []
    for raw in lines:
        line = raw.rstrip("\r\n")
        if not line:
            if data:
                yield "\n".join(data)
                data = []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        if field == "data":
            data.append(value[1:] if value.startswith(" ") else value)
    if data:
        yield "\n".join(data)
