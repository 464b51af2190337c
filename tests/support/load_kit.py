"""A sustained mixed load on one running ``ctxd``: client threads, a sampler, the final check.

Each client thread has its own key (its own home scope) and one keep-alive HTTP connection, and
runs every kind of operation once, then picks them by weight until the time or the operation
count runs out: ``store``, ``query``
(no synthesis), ``search``, MCP ``tools/call`` of ``search`` and ``store`` (plain JSON-RPC over
the stateless streamable HTTP endpoint, which answers JSON), and a governor turn (``prepare``
then ``commit``, timed apart). Every answer that is not 2xx, every exception and every MCP tool
result with ``isError`` counts as an error of its operation.

A sampler thread records, every few seconds, the resident memory of the ``ctxd`` process tree
and of PostgreSQL (when its postmaster pid is known), the database's size and the job queue.
At the end every acknowledged block and governor event is looked up in the database: one that
is missing is lost.

Used by tests/test_load_bounded.py (a short run) and bench/load.py (the long one).
"""

from __future__ import annotations

import json
import math
import random
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import psycopg

# How often each operation is picked, relative to the others.
WEIGHTS: dict[str, int] = {
    "store": 3,
    "query": 2,
    "search": 3,
    "mcp.search": 1,
    "mcp.store": 1,
    "governor": 2,  # timed as governor.prepare and governor.commit
}
# The operation names in reports (a governor turn is two).
OPERATIONS = ("store", "query", "search", "mcp.search", "mcp.store", "governor.prepare",
              "governor.commit")  # fmt: skip
KEEP_MESSAGES = 5  # first error messages kept per operation
EVENTS_PER_THREAD = 40  # a client starts a new governor thread after this many events

WORDS = [
    "backup",
    "deploy",
    "outage",
    "invoice",
    "schema",
    "tenant",
    "cache",
    "latency",
    "rollout",
    "index",
    "replica",
    "vacuum",
    "migration",
    "quota",
    "billing",
    "alert",
    "runbook",
    "storage",
    "network",
    "kernel",
    "upgrade",
    "release",
    "budget",
    "forecast",
    "contract",
    "vendor",
    "audit",
    "incident",
    "ticket",
    "sprint",
    "roadmap",
    "customer",
    "staging",
    "certificate",
]


@dataclass
class OpRecord:
    """What one operation saw: (offset in seconds from the start, duration in seconds) pairs."""

    samples: list[tuple[float, float]] = field(default_factory=list)
    errors: int = 0
    messages: list[str] = field(default_factory=list)

    def error(self, message: str) -> None:
        self.errors += 1
        if len(self.messages) < KEEP_MESSAGES:
            self.messages.append(message[:300])


@dataclass
class Sample:
    """One sampler reading; memory in MiB, size in MiB, ``None`` where it is unknown."""

    t: float
    ctxd_mib: float | None
    postgres_mib: float | None
    db_mib: float | None
    queued_jobs: int | None


@dataclass
class LoadResult:
    seconds: float
    clients: int
    ops: dict[str, OpRecord]
    samples: list[Sample]
    stored: int
    events: int
    lost_blocks: list[str]
    lost_events: list[str]
    records_indexed: int
    jobs: dict[str, dict[str, int]]

    @property
    def errors(self) -> int:
        return sum(r.errors for r in self.ops.values())

    @property
    def lost(self) -> int:
        return len(self.lost_blocks) + len(self.lost_events)


# --- process memory ---------------------------------------------------------------------------


def _children() -> dict[int, list[int]]:
    """Child pids by parent pid, from /proc."""
    tree: dict[int, list[int]] = defaultdict(list)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # the command may hold spaces and parentheses: the fields follow the last ')'
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        tree[ppid].append(int(entry.name))
    return tree


def process_tree(root: int) -> list[int]:
    tree = _children()
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(tree.get(pid, []))
    return found


