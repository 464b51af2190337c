"""The context governor: envelope recall on LoCoMo, prepare() overhead, and a crash test.

**Recall** (``--recall``): each conversation of the data file is one thread; its turns are
replayed in order through the governor (the first speaker's turns through ``prepare`` without a
desk, which nothing here reads, the other's through ``commit``, the session dates as event
times), the indexer catches up (``flush``
of the outbox), then every question of categories 1-4 is asked with ``prepare`` at each budget.
A question counts as found when an evidence turn is in the envelope (the recent ring or the
desk); ``any`` and ``all`` evidence are both reported. Each question is removed from the thread
again after it was measured, so no question sees another. The first three conversations are
the tuning half, the other two confirm.

The envelopes go to a chat backend row serving ``--model`` (default ``gpt-4o``; nothing calls
it), as the gateway's would. **Fill** is what each envelope costs by the model's own tokenizer
(``--reference``, a ``quicktok`` encoding, independent of ctx's counters) with the model's chat
framing, as a share of its budget: mean and largest, and how many envelopes went over.

**Latency** (``--latency``): threads built in bulk (events, their records and random unit vectors
written with SQL, as ``bench/latency.py`` does for blocks; event texts are LoCoMo turns with two
pseudo-words appended, focus texts LoCoMo questions): one thread of 1,000 events, one of 100,000,
and 1,000 threads of 100 events in one scope (a prepare on one of them). Then, query by query and
interleaved: ``prepare`` with the desk on and the real query embedding (``e5``), ``prepare`` with
a stub embedder, and the desk's own fusion call on the same thread and text with every channel
and with the dense channel alone: the same-run baseline. Target (issue 38): prepare p95 <= 25 ms
and <= 2.5x the dense-only fusion's p95. No model call is timed. ``--home DIR`` keeps the
cluster; ``--reuse`` measures the threads already there.

**Crash** (``--crash``): a child process records events and is killed with SIGKILL before any
indexing; a new process finds the outbox jobs, indexes them, and every event is there.

    .venv/bin/python bench/governor.py --recall --json
    .venv/bin/python bench/governor.py --latency --queries 100 --json [--home DIR [--reuse]]
    .venv/bin/python bench/governor.py --crash
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from datetime import timedelta
from typing import Any

from _common import (
    REPO_ROOT,
    bench_app,
    bench_environ,
    principal,
    progress,
)
from governor_latency import latency, latency_report
from locomo_data import CATEGORIES, Conversation, load

from ctx.core import App
from ctx.core.governor import CommitRequest, PrepareRequest
from ctx.core.runtime import drain
from ctx.core.runtime.setting_writes import set_setting

DEFAULT_DATA = REPO_ROOT.parent / "shared" / "eval" / "locomo-dev.json"
#: what a chat template adds, by the reference tokenizer: per message, per name, to prime the
#: reply. OpenAI documents 3, 1 and 3; Llama 3's header and end-of-turn tokens are 5 per message
#: and its begin-of-text and assistant header 5; Qwen's ChatML 5 and 3 (both drop names).
FRAMING = {
    "o200k_base": (3, 1, 3),
    "cl100k_base": (3, 1, 3),
    "llama3": (5, 0, 5),
    "qwen3": (5, 0, 3),
}
BUDGETS = (1000, 2000, 4000)
TARGET_RECALL = 0.70

# -- recall ------------------------------------------------------------------------------------


def replay(app: App, conv: Conversation) -> dict[str, tuple[int, str]]:
    """Every turn into the thread; dia_id -> (seq, record id)."""
    who = principal(conv.scope)
    first = conv.turns[0].speaker
    out: dict[str, tuple[int, str]] = {}
    for turn in conv.turns:
        event = {
            "role": "user" if turn.speaker == first else "assistant",
            "content": turn.text,
            "name": turn.speaker,
            "occurred_at": turn.when.isoformat() if turn.when else None,
        }
        body = {"thread": {"session_id": conv.sample_id}, "event": event}
        if event["role"] == "user":
            res = app.governor.prepare(
                who, PrepareRequest.model_validate({**body, "budget": 2000, "desk": False})
            )
        else:
            res = app.governor.commit(who, CommitRequest.model_validate(body))
        out[turn.dia_id] = (res["seq"], res["record_id"])
    return out


def forget(app: App, conv: Conversation, seq: int) -> None:
    """Take a measured question out of the thread again (event, outbox job, desk)."""
    with app.connection() as conn:
        thread = conn.execute(
            "SELECT id FROM context_threads WHERE scope = %s AND session_id = %s",
            (conv.scope, conv.sample_id),
        ).fetchone()
        assert thread is not None
        conn.execute(
            "DELETE FROM context_thread_events WHERE thread_id = %s AND seq = %s",
            (thread["id"], seq),
        )
        conn.execute(
            "DELETE FROM context_jobs WHERE kind = 'governor.index' "
            "AND payload @> jsonb_build_object('thread_id', %s::bigint, 'seq', %s::bigint)",
            (thread["id"], seq),
        )
        conn.execute(
            "UPDATE context_threads SET last_seq = last_seq - 1 WHERE id = %s", (thread["id"],)
        )


class Reference:
    """What a message list costs the model: its own tokenizer and chat framing."""

    def __init__(self, encoding: str) -> None:
        import quicktok

        self.encoding = encoding
        self._tok = quicktok.get_encoding(encoding)
        self.per_message, self.per_name, self.per_reply = FRAMING[encoding]

    def messages(self, messages: list[dict[str, Any]]) -> int:
        total = self.per_reply
        for m in messages:
            total += self.per_message + self._tok.count(str(m.get("content") or ""))
            if m.get("name") and self.per_name:
                total += self.per_name + self._tok.count(str(m["name"]))
        return total


def add_chat_backend(app: App, model: str) -> None:
    """A chat backend serving ``model`` that nothing calls: the counter follows its model."""
    app.backends.create(
        "bench-chat",
        {"kind": "openai", "base_url": "http://127.0.0.1:9/v1", "roles": ["chat"],
         "model_map": {"default": model}, "trust": "full-trust"},
        by="bench",
    )  # fmt: skip


def ask(
    app: App,
    conv: Conversation,
    seqs: dict[str, tuple[int, str]],
    counter: str | None,
    reference: Reference,
) -> list[dict[str, Any]]:
    who = principal(conv.scope)
    dates = [t.when for t in conv.turns if t.when is not None]
    asked_at = (max(dates) + timedelta(days=1)).isoformat() if dates else None
    rows = []
    for q in conv.questions:
        wanted = {seqs[d] for d in q.evidence if d in seqs}
        if not wanted:
            continue
        row: dict[str, Any] = {"category": q.category, "evidence": len(wanted)}
        for budget in BUDGETS:
            env = app.governor.prepare(
                who,
                PrepareRequest.model_validate(
                    {
                        "thread": {"session_id": conv.sample_id},
                        "budget": budget,
                        "event": {"content": q.text, "occurred_at": asked_at},
                        "counter": counter,
                    }
                ),
            )
            present = set(env["ring"]["seqs"]) | {i["id"] for i in env["desk"]["items"]}
            hits = [s in present or r in present for s, r in wanted]
            fill = reference.messages(env["messages"]) / budget
            row[budget] = (any(hits), all(hits), env["tokens"], fill)
            forget(app, conv, env["seq"])
        rows.append(row)
    return rows


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"questions": len(rows)}
    for budget in BUDGETS:
        n = max(1, len(rows))
        out[str(budget)] = {
            "any": round(sum(r[budget][0] for r in rows) / n, 3),
            "all": round(sum(r[budget][1] for r in rows) / n, 3),
            "mean_tokens": round(sum(r[budget][2] for r in rows) / n, 1),
            "fill_mean": round(sum(r[budget][3] for r in rows) / n, 4),
            "fill_max": round(max((r[budget][3] for r in rows), default=0.0), 4),
            "over_budget": sum(1 for r in rows if r[budget][3] > 1.0),
            "per_category_any": {
                CATEGORIES[c]: round(
                    sum(r[budget][0] for r in rows if r["category"] == c)
                    / max(1, sum(1 for r in rows if r["category"] == c)),
                    3,
                )
                for c in sorted(CATEGORIES)
            },
        }
    return out


def recall(args: argparse.Namespace) -> dict[str, Any]:
    convs = load(args.data)
    env = bench_environ()
    result: dict[str, Any] = {}
    reference = Reference(args.reference)
    with bench_app(args.database_url, env) as app:
        add_chat_backend(app, args.model)
        counter = app.governor.counter(args.counter)
        progress(f"counter {counter.name} (exact: {counter.exact}) for {args.model}")
        maps = {}
        t0 = time.perf_counter()
        for conv in convs:
            maps[conv.sample_id] = replay(app, conv)
            progress(f"replayed {conv.sample_id}: {len(conv.turns)} turns")
        replay_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        indexed = drain(app, "governor.index")
        index_s = time.perf_counter() - t0
        progress(f"indexed {indexed} events in {index_s:.1f}s")
        # the same replayed threads asked again for each desk size (--desk-items 60,150): the
        # first is the run's result, the others its comparison rows
        for n, items in enumerate(args.desk_items or [None]):
            if items is not None:
                set_setting(app, "governor.desk_items", items)
            rows_by_half: dict[str, list[dict[str, Any]]] = {"tune": [], "confirm": []}
            for i, conv in enumerate(convs):
                rows = ask(app, conv, maps[conv.sample_id], args.counter, reference)
                rows_by_half["tune" if i < 3 else "confirm"].extend(rows)
                progress(f"asked {conv.sample_id}: {len(rows)} questions (desk {items})")
            allrows = rows_by_half["tune"] + rows_by_half["confirm"]
            run = {
                "settings": {
                    k: app.settings[k]
                    for k in ("governor.ring_events", "governor.ring_share", "governor.desk_items")
                },
                "all": summarise(allrows),
                "tune": summarise(rows_by_half["tune"]),
                "confirm": summarise(rows_by_half["confirm"]),
            }
            if n == 0:
                result = {
                    "counter": counter.name,
                    "model": args.model,
                    "reference": args.reference,
                    "turns": sum(len(c.turns) for c in convs),
                    "replay_s": round(replay_s, 1),
                    "index_s": round(index_s, 1),
                    **run,
                    "variants": [],
                }
            else:
                result["variants"].append(run)
    return result


# -- crash ---------------------------------------------------------------------------------------

CHILD = """
import os, signal, sys
sys.path.insert(0, {bench!r})
from ctx.core import App
from ctx.core.governor import CommitRequest
from _common import principal
app = App(database_url={url!r}, home=__import__('pathlib').Path({home!r}), load_entry_points=False,
          environ={{"CTX_GOVERNOR_INDEXERS": "0"}}).open()
