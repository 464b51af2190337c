"""Settings of model calls: timeouts, limits, cooldowns and the call log."""

from __future__ import annotations

from ctx.core.runtime import Setting

SETTINGS = [
    Setting("llm.connect_timeout", float, 5.0, "Seconds to connect to a backend.",
            minimum=0.1, maximum=600),
    Setting("llm.read_timeout", float, 120.0,
            "Seconds a backend may stay silent: before its answer, or between two stream events.",
            minimum=0.1, maximum=3600),
    Setting("llm.total_timeout", float, 300.0,
            "Seconds one model call may take in all (a stream that never ends is cut here).",
            minimum=0.5, maximum=7200),
    Setting("llm.max_answer_chars", int, 200_000,
            "Longest answer accepted from a model; a stream running past it is stopped.",
            minimum=100, maximum=10_000_000),
    Setting("llm.max_connections", int, 20, "Connections the shared HTTP pool keeps per process.",
            minimum=1, maximum=1000, hot=False),
    Setting("llm.cooldown_seconds", float, 30.0,
            "After a failure a backend sits out this long (doubling with each further failure).",
            minimum=0, maximum=86400),
    Setting("llm.cooldown_max_seconds", float, 600.0, "The longest cooldown.",
            minimum=0, maximum=86400),
    Setting("llm.log_content", bool, False,
            "Debug: keep each call's messages and answer in the call log (block content!)."),
    Setting("llm.log_keep_days", int, 14, "Days the call log keeps its rows.",
            minimum=1, maximum=3650),
    Setting("llm.allowed_hosts", list, [],
            "Hosts and networks backends may point at (names, IPs, CIDRs such as 10.0.0.0/8); "
            "empty allows any. Checked when a backend is saved and before each call."),
]  # fmt: skip