def memory_kib(pid: int) -> int | None:
    """Proportional set size (shared pages split among their users, so that a cluster's shared
    buffers count once), or resident size where smaps_rollup cannot be read; None when gone."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return 0  # a kernel thread or a zombie


def tree_mib(root: int, exclude: frozenset[int] | set[int] = frozenset()) -> float | None:
    total = [memory_kib(p) for p in process_tree(root) if p not in exclude]
    known = [k for k in total if k is not None]
    return sum(known) / 1024.0 if known else None


def postmaster_pid(pgdata: Path) -> int | None:
    try:
        return int((pgdata / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


# --- set-up through the admin API -------------------------------------------------------------


def lift_rate_limits(url: str, admin_token: str) -> list[str]:
    """Set every per-key rate limit setting (``limits.*_per_minute``) to 0 (off); their names.

    Where no such setting exists (an older ctx), nothing is changed. A limit that is not hot
    would apply only after a restart: that is an error here, not a silent throttle.
    """
    with httpx.Client(base_url=url, headers={"X-Context-Key": admin_token}, timeout=60) as http:
        listed = http.get("/api/settings")
        listed.raise_for_status()
        rows = [
            row
            for row in listed.json()["settings"]
            if str(row["key"]).startswith("limits.") and str(row["key"]).endswith("_per_minute")
        ]
        for row in rows:
            if not row.get("hot", True):
                raise AssertionError(f"{row['key']} is not hot: set it before ctxd starts")
            http.put(f"/api/settings/{row['key']}", json={"value": 0}).raise_for_status()
    return [str(row["key"]) for row in rows]


def client_keys(url: str, admin_token: str, count: int) -> list[str]:
    """One key per client, each writing its own home scope ``load<i>``."""
    tokens = []
    with httpx.Client(base_url=url, headers={"X-Context-Key": admin_token}, timeout=60) as http:
        for i in range(count):
            made = http.post(
                "/api/keys", json={"name": f"load client {i}", "home_scope": f"load{i}"}
            )
            if made.status_code != 201:
                raise AssertionError(f"POST /api/keys: {made.status_code} {made.text}")
            tokens.append(str(made.json()["api_key"]))
    return tokens


# --- the clients ------------------------------------------------------------------------------


class Client:
    """One simulated user: a key, a connection, a random stream of operations."""

    def __init__(self, index: int, url: str, token: str, seed: int) -> None:
        self.index = index
        self.http = httpx.Client(base_url=url, headers={"X-Context-Key": token}, timeout=120)
        self.rng = random.Random(seed * 1000 + index)
        self.stored: list[str] = []
        self.records: list[str] = []
        self.n = 0
        self.session = 0
        self.session_events = 0
        self.rpc_id = 0

    def text(self, words: int) -> str:
        return " ".join(self.rng.choice(WORDS) for _ in range(words))

    def note(self) -> dict[str, Any]:
        self.n += 1
        return {
            "title": f"client {self.index} note {self.n} {self.text(3)}",
            "content": f"{self.text(40)}. Ticket {self.index}-{self.n}.",
            "category": f"load-{self.n % 8}",
            "tags": [self.rng.choice(WORDS)],
        }

    # Each op returns an error message, or None when it worked.

    def store(self) -> str | None:
        r = self.http.post("/api/store", json=self.note())
        if r.status_code != 200:
            return f"{r.status_code} {r.text}"
        self.stored.append(str(r.json()["id"]))
        return None

    def query(self) -> str | None:
        body = {"query": self.text(4), "limit": 5, "synthesize": False}
        r = self.http.post("/api/query", json=body)
        return None if r.status_code == 200 else f"{r.status_code} {r.text}"

    def search(self) -> str | None:
        r = self.http.post("/api/search", json={"query": self.text(2), "limit": 10})
        return None if r.status_code == 200 else f"{r.status_code} {r.text}"

    def _tool(self, name: str, arguments: dict[str, Any]) -> tuple[str | None, str]:
        self.rpc_id += 1
        body = {"jsonrpc": "2.0", "id": self.rpc_id, "method": "tools/call",
                "params": {"name": name, "arguments": arguments}}  # fmt: skip
        r = self.http.post(
            "/mcp", json=body, headers={"Accept": "application/json, text/event-stream"}
        )
        if r.status_code != 200:
            return f"{r.status_code} {r.text}", ""
        answer = r.json()
        if "error" in answer:
            return f"JSON-RPC error {answer['error']}", ""
        text = "".join(part.get("text", "") for part in answer["result"].get("content", []))
        if answer["result"].get("isError"):
            return f"tool error: {text}", ""
        return None, text

    def mcp_search(self) -> str | None:
        return self._tool("search", {"query": self.text(2), "limit": 10})[0]

    def mcp_store(self) -> str | None:
        problem, text = self._tool("store", self.note())
        if problem is None:
            self.stored.append(str(json.loads(text)["id"]))
        return problem

    def governor(self, record: Callable[[str, float, str | None], None]) -> None:
        if self.session_events >= EVENTS_PER_THREAD:
            self.session, self.session_events = self.session + 1, 0
        thread = {"session_id": f"load-{self.index}-{self.session}"}
        for path, role in (("prepare", "user"), ("commit", "assistant")):
            body: dict[str, Any] = {"thread": thread, "event": {"role": role,
                                                                "content": self.text(25)}}  # fmt: skip
            if path == "prepare":
                body["budget"] = 2000
            started = time.perf_counter()
            try:
                r = self.http.post(f"/api/governor/{path}", json=body)
                problem = None if r.status_code == 200 else f"{r.status_code} {r.text}"
                if problem is None:
                    self.records.append(str(r.json()["record_id"]))
                    self.session_events += 1
            except Exception as exc:  # any failure of the call is an error of the operation
                problem = f"{type(exc).__name__}: {exc}"
            record(f"governor.{path}", started, problem)
            if problem is not None:
                return  # no commit after a failed prepare

    def close(self) -> None:
        self.http.close()


class Load:
    """``clients`` threads against ``url`` for ``seconds`` or ``max_ops`` operations in all."""

    def __init__(
        self,
        url: str,
        tokens: Sequence[str],
        database_url: str,
        *,
        ctxd_pid: int | None = None,
        postgres_pid: int | None = None,
        admin_token: str | None = None,
        sample_s: float = 5.0,
        seed: int = 19,
    ) -> None:
        self.url = url
        self.database_url = database_url
        self.ctxd_pid = ctxd_pid
        self.postgres_pid = postgres_pid
        self.sample_s = sample_s
        self.clients = [Client(i, url, t, seed) for i, t in enumerate(tokens)]
        self.ops: dict[str, OpRecord] = {name: OpRecord() for name in OPERATIONS}
        self.samples: list[Sample] = []
        self.lock = threading.Lock()
        self.done = threading.Event()
        self.count = 0
        self.started = 0.0
        self.admin_token = admin_token

    # -- bookkeeping

    def record(self, op: str, started: float, problem: str | None) -> None:
        now = time.perf_counter()
        with self.lock:
            entry = self.ops[op]
            if problem is None:
                entry.samples.append((started - self.started, now - started))
            else:
                entry.error(problem)

    def _take(self, max_ops: int | None, deadline: float) -> bool:
        """Claim one more operation; False when the run is over."""
        with self.lock:
            if self.done.is_set() or time.perf_counter() >= deadline:
                return False
            if max_ops is not None and self.count >= max_ops:
                return False
            self.count += 1
            return True

    # -- threads

    def _client_loop(self, client: Client, max_ops: int | None, deadline: float) -> None:
        names, weights = list(WEIGHTS), list(WEIGHTS.values())
        simple: dict[str, Callable[[], str | None]] = {
            "store": client.store,
            "query": client.query,
            "search": client.search,
            "mcp.search": client.mcp_search,
            "mcp.store": client.mcp_store,
        }
        first_round = names[:]  # every kind once first (in a random order), then by weight
        client.rng.shuffle(first_round)
        while self._take(max_ops, deadline):
            op = first_round.pop() if first_round else client.rng.choices(names, weights)[0]
            if op == "governor":
                client.governor(self.record)
                continue
            started = time.perf_counter()
            try:
                problem = simple[op]()
            except Exception as exc:  # any failure of the call is an error of the operation
                problem = f"{type(exc).__name__}: {exc}"
            self.record(op, started, problem)

    def sample(self) -> Sample:
        t = time.perf_counter() - self.started
        postgres = None
        pg_pids: set[int] = set()
        if self.postgres_pid is not None:
            pg_pids = set(process_tree(self.postgres_pid))
            postgres = tree_mib(self.postgres_pid)
        ctxd = tree_mib(self.ctxd_pid, exclude=pg_pids) if self.ctxd_pid is not None else None
        db_mib = queued = None
        try:
            with psycopg.connect(self.database_url, autocommit=True, connect_timeout=10) as conn:
                row = conn.execute(
                    "SELECT pg_database_size(current_database()),"
                    " (SELECT count(*) FROM context_jobs WHERE status IN ('queued', 'running'))"
                ).fetchone()
                if row is not None:
                    db_mib, queued = row[0] / 2**20, int(row[1])
        except psycopg.Error:
            pass
        return Sample(t, ctxd, postgres, db_mib, queued)

    def _sampler(self) -> None:
        while True:
            self.samples.append(self.sample())
            if self.done.wait(self.sample_s):
                break

    def run(
        self, seconds: float, max_ops: int | None = None, progress: Callable[[str], None] = print
    ) -> LoadResult:
        self.started = time.perf_counter()
        deadline = self.started + seconds
        sampler = threading.Thread(target=self._sampler, name="load-sampler", daemon=True)
        sampler.start()
        workers = [
            threading.Thread(
                target=self._client_loop, args=(c, max_ops, deadline), name=f"load-{c.index}"
            )
            for c in self.clients
        ]
        for w in workers:
            w.start()
        last_report = self.started
        try:
            while alive := [w for w in workers if w.is_alive()]:
                alive[0].join(timeout=1.0)
                now = time.perf_counter()
                if now - last_report >= 60:
                    last_report = now
                    with self.lock:
                        count, errors = self.count, sum(r.errors for r in self.ops.values())
                    progress(f"{now - self.started:.0f} s: {count} operations, {errors} errors")
        finally:
            self.done.set()
            for w in workers:
                w.join()
            sampler.join()
        elapsed = time.perf_counter() - self.started
        self.samples.append(self.sample())
        for c in self.clients:
            c.close()
        return self._verify(elapsed)

    def _verify(self, elapsed: float) -> LoadResult:
        stored = [b for c in self.clients for b in c.stored]
        records = [r for c in self.clients for r in c.records]
        with psycopg.connect(self.database_url, autocommit=True) as conn:
            found = {
                str(r[0])
                for r in conn.execute(
                    "SELECT id FROM context_blocks WHERE id = ANY(%s::uuid[])", (stored,)
                )
            }
            events = {
                str(r[0])
                for r in conn.execute(
                    "SELECT record_id FROM context_thread_events WHERE record_id = ANY(%s::uuid[])",
                    (records,),
                )
            }
            indexed = conn.execute(
                "SELECT count(*) FROM context_blocks WHERE id = ANY(%s::uuid[])", (records,)
            ).fetchone()
            jobs: dict[str, dict[str, int]] = defaultdict(dict)
            for kind, status, n in conn.execute(
                "SELECT kind, status, count(*) FROM context_jobs GROUP BY 1, 2 ORDER BY 1, 2"
            ):
                jobs[kind][status] = int(n)
        return LoadResult(
            seconds=elapsed,
            clients=len(self.clients),
            ops=self.ops,
            samples=self.samples,
            stored=len(stored),
            events=len(records),
            lost_blocks=[b for b in stored if b not in found],
            lost_events=[r for r in records if r not in events],
            records_indexed=int(indexed[0]) if indexed else 0,
            jobs=dict(jobs),
        )


# --- figures ----------------------------------------------------------------------------------


def pct_ms(durations: Sequence[float], p: float) -> float:
    if not durations:
        return math.nan
    return round(float(np.percentile(np.asarray(durations) * 1000.0, p)), 1)


def op_rows(result: LoadResult) -> list[dict[str, Any]]:
    rows = []
    for name, rec in result.ops.items():
        durations = [d for _, d in rec.samples]
        rows.append({
            "op": name,
            "count": len(durations),
            "per_s": round(len(durations) / result.seconds, 2) if result.seconds else 0.0,
            "p50_ms": pct_ms(durations, 50),
            "p95_ms": pct_ms(durations, 95),
            "p99_ms": pct_ms(durations, 99),
            "errors": rec.errors,
            "messages": rec.messages,
        })  # fmt: skip
    return rows


def window_p95(result: LoadResult, start: float, end: float) -> dict[str, float]:
    """p95 (ms) per operation over the operations that started in [start, end)."""
    return {
        name: pct_ms([d for t, d in rec.samples if start <= t < end], 95)
        for name, rec in result.ops.items()
    }


def slope_per_min(points: Sequence[tuple[float, float]]) -> float:
    """Least-squares slope of (seconds, value) points, per minute; NaN with fewer than 3."""
    if len(points) < 3:
        return math.nan
    ts, vs = zip(*points, strict=True)
    return round(float(np.polyfit(np.asarray(ts), np.asarray(vs), 1)[0]) * 60.0, 3)


def memory_summary(result: LoadResult, window_s: float) -> dict[str, dict[str, float]]:
    """Per series (ctxd, postgres, db): the means of the first window, of the second (after
    warm-up: the embedding model loads at the first request that needs it) and of the last one,
    min, max, and the slope over the second half of the run."""
    half = result.seconds / 2
    out: dict[str, dict[str, float]] = {}
    for series in ("ctxd_mib", "postgres_mib", "db_mib"):
        points = [(s.t, v) for s in result.samples if (v := getattr(s, series)) is not None]
        if not points:
            continue
        first = [v for t, v in points if t < window_s]
        second = [v for t, v in points if window_s <= t < 2 * window_s]
        last = [v for t, v in points if t >= result.seconds - window_s]
        out[series] = {
            "start": round(points[0][1], 1),
            "end": round(points[-1][1], 1),
            "min": round(min(v for _, v in points), 1),
            "max": round(max(v for _, v in points), 1),
            "first_window": round(float(np.mean(first)), 1) if first else math.nan,
            "second_window": round(float(np.mean(second)), 1) if second else math.nan,
            "last_window": round(float(np.mean(last)), 1) if last else math.nan,
            "slope_second_half_per_min": slope_per_min([(t, v) for t, v in points if t >= half]),
        }
    return out