for i in range({n}):
    app.governor.commit(principal("crash"), CommitRequest.model_validate(
        {{"thread": {{"session_id": "c"}}, "event": {{"content": f"event {{i}} before the crash"}}}}))
print("recorded", flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def crash(args: argparse.Namespace) -> dict[str, Any]:
    import tempfile

    import pgserver

    root = tempfile.mkdtemp(prefix="ctx-crash-")
    server = pgserver.get_server(os.path.join(root, "pg"), cleanup_mode="stop")
    url = str(server.get_uri())
    try:
        with App(
            database_url=url, home=__import__("pathlib").Path(root) / "h", load_entry_points=False
        ) as app:
            pass  # migrations
        code = CHILD.format(
            bench=str(REPO_ROOT / "bench"), url=url, home=root + "/c", n=args.events
        )
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        killed = proc.returncode == -signal.SIGKILL
        with App(
            database_url=url, home=__import__("pathlib").Path(root) / "h2", load_entry_points=False
        ) as app:
            with app.connection() as conn:
                before = conn.execute(
                    "SELECT count(*) AS events, count(*) FILTER (WHERE indexed_at IS NOT NULL) AS indexed, "
                    "(SELECT count(*) FROM context_jobs WHERE kind = 'governor.index') AS jobs "
                    "FROM context_thread_events"
                ).fetchone()
            done = drain(app, "governor.index")
            with app.connection() as conn:
                after = conn.execute(
                    "SELECT count(*) AS events, count(*) FILTER (WHERE indexed_at IS NOT NULL) AS indexed, "
                    "count(*) FILTER (WHERE embedded_at IS NOT NULL) AS embedded, "
                    "(SELECT count(*) FROM context_blocks WHERE block_type = 'event') AS records "
                    "FROM context_thread_events"
                ).fetchone()
        return {
            "killed_with_sigkill": killed,
            "child_said": proc.stdout.strip(),
            "before_restart": dict(before or {}),
            "jobs_run": done,
            "after": dict(after or {}),
        }
    finally:
        server.cleanup()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--recall", action="store_true")
    p.add_argument("--latency", action="store_true")
    p.add_argument("--crash", action="store_true")
    p.add_argument("--data", type=lambda s: __import__("pathlib").Path(s), default=DEFAULT_DATA)
    p.add_argument("--database-url", default=None)
    p.add_argument("--counter", default=None, help="token counter (default: the setting)")
    p.add_argument("--model", default="gpt-4o", help="the chat backend's model (recall)")
    p.add_argument(
        "--reference", default="o200k_base", choices=sorted(FRAMING),
        help="the model's tokenizer, which measures the fill (recall)",
    )  # fmt: skip
    p.add_argument(
        "--desk-items", type=lambda s: [int(x) for x in s.split(",")], default=None,
        help="recall: ask again with each desk size (comma-separated; the first is the result)",
    )  # fmt: skip
    p.add_argument("--queries", type=int, default=60)
    p.add_argument("--big", type=int, default=100_000)
    p.add_argument("--threads", type=int, default=1000)
    p.add_argument("--events", type=int, default=50)
    p.add_argument("--home", default=None, help="keep the embedded cluster here (latency)")
    p.add_argument(
        "--warm",
        type=int,
        default=5,
        help="latency: untimed rounds per setup first (a restarted cluster reads the graph "
        "index from disk; a running ctxd has it in shared_buffers)",
    )
    p.add_argument(
        "--reuse", action="store_true", help="latency: measure the threads already in --home"
    )
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    result: dict[str, Any] = {}
    if args.crash:
        result["crash"] = crash(args)
        print(json.dumps(result["crash"], indent=2, default=str))
    if args.recall:
        result["recall"] = recall(args)
        r = result["recall"]
        for half in ("all", "tune", "confirm"):
            cells = "  ".join(
                f"{b}: any {r[half][str(b)]['any']:.3f} all {r[half][str(b)]['all']:.3f}"
                for b in BUDGETS
            )
            print(f"{half:8s} ({r[half]['questions']} q)  {cells}")
        for b in BUDGETS:
            cell = r["all"][str(b)]
            print(
                f"fill at {b} tokens by {r['reference']}: mean {cell['fill_mean']:.3f} "
                f"max {cell['fill_max']:.3f}, over budget {cell['over_budget']}"
            )
        for v in r["variants"]:
            items = v["settings"]["governor.desk_items"]
            cells = "  ".join(
                f"{b}: any {v['all'][str(b)]['any']:.3f} fill {v['all'][str(b)]['fill_mean']:.3f}"
                for b in BUDGETS
            )
            print(f"desk_items {items}: {cells}")
        got = r["all"]["2000"]["any"]
        print(
            f"target: any-evidence recall >= {TARGET_RECALL} at 2,000 tokens: {got:.3f} "
            f"{'met' if got >= TARGET_RECALL else 'MISSED'}"
        )
    if args.latency:
        result["latency"] = latency(args)
        print("\n".join(latency_report(result["latency"])))
    if args.json:
        print(json.dumps(result, default=str))


if __name__ == "__main__":
    main()
