"""Helpers for the kill -9 tests (tests/core/runtime/test_kill_faults.py).

``Stream`` keeps sending writes to whichever ``ctxd`` a ``Target`` names and records what was
acknowledged; ``Pace`` slows the loopback embedder so that a process is killed in the middle of
its work rather than before or after it; ``linker`` scripts Dream's model; ``cli`` starts a ``ctx``
command as a fleet process (``ctx ingest``, killed like a server or a worker).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

import httpx
from cluster_kit import Fleet, Process, query_rows
from openai_server import OpenAIServer, embeddings_handler


@dataclass
class Target:
    """The server a stream talks to now; a test points it at the restarted one."""

    url: str
    api_key: str


Send = Callable[[httpx.Client, int], httpx.Response]


@dataclass
class Stream:
    """Requests ``send(client, n)`` for n = 0, 1, 2, ... until stopped, each exactly once (never
    retried: a retry of a write whose answer was lost could store it twice). ``acked`` maps n to
    the 200 answer's body; ``dropped`` holds the n whose connection failed (the server was down or
    died with the request in hand); ``wrong`` holds any other answer: (n, status, text)."""

    target: Target
    send: Send
    acked: dict[int, dict[str, Any]] = field(default_factory=dict)
    dropped: list[int] = field(default_factory=list)
    wrong: list[tuple[int, int, str]] = field(default_factory=list)
    stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def start(self) -> Stream:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def _client(self, url: str) -> httpx.Client:
        # Short timeouts: a killed server resets its connections, a missing one refuses them.
        headers = {"Authorization": f"Bearer {self.target.api_key}"}
        return httpx.Client(base_url=url, headers=headers, timeout=30)

    def _run(self) -> None:
        n = 0
        url = self.target.url
        client = self._client(url)
        try:
            while not self.stop.is_set():
                if self.target.url != url:
                    client.close()
                    url = self.target.url
                    client = self._client(url)
                try:
                    reply = self.send(client, n)
                except httpx.TransportError:
                    self.dropped.append(n)
                    time.sleep(0.05)
                else:
                    if reply.status_code == 200:
                        self.acked[n] = reply.json()
                    else:
                        self.wrong.append((n, reply.status_code, reply.text[:300]))
                n += 1
        finally:
            client.close()

    @property
    def sent(self) -> int:
        return len(self.acked) + len(self.dropped) + len(self.wrong)

    def finish(self) -> None:
        self.stop.set()
        if self._thread is not None:
            self._thread.join(timeout=60)
            assert not self._thread.is_alive(), "the write stream did not stop"


class Pace:
    """The loopback peer's embeddings, paced: a delay before every answer (``seconds``; 0 for
    none), and a gate (``hold``) that stops batch calls after a number of them until ``release``.
    The peer's own handler answers, late, so a batch stays in a worker's hands long enough to kill
    the worker there."""

    def __init__(self, peer: OpenAIServer) -> None:
        self.seconds = 0.0
        self.peer = peer
        self._original = peer.routes["/v1/embeddings"]
        self._lock = threading.Lock()
        self._allowed: int | None = None  # batch calls still let through; None: no gate
        self._open = threading.Event()
        self._open.set()
        peer.routes["/v1/embeddings"] = self._handle

    def hold(self, after: int) -> None:
        """Let ``after`` more batch calls (more than one text: not a probe, not a query) through,
        then hold the next ones until ``release``."""
        with self._lock:
            self._allowed = after
            self._open.clear()

    def release(self) -> None:
        with self._lock:
            self._allowed = None
            self._open.set()

    def _handle(self, server: OpenAIServer, body: dict[str, Any]) -> tuple[int, Any]:
        if isinstance(body.get("input"), list) and len(body["input"]) > 1:
            with self._lock:
                wait = self._allowed is not None and self._allowed <= 0
                if self._allowed is not None and self._allowed > 0:
                    self._allowed -= 1
            if wait:
                self._open.wait(120)
        if self.seconds:
            time.sleep(self.seconds)
        return embeddings_handler(server, body)

    def remove(self) -> None:
        self.release()
        self.peer.routes["/v1/embeddings"] = self._original


def linker(
    delay: float, keywords: list[str], per_cycle: int = 2
) -> Callable[[dict[str, Any]], str]:
    """Dream's model: ``keywords`` as search phrases, the first ``per_cycle`` candidates of an
    evaluation as topical links, no recurrent events; each answer after ``delay`` seconds."""

    def answer(body: dict[str, Any]) -> str:
        time.sleep(delay)
        system = str(body["messages"][0]["content"])
        if "search phrases" in system:
            return json.dumps(keywords)
        if "recurring event" in system:
            return "[]"
        seen = re.findall(r'<candidate id="(\w+)">', str(body["messages"][-1]["content"]))
        return json.dumps(
            [{"target": label, "type": "topical", "confidence": 0.9} for label in seen[:per_cycle]]
        )

    return answer


def cli(fleet: Fleet, name: str, args: list[str], extra: dict[str, str]) -> Process:
    """A ``ctx`` command started as a process of the fleet (its log, its name as
    ``application_name``), with ``extra`` variables (``CTX_URL``, ``CTX_API_KEY``)."""
    log = fleet.root / name / "log.txt"
    log.parent.mkdir(parents=True, exist_ok=True)
    handle: IO[bytes] = log.open("wb")
    popen = subprocess.Popen(
        [sys.executable, "-m", "ctx.ui.cli", *args],
        env={**fleet.env(name), **extra},
        stdout=handle,
        stderr=subprocess.STDOUT,
    )
    handle.close()
    proc = Process(name, popen, log)
    fleet.processes.append(proc)
    return proc


def count(url: str, sql: str, *params: Any) -> int:
    """A ``SELECT count(*) ...`` on the fleet's database."""
    return int(query_rows(url, sql, *params)[0][0])


def jobs_open(url: str, *kinds: str) -> dict[str, int]:
    """Jobs of these kinds (all kinds without any) still queued or running, by kind and status."""
    rows = query_rows(
        url,
        "SELECT kind || ':' || status, count(*) FROM context_jobs "
        "WHERE status IN ('queued', 'running') AND (cardinality(%s::text[]) = 0 OR kind = ANY(%s)) "
        "GROUP BY 1",
        list(kinds),
        list(kinds),
    )
    return {str(k): int(n) for k, n in rows}


def quarantined(url: str) -> list[tuple[Any, ...]]:
    return query_rows(
        url, "SELECT id, kind, last_error FROM context_jobs WHERE status = 'quarantined'"
    )


def held_by(url: str, lease: int) -> dict[str, list[str]]:
    """What a (dead) lease still holds: running jobs by kind (their block id or job id) and the
    blocks whose Dream state it claimed, under ``dream``."""
    held: dict[str, list[str]] = {}
    for kind, job_id, block in query_rows(
        url,
        "SELECT kind, id, payload->>'block_id' FROM context_jobs "
        "WHERE status = 'running' AND locked_by = %s",
        lease,
    ):
        held.setdefault(str(kind), []).append(str(block or job_id))
    dreams = query_rows(
        url, "SELECT block_id::text FROM context_dream_state WHERE claimed_by = %s", lease
    )
    if dreams:
        held["dream"] = [str(r[0]) for r in dreams]
    return held


def per_block(url: str, sql: str, ids: list[str]) -> Counter[str]:
    """Rows per block id of ``sql`` (which selects one block id column, filtered by ``%s``, the
    ids as uuid[])."""
    return Counter(str(r[0]) for r in query_rows(url, sql, ids))
