"""Sending notes: batches that stay under the server's body limit, a few in parallel.

Requests are independent (each note's blocks are upserted on their own), so batches go through a
small thread pool; a batch the server refuses is reported for its notes and the others go on.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any

from ctx.core import CtxError

MAX_REQUEST_BYTES = 8_000_000

Send = Callable[[list[dict[str, Any]]], dict[str, Any]]


def size(note: dict[str, Any]) -> int:
    return len(json.dumps(note, ensure_ascii=False).encode())


def batches(
    notes: list[dict[str, Any]], per_batch: int, max_bytes: int = MAX_REQUEST_BYTES
) -> tuple[list[list[dict[str, Any]]], list[tuple[str, str]]]:
    """Notes in order, at most ``per_batch`` and ``max_bytes`` a batch; a note larger than
    ``max_bytes`` alone is not sent (returned as a problem)."""
    out: list[list[dict[str, Any]]] = []
    too_large: list[tuple[str, str]] = []
    current: list[dict[str, Any]] = []
    used = 0
    for note in notes:
        n = size(note) + 2
        if n > max_bytes:
            too_large.append((note["path"], f"too large to send ({n:,} bytes as JSON)"))
            continue
        if current and (len(current) >= per_batch or used + n > max_bytes):
            out.append(current)
            current, used = [], 0
        current.append(note)
        used += n
    if current:
        out.append(current)
    return out, too_large


def send_all(
    groups: list[list[dict[str, Any]]], send: Send, workers: int
) -> Iterator[tuple[list[dict[str, Any]], dict[str, Any] | None, str | None]]:
    """(batch, answer, error) for each batch as it completes."""
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="ingest") as pool:
        running = {pool.submit(send, group): group for group in groups}
        for done in as_completed(running):
            group = running[done]
            try:
                yield group, done.result(), None
            except CtxError as exc:
                yield group, None, exc.message
