"""Governed threads made over HTTP, as an agent makes them."""

from __future__ import annotations

from typing import Any


def record_thread(client: Any, headers: dict[str, str], session: str, *turns: str) -> None:
    """A governed thread with ``turns`` as its events, indexed into its records."""
    thread = {"session_id": session}
    for text in turns:
        r = client.post("/api/governor/commit", headers=headers,
                        json={"thread": thread, "event": {"content": text}})  # fmt: skip
        assert r.status_code == 200, r.text
    r = client.post("/api/governor/flush", headers=headers, json={"thread": thread})
    assert r.status_code == 200 and r.json()["timed_out"] is False, r.text
