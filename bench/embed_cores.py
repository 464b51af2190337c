"""How busy the cores are while an embedding backlog drains (issue 38).

``--blocks`` notes of ~800 characters are stored with no worker running, so every embed job
waits; then a ``ctx worker`` process (default settings, the default embedder) joins the same
embedded cluster and drains the queue, as a user gets it after an import. Every ``--every``
seconds the CPU time of the worker process (all its threads) and of every PostgreSQL process
(the postmaster and its children: backends, WAL writer, checkpointer) is sampled; so is the
whole machine (/proc/stat), whose rest is what other processes took meanwhile. On a shared
machine a round waits (up to ``--wait-quiet`` seconds) until the machine is idle before it starts;
a round during which others took more than 0.2 cores is marked as disturbed.

The drain runs from the first sample after the first batch was done to the one that saw the
queue empty; the model's loading before it is reported apart. Reported: cores used by the worker
and PostgreSQL (mean and median of the samples), blocks/s, and, in the same run, the ceiling: the
same texts embedded by the same embedder in this process with no database (cores used and
blocks/s). ``--loops 1,2`` runs every round once per ``jobs.worker_loops`` value (before and
after in one run).

    .venv/bin/python bench/embed_cores.py [--blocks 600] [--rounds 2] [--loops 1,2] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil
from _common import bench_app, bench_environ, ctx_env_summary, principal, progress, table
from synthetic import ENGLISH_WORDS, Corpus

from ctx.core import StoreRequest, store_block
from ctx.core.embed import active_generation, block_text
from ctx.core.embed.jobs import BATCH

CTX = str(Path(sys.executable).parent / "ctx")
TICKS = os.sysconf("SC_CLK_TCK")


def machine_busy_s() -> float:
    """CPU seconds the whole machine spent not idle (all cores), from /proc/stat."""
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields[:8]
    return (user + nice + system + irq + softirq + steal) / TICKS


def tree_cpu_s(roots: list[int]) -> dict[int, float]:
    """CPU seconds (user + system, every thread) of each process under ``roots``, by pid."""
    out: dict[int, float] = {}
    for pid in roots:
        try:
            root = psutil.Process(pid)
            procs = [root, *root.children(recursive=True)]
        except psutil.Error:
            continue
        for proc in procs:
            try:
                t = proc.cpu_times()
            except psutil.Error:
                continue
            out[proc.pid] = t.user + t.system
    return out


@dataclass
class Sampler:
    """Samples, every ``every`` seconds, the cores used by the worker, by PostgreSQL and by the
    whole machine over the last interval, with the embed jobs left (read by ``left``)."""

    worker: int
    postgres: int
    left: Any
    every: float = 0.5
    samples: list[dict[str, float]] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        wall, machine = time.monotonic(), machine_busy_s()
        worker, pg = tree_cpu_s([self.worker]), tree_cpu_s([self.postgres])
        while not self._stop.wait(self.every):
            now, busy = time.monotonic(), machine_busy_s()
            worker2, pg2 = tree_cpu_s([self.worker]), tree_cpu_s([self.postgres])
            span = now - wall
            # a process that ended within the interval is lost; one that began counts in full
            self.samples.append(
                {
                    "t": now,
                    "worker": sum(v - worker.get(p, 0.0) for p, v in worker2.items()) / span,
                    "postgres": sum(v - pg.get(p, 0.0) for p, v in pg2.items()) / span,
                    "machine": (busy - machine) / span,
                    "left": float(self.left()),
                }
            )
            wall, machine, worker, pg = now, busy, worker2, pg2


def machine_cores(seconds: float = 3.0) -> float:
    """Cores the machine uses over ``seconds`` (other work on a shared machine)."""
    before, t0 = machine_busy_s(), time.monotonic()
    time.sleep(seconds)
    return (machine_busy_s() - before) / (time.monotonic() - t0)


def wait_for_quiet(limit_s: float, most: float = 0.15) -> float:
    """Wait until the machine uses at most ``most`` cores (or ``limit_s`` has passed); return
    what it used last."""
    deadline = time.monotonic() + limit_s
    while (used := machine_cores()) > most and time.monotonic() < deadline:
        progress(f"  waiting for a quiet machine ({used:.2f} cores busy)")
        time.sleep(10)
    return used


def notes(n: int, seed: int) -> list[tuple[str, str]]:
    corpus = Corpus(seed, words=ENGLISH_WORDS)
    return [
        (f"{corpus.title()} n{i}", corpus.text(int(corpus.rng.integers(700, 901))))
        for i in range(n)
    ]


def summary(values: list[float]) -> dict[str, float]:
    return {
        "mean": round(statistics.fmean(values), 2) if values else 0.0,
        "median": round(statistics.median(values), 2) if values else 0.0,
    }


def drain_round(
    blocks: int, seed: int, every: float, quiet_s: float, loops: str | None
) -> dict[str, Any]:
    home = Path(tempfile.mkdtemp(prefix="ctx-bench-cores-"))
    env = bench_environ({"CTX_JOBS_WORKER_LOOPS": loops} if loops else None)
    texts = notes(blocks, seed)
    try:
        with bench_app(None, env, home=str(home)) as app:
            who = principal("bench")
            started = time.perf_counter()
            for title, content in texts:
                store_block(app, who, StoreRequest(title=title, content=content))
            store_s = time.perf_counter() - started
            with app.connection() as conn:
                gen = active_generation(conn)
            assert gen is not None and app.db.embedded is not None
            postmaster = app.db.embedded.postmaster()
            assert postmaster is not None
            poll = app.db.connect_raw()

            def left() -> int:
                row = poll.execute(
                    "SELECT count(*) AS n FROM context_jobs WHERE kind = 'embed'"
                ).fetchone()
                return int(row["n"]) if row else 0

            before = wait_for_quiet(quiet_s)
            child_env = {k: v for k, v in os.environ.items() if not k.startswith("CTX_")}
            child_env.update(env, CTX_HOME=str(home))
            spawned = time.monotonic()
            proc = subprocess.Popen(
                [CTX, "worker"], env=child_env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
            )
            sampler = Sampler(proc.pid, postmaster, left, every)
            sampler.start()
            try:
                while proc.poll() is None and not (
                    sampler.samples and sampler.samples[-1]["left"] == 0
                ):
                    time.sleep(every / 2)
            finally:
                sampler.stop()
                proc.terminate()
                _, err = proc.communicate(timeout=60)
                poll.close()
            if not sampler.samples or sampler.samples[-1]["left"]:
                raise SystemExit(f"the worker stopped with jobs left: {err.decode()[-2000:]}")
            ceiling = engine_alone(app, gen, texts)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    # from the first batch done to the sample that saw the queue empty
    window = [s for s in sampler.samples if s["left"] < blocks]
    first = window[0]
    drain_s = window[-1]["t"] - first["t"]
    both = [s["worker"] + s["postgres"] for s in window]
    others = [s["machine"] - o for s, o in zip(window, both, strict=True)]
    return {
        "worker_loops": loops or "default",
        "blocks": blocks,
        "store_s": round(store_s, 1),
        "load_s": round(first["t"] - spawned, 1),
        "drain_s": round(drain_s, 1),
        "blocks_per_s": round(first["left"] / drain_s, 1),
        "cores_worker_pg": summary(both),
        "cores_worker": summary([s["worker"] for s in window]),
        "cores_postgres": summary([s["postgres"] for s in window]),
        "cores_others": summary(others),
        "cores_busy_before": round(before, 2),
        "disturbed": statistics.fmean(others) > 0.2,
        "samples": len(window),
        "ceiling": ceiling,
    }


def engine_alone(app: Any, gen: dict[str, Any], texts: list[tuple[str, str]]) -> dict[str, Any]:
    """The same texts through the same embedder in this process, batches as the worker claims
    them, no database: what the model alone gets out of the cores."""
    embedder = app.embedders.for_generation(gen)
    embedder.embed_documents(["warm-up"])
    inputs = [block_text(t, c) for t, c in texts]
    me = psutil.Process()
    cpu0, busy0, t0 = sum(me.cpu_times()[:2]), machine_busy_s(), time.perf_counter()
    for i in range(0, len(inputs), BATCH):
        embedder.embed_documents(inputs[i : i + BATCH])
    wall = time.perf_counter() - t0
    mine = sum(me.cpu_times()[:2]) - cpu0
    return {
        "blocks_per_s": round(len(inputs) / wall, 1),
        "cores": round(mine / wall, 2),
        "cores_others": round((machine_busy_s() - busy0 - mine) / wall, 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--blocks", type=int, default=600)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument(
        "--loops",
        default="",
        help="comma-separated jobs.worker_loops values, each run in every round (e.g. 1,2: "
        "before and after in one run); default: the setting as configured",
    )
    ap.add_argument("--every", type=float, default=0.5, help="seconds between CPU samples")
    ap.add_argument("--seed", type=int, default=38)
    ap.add_argument(
        "--wait-quiet", type=float, default=600, help="seconds a round may wait for an idle machine"
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    if shutil.which(CTX) is None:
        raise SystemExit(f"{CTX} not found: run make dev")
    report: dict[str, Any] = {
        "cpus": os.cpu_count(),
        "load_avg_at_start": [round(x, 2) for x in os.getloadavg()],
        "settings_env": ctx_env_summary(bench_environ()),
        "rounds": [],
    }
    variants = [v.strip() for v in args.loops.split(",") if v.strip()] or [None]
    for r in range(args.rounds):
        for loops in variants:
            progress(
                f"round {r + 1}/{args.rounds}, worker loops {loops or 'default'}: "
                f"{args.blocks} notes, load {os.getloadavg()[0]:.2f}"
            )
            report["rounds"].append(
                drain_round(args.blocks, args.seed + r, args.every, args.wait_quiet, loops)
            )
    report["load_avg_at_end"] = [round(x, 2) for x in os.getloadavg()]
    print(
        f"{report['cpus']} CPUs; load average at start {report['load_avg_at_start']}, "
        f"at end {report['load_avg_at_end']}; {report['settings_env']}"
    )
    print(
        table(
            [
                "round",
                "worker loops",
                "blocks/s",
                "cores: worker + PG (mean / median)",
                "worker",
                "PG",
                "others",
                "engine alone: blocks/s",
                "engine alone: cores",
            ],
            [
                [
                    i // len(variants) + 1,
                    r["worker_loops"],
                    r["blocks_per_s"],
                    f"{r['cores_worker_pg']['mean']} / {r['cores_worker_pg']['median']}",
                    r["cores_worker"]["mean"],
                    r["cores_postgres"]["mean"],
                    f"{r['cores_others']['mean']}{' (disturbed)' if r['disturbed'] else ''}",
                    r["ceiling"]["blocks_per_s"],
                    r["ceiling"]["cores"],
                ]
                for i, r in enumerate(report["rounds"])
            ],
        )
    )
    if args.json:
        print(json.dumps(report, separators=(",", ":")))


if __name__ == "__main__":
    main()
