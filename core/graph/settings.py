"""The ``dream.*`` and ``graph.*`` settings."""

from __future__ import annotations

from ctx.core.runtime import Setting

THROTTLE = ("on", "throttled", "off")

DREAM_SETTINGS = [
    Setting(
        "dream.throttle",
        str,
        "on",
        "Dream's pace: on (cycles back to back while blocks are due), throttled (a pause of "
        "dream.throttle_pause_s after every model call, to leave the model server to others), "
        "off (no cycles).",
        choices=THROTTLE,
    ),
    Setting(
        "dream.concurrency",
        int,
        1,
        "Dream cycles running at once in one process (each on its own block).",
        hot=False,
        minimum=0,
        maximum=8,
    ),
    Setting(
        "dream.idle_wait_s",
        float,
        20.0,
        "Seconds Dream waits when no block is due (or no backend serves the dream role).",
        minimum=0.5,
        maximum=3600.0,
    ),
    Setting(
        "dream.throttle_pause_s",
        float,
        30.0,
        "Pause after each model call while dream.throttle is 'throttled'.",
        minimum=0.0,
        maximum=3600.0,
    ),
    Setting(
        "dream.call_timeout_s",
        float,
        180.0,
        "Longest one Dream model call may take (the seed measured p99 156 s on a 27B model).",
        minimum=1.0,
        maximum=3600.0,
    ),
    Setting(
        "dream.cycle_timeout_s",
        float,
        700.0,
        "Longest one Dream cycle may take; past it the cycle stops and the block is due again "
        "after the transient cooldown.",
        minimum=5.0,
        maximum=7200.0,
    ),
    Setting(
        "dream.candidates_per_keyword",
        int,
        5,
        "Fusion results per keyword that become candidates.",
        minimum=1,
        maximum=50,
    ),
    Setting(
        "dream.max_candidates",
        int,
        12,
        "Most candidates the model evaluates in one cycle.",
        minimum=1,
        maximum=50,
    ),
    Setting(
        "dream.min_confidence",
        float,
        0.7,
        "A link needs at least this confidence from the model (supersedes, causal, factual, "
        "topical).",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "dream.min_confidence_recurrent",
        float,
        0.8,
        "A recurrent link needs at least this confidence from its confirmation call.",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "dream.max_links_per_cycle",
        int,
        5,
        "Most links one cycle writes (by confidence, ties broken towards types not yet taken).",
        minimum=1,
        maximum=20,
    ),
    Setting(
        "dream.supersedes_title_similarity",
        float,
        0.25,
        "A supersedes link needs the same category and at least this title trigram similarity; "
        "otherwise it is written as topical.",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "dream.recurrent_title_similarity",
        float,
        0.5,
        "Recurrent candidates: blocks on the same weekday, day of month or day of year whose "
        "titles are more similar than this (trigrams).",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "dream.cooldown_active_days",
        float,
        3.0,
        "A block whose cycle made links is due again after this many days.",
        minimum=0.0,
        maximum=365.0,
    ),
    Setting(
        "dream.cooldown_inert_days",
        float,
        14.0,
        "A block whose cycle made no link is due again after this many days.",
        minimum=0.0,
        maximum=365.0,
    ),
    Setting(
        "dream.cooldown_transient_minutes",
        float,
        5.0,
        "A block whose cycle failed (model error, timeout, unreadable answer) is due again "
        "after this many minutes; after three failures in a row, after the inert cooldown.",
        minimum=0.0,
        maximum=1440.0,
    ),
    Setting(
        "dream.source_chars",
        int,
        1500,
        "Characters of the block's content the model sees.",
        minimum=100,
        maximum=20000,
    ),
    Setting(
        "dream.candidate_chars",
        int,
        400,
        "Characters of each candidate's content the model sees.",
        minimum=50,
        maximum=5000,
    ),
    Setting(
        "dream.prompt_version",
        str,
        "v1",
        "Version of the Dream prompts (policies/prompts/dream-*.<version>.md).",
    ),
]

GRAPH_SETTINGS = [
    Setting(
        "query.supersedes_filter",
        bool,
        True,
        "For queries that name no time, drop a superseded block when a block that supersedes "
        "it is in the result too.",
    ),
    Setting(
        "query.supersedes_confidence",
        float,
        0.7,
        "A supersedes link counts for the filter (and for superseded_by) from this confidence.",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "query.graph_expansion",
        bool,
        True,
        "Add the 1-hop neighbours of the best candidates along positive links (after gravity, "
        "before rerank), with a damped score.",
    ),
    Setting(
        "query.graph_boost",
        float,
        0.1,
        "A candidate that a link endorses is multiplied by 1 + this x the endorsement (at most "
        "1: type weight x confidence x its seed's score relative to the best). 0.3 cost 1.5 "
        "points of LoCoMo MRR over stand-in links (docs/benchmarks.md).",
        minimum=0.0,
        maximum=5.0,
    ),
    Setting(
        "query.graph_placement",
        float,
        0.6,
        "A neighbour the channels did not find joins at the best score x this x its "
        "endorsement: below the native best hits, inside the window rerank and the answer see.",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "query.graph_max_new",
        int,
        10,
        "Most neighbours the expansion adds to a query's candidates.",
        minimum=0,
        maximum=100,
    ),
    Setting(
        "query.graph_seeds",
        int,
        5,
        "How many of the best candidates expand along their links.",
        minimum=1,
        maximum=200,
    ),
    Setting(
        "query.graph_min_confidence",
        float,
        0.7,
        "Links below this confidence are not followed.",
        minimum=0.0,
        maximum=1.0,
    ),
]
