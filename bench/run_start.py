"""How long a second `make run` takes to answer /health, against `ctx serve` alone.

An initialised home (embedded PostgreSQL, migrations applied, the admin key made) is started
``--runs`` times by each command, the way a user restarts ctx: the figure is the wall time from
starting the command to the first 200 from ``/health`` (polled every 20 ms), median and range.
Each run is stopped with SIGTERM (to its process group: make's child included) before the next.

    .venv/bin/python bench/run_start.py [--runs 5] [--json]

Commands: ``make -s run`` (now ``ctx serve --init``), what ``make run`` ran before issue 34
(``ctx init`` then ``ctx serve``: the embedded PostgreSQL started and stopped twice), and
``ctx serve`` alone. The repository's ``.venv`` must be installed (``make install``), so that
``make run`` finds nothing to install.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
CTX = str(BIN / "ctx")

COMMANDS = {
    "make run (ctx serve --init)": ["make", "-s", "run"],
    "before: ctx init; ctx serve": ["sh", "-c", f"{CTX} init >/dev/null && exec {CTX} serve"],
    "ctx serve": [CTX, "serve"],
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def time_to_health(command: list[str], env: dict[str, str], url: str) -> float:
    started = time.perf_counter()
    proc = subprocess.Popen(
        command,
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"{command} exited early with {proc.returncode}")
            try:
                if httpx.get(url + "/health", timeout=1).status_code == 200:
                    return time.perf_counter() - started
            except httpx.HTTPError:
                pass
            time.sleep(0.02)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="ctx-run-start-"))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("CTX_")}
    env |= {"CTX_HOME": str(home), "CTX_SERVER_PORT": str(port)}
    try:
        first = time_to_health(COMMANDS["make run (ctx serve --init)"], env, url)
        results: dict[str, list[float]] = {name: [] for name in COMMANDS}
        for _ in range(args.runs):  # interleaved: a change in the machine's load hits all alike
            for name, command in COMMANDS.items():
                results[name].append(time_to_health(command, env, url))
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print(f"first make run (fresh home, database created): {first:.2f} s to /health")
    print(f"{'command (home initialised)':32} {'median s':>9} {'min s':>7} {'max s':>7}")
    for name, seconds in results.items():
        print(
            f"{name:32} {statistics.median(seconds):9.2f} {min(seconds):7.2f} {max(seconds):7.2f}"
        )
    if args.json:
        summary = {name: statistics.median(s) for name, s in results.items()}
        print(json.dumps({"first_make_run_s": round(first, 3), "median_s": summary}))


if __name__ == "__main__":
    main()
