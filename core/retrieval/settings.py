"""Settings of the query path: channel weights and limits, RRF k, thresholds, limits."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ctx.core.llm import prompt_versions
from ctx.core.runtime import Setting, SettingCheck


def _weight(key: str, default: float, channel: str) -> Setting:
    return Setting(
        key, float, default, f"RRF weight of the {channel} channel.", minimum=0.0, maximum=10.0
    )


def _limit(key: str, default: int, channel: str) -> Setting:
    return Setting(
        key, int, default, f"Candidates the {channel} channel contributes.", minimum=1, maximum=1000
    )


SETTINGS = [
    Setting(
        "query.prompt_version",
        str,
        "v1",
        "Synthesis prompt: the version of policies/prompts/synthesis.<version>.md to use.",
        choices=tuple(prompt_versions("synthesis")),
    ),
    Setting(
        "query.source_chars",
        int,
        1500,
        "Characters of each source the synthesis model sees (cut on a character boundary).",
        minimum=100,
        maximum=100_000,
    ),
    Setting(
        "query.answer_max_tokens",
        int,
        512,
        "Most tokens a synthesised answer may take.",
        minimum=16,
        maximum=32_000,
    ),
    Setting(
        "query.translate",
        bool,
        True,
        "Search a German query with its English translation by the translate chain (the "
        "answer still uses the original query). Needs a backend with the translate role.",
    ),
    Setting(
        "query.temporal_llm",
        bool,
        True,
        "Ask the translate chain for the time a query names when the temporal rules find none "
        "but the query is about time.",
    ),
    Setting(
        "query.inline_embed_ms",
        int,
        100,
        "Milliseconds a query may spend embedding the caller's blocks that still wait for their "
        "vectors, in small batches, before it answers (the first batch runs even when it takes "
        "longer); the rest stay queued for the worker and are found by text and date meanwhile. "
        "0: never embed inline.",
        minimum=0,
        maximum=60_000,
    ),
    Setting(
        "query.inline_embed_max_waiting",
        int,
        32,
        "A query embeds the caller's waiting blocks inline only when at most this many wait (a "
        "few fresh writes); a larger backlog is left to the worker, so queries over it cost what "
        "an idle store's do. 0: never embed inline.",
        minimum=0,
        maximum=100_000,
    ),
    Setting(
        "query.warmup_wait_ms",
        int,
        30_000,
        "Milliseconds a query that arrives while ctxd is still loading its embedder waits for "
        "it; after that it goes on (and loads the embedder itself).",
        minimum=0,
        maximum=600_000,
    ),
    _weight("query.weight_dense", 0.45, "dense (vector)"),
    _weight("query.weight_fts_en", 0.25, "English full-text"),
    _weight("query.weight_fts_de", 0.20, "German full-text"),
    _weight("query.weight_trigram", 0.10, "trigram title"),
    Setting(
        "query.weight_dates",
        float,
        0.50,
        "RRF weight of the date channel (blocks of the days the query names). The seed's 0.10 "
        "lets loose text matches beat the named day; 0.50 measured best in "
        "bench/temporal_retrieval.py (docs/benchmarks.md).",
        minimum=0.0,
        maximum=10.0,
    ),
    _limit("query.limit_dates", 100, "date"),
    Setting(
        "query.temporal_gravity",
        bool,
        True,
        "Re-rank by temporal gravity when the query names a time.",
    ),
    Setting(
        "query.gravity_boost",
        float,
        5.0,
        "The strongest temporal gravity: a block dated exactly on the day the query names is "
        "multiplied by 1 + this (less for wider spans, see query.gravity_narrow). The seed's "
        "0.30 is too weak against topic matches; 5.0 measured best in "
        "bench/temporal_retrieval.py (docs/benchmarks.md).",
        minimum=0.0,
        maximum=100.0,
    ),
    Setting(
        "query.gravity_narrow",
        bool,
        True,
        "Scale the gravity boost by how narrow the named time is: divided by log2 of its days "
        "(a day: all of it; a week: about a third; a month: a fifth), since a wide span pulls "
        "every block in it alike.",
    ),
    Setting(
        "query.rrf_k",
        int,
        10,
        "RRF constant k in weight / (k + rank). The seed's 60 is kept as a documented "
        "alternative; 10 measured better on LoCoMo (docs/benchmarks.md).",
        minimum=1,
        maximum=1000,
    ),
    _limit("query.limit_dense", 75, "dense"),
    _limit("query.limit_fts", 100, "each full-text"),
    _limit("query.limit_trigram", 30, "trigram title"),
    Setting(
        "query.trigram_threshold",
        float,
        0.3,
        "Minimum title similarity for the trigram channel. The seed's 0.05 lets nearly every "
        "title through on long questions (50 ms at 100k blocks against 2 ms at 0.3).",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "query.trigram_scan_max",
        int,
        20000,
        "Readable blocks up to which the trigram title channel searches every title; in larger "
        "scopes it ranks the titles of the other channels' candidates only (searching every "
        "title costs tens of ms at 100,000 blocks). A very large value keeps the seed's full "
        "search everywhere.",
        minimum=0,
        maximum=10**9,
    ),
    Setting(
        "query.dense_exact_max",
        int,
        2000,
        "Readable blocks up to which the dense channel compares the query with every vector "
        "instead of walking the HNSW graph (exact, and cheap for small scopes). A governed "
        "thread's desk whose own records plus its scope's shared blocks are at most this many "
        "has every channel read those rows directly instead of its store-wide index, however "
        "many other threads the scope holds. 0: always the indexes.",
        minimum=0,
        maximum=10**9,
    ),
    Setting(
        "query.hnsw_ef_search",
        int,
        0,
        "HNSW search list size (pgvector hnsw.ef_search), also the rows a walk fetches before "
        "they are sorted exactly and cut to query.limit_dense: larger finds more of the true "
        "nearest vectors, slower. 0: twice query.limit_dense, at least 40.",
        minimum=0,
        maximum=1000,
    ),
    Setting(
        "query.hnsw_iterative_scan",
        str,
        "relaxed_order",
        "Whether an HNSW walk whose results the filters (scopes, types, tags) thin out goes on "
        "until it has enough (pgvector hnsw.iterative_scan): relaxed_order, strict_order or off.",
        choices=("relaxed_order", "strict_order", "off"),
    ),
    Setting(
        "query.hnsw_max_scan_tuples",
        int,
        20000,
        "How many vectors an iterative HNSW walk visits at most (pgvector hnsw.max_scan_tuples); "
        "a scope holding a small share of a large store needs more.",
        minimum=1,
        maximum=10**8,
    ),
    Setting(
        "query.fts_common_cutoff",
        float,
        0.05,
        "Full-text queries leave out words found in more than this share of blocks "
        "(1 keeps every word).",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "query.fts_budget",
        int,
        250,
        "Rows each full-text channel ranks at most once the readable blocks reach "
        "query.fts_cutoff_min_blocks: candidates are chosen by the query's rarest words first "
        "(per-scope counts), then ranked with every word. 0 ranks every row that matches any "
        "word, the seed's behaviour (docs/benchmarks.md).",
        minimum=0,
        maximum=10**7,
    ),
    Setting(
        "query.fts_cutoff_min_blocks",
        int,
        5000,
        "Stores smaller than this keep every word in full-text queries (ranking them is cheap "
        "there, and the common-word cutoff costs some precision).",
        minimum=0,
        maximum=10**9,
    ),
    Setting(
        "query.candidates",
        int,
        200,
        "Fused candidates kept for the later stages.",
        minimum=1,
        maximum=2000,
    ),
    Setting(
        "query.default_limit",
        int,
        5,
        "Sources returned when no limit is given.",
        minimum=1,
        maximum=20,
    ),
    Setting(
        "query.topic_text",
        bool,
        True,
        "When the query names a time, the text channels search it without its time words and "
        "the dense channel embeds it without them (the date channel and gravity answer those; "
        "holiday names stay). Off: the whole query, as the seed.",
    ),
    Setting(
        "query.neighbour_weight",
        float,
        0.3,
        "Neighbours stage: a candidate gains this share of the fused scores of the candidates "
        "next to it in its sequence (same scope and category, writing order; 0: off, as the "
        "seed).",
        minimum=0.0,
        maximum=2.0,
    ),
    Setting(
        "query.neighbour_gate",
        str,
        "related",
        "Neighbours stage: which neighbours in writing order count: none (every one), related "
        "or confident (only those whose own embeddings are at least as similar as that band of "
        "the embedder, query.related_similarity / query.confident_similarity): notes stored in a "
        "row are no conversation.",
        choices=("none", "related", "confident"),
    ),
    Setting(
        "query.neighbour_window",
        int,
        2,
        "Neighbours stage: how many positions apart two candidates may be.",
        minimum=0,
        maximum=8,
    ),
    Setting(
        "query.rescore_depth",
        int,
        10,
        "The first this many fused candidates are re-ordered by their normalised channel scores "
        "(the rescore stage; 0: rank-fusion order, as the seed).",
        minimum=0,
        maximum=200,
    ),
    Setting(
        "query.rescore_weight_dense",
        float,
        0.4,
        "Rescore: weight of the min-max-normalised dense similarity.",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "query.rescore_weight_dense_de",
        float,
        1.0,
        "Rescore: the dense weight for a German question (German full text splits no compounds, "
        "and a question over English notes shares no words with them); 0.4 is the English one.",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "query.rescore_weight_fts",
        float,
        0.5,
        "Rescore: weight of the normalised full-text score in the query's language.",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "query.rescore_weight_fts_other",
        float,
        0.1,
        "Rescore: weight of the normalised full-text score in the other language.",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "query.text_support",
        float,
        1.0,
        "Fusion: how much a block's full-text ranks count only as far as the block holds the "
        "question's words. Its full-text share of the fused score is multiplied by (1 - s) + s "
        "x the rarity-weighted share of the question's words it contains, so a lone keyword "
        "match, or a question in another language than the notes, does not steer the ranking "
        "(0: rank fusion as the seed; 1 measured best across the retrieval suite).",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "query.rescore_text_coverage",
        float,
        1.0,
        "Rescore: how much a full-text match needs to cover the question. Each block's "
        "normalised full-text scores are multiplied by (1 - c) + c x the rarity-weighted share "
        "of the question's words it contains, so one shared keyword of a long question pulls "
        "little (0: full text counts alone).",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "query.rescore_weight_coverage",
        float,
        0.2,
        "Rescore: weight of the share of the question's words a block contains, each weighted "
        "by its rarity in the scopes searched.",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "query.rescore_weight_dates",
        float,
        0.5,
        "Rescore, when the query names a time: weight of lying in it (the date channel).",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "query.confidence",
        str,
        "evidence",
        "How the confidence class is decided: evidence (the best hit's similarity against the "
        "embedder's calibrated bands and how much of the question's vocabulary the first hits "
        "cover) or score (the seed's thresholds on the fused score).",
        choices=("evidence", "score"),
    ),
    Setting(
        "query.confidence_cut",
        str,
        "label",
        "What the confidence class does to the sources: label (the class and a warning; the "
        "sources stay, and only an answer's prompt uses fewer: two when low, none when nothing "
        "was found) or cut (the seed's: low confidence keeps two sources, nothing found none).",
        choices=("label", "cut"),
    ),
    Setting(
        "query.related_similarity",
        float,
        0.0,
        "Evidence class: dense similarity below which the nearest block is not about the "
        "question (0: the embedder's calibrated value; e5 0.825).",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "query.confident_similarity",
        float,
        0.0,
        "Evidence class: dense similarity at or above which a result is confident on its own "
        "(0: the embedder's calibrated value; e5 0.85).",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "query.confident_coverage",
        float,
        0.4,
        "Evidence class: share of the question's words (weighted by rarity) the first hits must "
        "contain to be confident when the similarity is related but not confident.",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "query.sure_coverage",
        float,
        0.8,
        "Evidence class: a coverage at or above this is confident whatever the similarity (the "
        "first hits hold nearly every word of the question, the rare ones above all; a long "
        "block can be far from a short question by meaning and still answer it).",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "query.unrelated_coverage",
        float,
        0.5,
        "Evidence class: when even the nearest block is unrelated, a coverage below this means "
        "nothing relevant was found.",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "query.words_confident_coverage",
        float,
        0.3,
        "Evidence class without a calibrated similarity (no dense channel, or an embedder without "
        "bands): coverage at or above which a result is confident.",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "query.words_floor_coverage",
        float,
        0.1,
        "Evidence class without a calibrated similarity: coverage below which nothing relevant "
        "was found.",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "query.confident_threshold",
        float,
        0.008,
        "Best score at or above which a result is 'confident' (stated for rrf_k 60; "
        "rescaled by 61 / (k + 1) for other k).",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "query.score_threshold",
        float,
        0.001,
        "Best score below which nothing relevant was found (then at most 2 sources are "
        "returned up to the confident threshold).",
        minimum=0.0,
        maximum=1.0,
    ),
    Setting(
        "query.rerank",
        bool,
        False,
        "Re-order the top candidates with a reranker (a request may ask with rerank: true or "
        "false). Off: a reorderer cannot surface what fusion missed, and the seed measured it "
        "net zero to negative on latent gold.",
    ),
    Setting(
        "query.reranker",
        str,
        "backends",
        "The reranker by name (register_rerankers). 'backends': the rerank chain of the model "
        "backends, or the synthesis chain as a judge when no backend has the rerank role.",
    ),
    Setting(
        "query.rerank_max_docs",
        int,
        50,
        "Top candidates sent to the reranker (title and 2,048 characters each); the rest follow "
        "in fusion order.",
        minimum=1,
        maximum=50,
    ),
    Setting(
        "query.rerank_weight",
        float,
        0.5,
        "Blend w * reranker relevance + (1 - w) * fusion score / best. 0.5 is the seed's "
        "production advice (never the final arbiter); its code default 1.0 is pure reranker "
        "order, 0 keeps fusion order.",
        minimum=0.0,
        maximum=1.0,
    ),
]


def thresholds_ordered(get: Callable[[str], Any]) -> str | None:
    related, confident = (
        float(get("query.related_similarity")),
        float(get("query.confident_similarity")),
    )
    if related and confident and related > confident:
        return "query.related_similarity must not exceed query.confident_similarity"
    if float(get("query.words_floor_coverage")) > float(get("query.words_confident_coverage")):
        return "query.words_floor_coverage must not exceed query.words_confident_coverage"
    if float(get("query.score_threshold")) > float(get("query.confident_threshold")):
        return (
            "query.score_threshold must not exceed query.confident_threshold "
            "(low_confidence would be unreachable)"
        )
    return None


THRESHOLDS_ORDERED = SettingCheck("query thresholds ordered", thresholds_ordered)
