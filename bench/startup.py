"""What the everyday commands cost to start: CPU time and peak memory of each, against a running ctxd.

Each command runs as its own process, the way a user or an agent runs it (the ``ctx`` console
script of this environment), ``--runs`` times; the figure is the median CPU time (user + system,
from ``wait4``), the median of its ratio to the baseline of the same round (the lower of two
baseline runs, first and last in the round), and the largest peak
RSS. The baseline, measured in the same run, is what talking
HTTP from a command line cannot avoid: ``python -c "import httpx, typer"``. Targets (issue 34):
data commands <= 3x the baseline's CPU and <= 80 MB peak RSS; the agent hooks <= 2x; the stdio
MCP server answering ``initialize`` and ``tools/list`` <= 3x.

    .venv/bin/python bench/startup.py [--runs 5] [--json]

The server is an App on a private embedded PostgreSQL served in this process (a thread), with a
few blocks to find; the commands reach it through ``CTX_URL`` and ``CTX_API_KEY``. Each command
runs under ``/usr/bin/time``, which reports its CPU time and peak RSS.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))

from _common import bench_app, bench_environ, principal, table
from live import live_server

from ctx.core import StoreRequest, access, store_block

BIN = Path(sys.executable).parent
CTX = str(BIN / "ctx")
BASELINE = [sys.executable, "-c", "import httpx, typer"]
BARE = [sys.executable, "-c", "pass"]
HOOK_PROMPT = {"hook_event_name": "UserPromptSubmit", "prompt": "what did we decide about backups?"}
HOOK_STOP = {
    "hook_event_name": "Stop",
    "last_assistant_message": "Done.\n[PERSIST:decisions:Bench marker]\nThe bench keeps this.",
}
HOOK_START = {"hook_event_name": "SessionStart", "source": "startup"}
MCP_LINES = [
    {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "bench", "version": "1"},
        },
    },
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
]


def measure(argv: list[str], env: dict[str, str], stdin: bytes = b"") -> tuple[float, float, int]:
    """Run ``argv``; return (CPU seconds, wall seconds, peak RSS in MB) of that process.

    It runs under ``/usr/bin/time``, which reports its peak RSS: a process forked from this one
    (the server, an embedder loaded) would report this process's peak memory as its own, since
    Linux keeps the high-water mark across ``exec``. The CPU time comes from ``wait4`` on the
    ``time`` process, which counts the command it waited for, to the microsecond."""
    with tempfile.NamedTemporaryFile("r") as report:
        started = time.perf_counter()
        proc = subprocess.Popen(
            ["/usr/bin/time", "-q", "-f", "%M", "-o", report.name, *argv],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        proc.stdin.write(stdin)
        proc.stdin.close()
        proc.stdout.read()  # the commands print little: no pipe fills while the other is read
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.perf_counter() - started
        if proc.returncode != 0:
            raise RuntimeError(f"{argv[1:]} failed ({proc.returncode}): {err.decode()[-400:]}")
        peak_kb = report.read().split()[-1]
    return usage.ru_utime + usage.ru_stime, wall, int(peak_kb) // 1024


def mcp_stdin() -> bytes:
    return b"".join(json.dumps(m).encode() + b"\n" for m in MCP_LINES)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with bench_app(None, bench_environ()) as app:
        with app.connection() as conn:
            _, key = access.create_key(conn, name="bench", home_scope="default")
        who = principal("default")
        ids = [
            str(store_block(app, who, StoreRequest(title=f"Backup plan {i}", content=text))["id"])
            for i, text in enumerate(
                ["We back up nightly to the NAS.", "Restores are tested every month."]
            )
        ]
        with live_server(app) as url:
            env = {k: v for k, v in os.environ.items() if not k.startswith("CTX_")}
            env.update(CTX_URL=url, CTX_API_KEY=key, CTX_HOME=str(app.home), NO_COLOR="1")
            commands: list[tuple[str, str, list[str], bytes]] = [
                ("baseline", "python -c 'import httpx, typer'", BASELINE, b""),
                ("bare", "python -c pass", BARE, b""),
                ("data", "ctx --version", [CTX, "--version"], b""),
                ("data", "ctx --help", [CTX, "--help"], b""),
                ("data", "ctx save", [CTX, "save", "Bench note", "A note from the bench."], b""),
                ("data", "ctx get", [CTX, "get", ids[0]], b""),
                ("data", "ctx search", [CTX, "search", "backup"], b""),
                ("data", "ctx query (sources)", [CTX, "query", "backups", "--no-answer"], b""),
                ("data", "ctx list-meta", [CTX, "list-meta"], b""),
                ("data", "ctx stats", [CTX, "stats"], b""),
                ("hook", "ctx brief --hook", [CTX, "brief", "--hook"], json.dumps(HOOK_START).encode()),
                ("hook", "ctx recall --hook", [CTX, "recall", "--hook"], json.dumps(HOOK_PROMPT).encode()),
                ("hook", "ctx persist --hook", [CTX, "persist", "--hook"], json.dumps(HOOK_STOP).encode()),
                ("mcp", "ctx mcp serve --stdio (initialize + tools/list)",
                 [CTX, "mcp", "serve", "--stdio"], mcp_stdin()),
            ]  # fmt: skip
            # Rounds of every command in turn: a machine whose load drifts shifts a round's
            # figures together, and each command's ratio is taken against its own round.
            samples: dict[str, list[tuple[float, float, int, float]]] = {}
            # The round's baseline is the lower of two measurements, first and last in the
            # round (the first process of a round tends to cost more: a kinder baseline).
            for _ in range(args.runs):
                measured = [
                    (label, *measure(argv, env, stdin)) for _, label, argv, stdin in commands
                ]
                base_cpu = min(measured[0][1], measure(BASELINE, env)[0])
                for label, cpu, wall, rss in measured:
                    samples.setdefault(label, []).append((cpu, wall, rss, cpu / base_cpu))
            figures: dict[str, dict[str, Any]] = {}
            for kind, label, _argv, _stdin in commands:
                runs = samples[label]
                figures[label] = {
                    "kind": kind,
                    "cpu_s": round(statistics.median(r[0] for r in runs), 3),
                    "wall_s": round(statistics.median(r[1] for r in runs), 3),
                    "rss_mb": max(r[2] for r in runs),
                    "ratio": statistics.median(r[3] for r in runs),
                }
    limits = {"data": 3.0, "hook": 2.0, "mcp": 3.0}
    rows = []
    for label, f in figures.items():
        ratio = f.pop("ratio")
        f["x_baseline"] = round(ratio, 2)
        limit = limits.get(f["kind"])
        f["target"] = f"<= {limit}x" if limit else ""
        f["met"] = None if limit is None else (ratio <= limit and f["rss_mb"] <= 80)
        verdict = "" if f["met"] is None else ("met" if f["met"] else "MISSED")
        rows.append([label, f["cpu_s"], f["wall_s"], f["rss_mb"], f"{ratio:.2f}x", f["target"],
                     verdict])  # fmt: skip
    if args.json:
        print(json.dumps({"runs": args.runs, "commands": figures}))
    else:
        print(
            table(["command", "CPU s", "wall s", "peak RSS MB", "x baseline", "target", ""], rows)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
