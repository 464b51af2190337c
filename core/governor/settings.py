"""The ``governor.*`` settings: budgets' parts, the desk, freshness, the indexer and the caches."""

from __future__ import annotations

from ctx.core.runtime import Setting

DESK_SCOPES = ("collection", "readable")

SETTINGS = [
    Setting(
        "governor.token_counter",
        str,
        "auto",
        "Token counter for envelopes: a registered name (o200k, cl100k, llama3, qwen, estimate, "
        "tokenizer, tiktoken) or auto (the tokenizer of the chat backends' models, from the "
        "tables that ship with ctx; the estimator, which never under-counts, for a model of no "
        "known family; /api/status says which).",
    ),
    Setting(
        "governor.default_budget",
        int,
        4000,
        "Envelope budget in tokens when a caller names none (the gateway without X-Ctx-Budget).",
        minimum=64,
        maximum=2_000_000,
    ),
    Setting(
        "governor.ring_events",
        int,
        10,
        "Most events the recent ring puts in an envelope (the newest before the current one).",
        minimum=0,
        maximum=500,
    ),
    Setting(
        "governor.ring_share",
        float,
        0.25,
        "Largest share of the budget the recent ring may fill; the desk gets what is left.",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "governor.desk_items",
        int,
        150,
        "Most records the reading desk holds (60 left a 4,000-token envelope a quarter empty).",
        minimum=0,
        maximum=500,
    ),
    Setting(
        "governor.desk_scopes",
        str,
        "readable",
        "What the desk reads besides the thread: 'collection' (the thread's scope) or "
        "'readable' (every scope the key reads: project and team records, knowledge blocks).",
        choices=DESK_SCOPES,
    ),
    Setting(
        "governor.desk_stages",
        str,
        "supersedes",
        "The last query stage the desk's retrieval runs (its ranking); later stages (thresholds, "
        "trim) are not used: the budget decides how much of the ranking fits.",
    ),
    Setting(
        "governor.strict_timeout_s",
        float,
        5.0,
        "Longest a strict prepare waits for the thread's indexed watermark.",
        minimum=0.0,
        maximum=600.0,
    ),
    Setting(
        "governor.flush_timeout_s",
        float,
        30.0,
        "Longest flush waits for the indexed watermark when the caller names no timeout.",
        minimum=0.0,
        maximum=3600.0,
    ),
    Setting(
        "governor.work_ring",
        int,
        1024,
        "Capacity of the in-process work ring that hands new events to the indexer; when it is "
        "full the outbox (the job queue) still holds the work.",
        minimum=1,
        maximum=1_000_000,
        hot=False,
    ),
    Setting(
        "governor.index_batch",
        int,
        32,
        "Events the indexer turns into records per step.",
        minimum=1,
        maximum=1024,
    ),
    Setting(
        "governor.indexers",
        int,
        1,
        "Indexer threads per process (ctxd and ctx worker); 0 leaves indexing to the job workers.",
        minimum=0,
        maximum=8,
        hot=False,
    ),
    Setting(
        "governor.cache_bytes",
        int,
        64 * 1024 * 1024,
        "Byte limit of the process cache (recent rings, record texts, query vectors).",
        minimum=0,
        maximum=16 * 1024**3,
        hot=False,
    ),
    Setting(
        "governor.cache_ttl_s",
        int,
        3600,
        "Time to live of entries in an external cache tier (Redis).",
        minimum=1,
        maximum=30 * 86400,
        hot=False,
    ),
    Setting(
        "governor.max_event_chars",
        int,
        200_000,
        "Longest event content accepted (characters); longer content gets HTTP 422.",
        minimum=100,
        maximum=900_000,
    ),
]
