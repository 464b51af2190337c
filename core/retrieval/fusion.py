"""Fusion: the channels of ``ctx_rrf`` and the one SQL call that fuses them.

Each channel is named once here, with the settings of its weight and its candidate limit; the SQL
function takes one named argument per channel weight and limit (``p_weight_dense``,
``p_limit_dense``, ...) and returns ``<channel>_rank`` and ``<channel>_score`` columns, so Python
and SQL share names, not positions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ctx.core.retrieval.candidates import Candidate

if TYPE_CHECKING:
    from ctx.core.app import App
    from ctx.core.runtime import Reads


@dataclass(frozen=True)
class Channel:
    name: str
    weight_setting: str
    limit_setting: str
    #: what the channel's raw score is called in ``explain`` (None: the channel reports a rank only)
    score_label: str | None


CHANNELS: tuple[Channel, ...] = (
    Channel("dense", "query.weight_dense", "query.limit_dense", "similarity"),
    Channel("fts_en", "query.weight_fts_en", "query.limit_fts", "score"),
    Channel("fts_de", "query.weight_fts_de", "query.limit_fts", "score"),
    Channel("trigram", "query.weight_trigram", "query.limit_trigram", "similarity"),
    Channel("dates", "query.weight_dates", "query.limit_dates", None),
)
SCORE_LABELS = {c.name: c.score_label for c in CHANNELS}

_ARGS = (
    ("query", "text"),
    ("embedding", "text"),
    ("generation", "integer"),
    ("dims", "integer"),
    ("scopes", "text[]"),
    ("category", "text"),
    ("tags", "text[]"),
    ("exclude_ids", "uuid[]"),
    ("exclude_types", "text[]"),
    ("k", "integer"),
    ("result_limit", "integer"),
    *((f"weight_{c.name}", "real") for c in CHANNELS),
    *((f"limit_{c.name}", "integer") for c in CHANNELS),
    ("trigram_threshold", "real"),
    ("date_query", "text"),
    ("common_cutoff", "real"),
    ("cutoff_min_blocks", "real"),
    ("private_category", "text"),
    ("tenant", "uuid"),
    ("fts_budget", "integer"),
    ("trigram_scan_max", "integer"),
    ("dense_exact_max", "integer"),
    ("hnsw_ef_search", "integer"),
    ("hnsw_iterative", "text"),
    ("hnsw_max_tuples", "integer"),
)


def rrf_sql(function: str = "ctx_rrf") -> str:
    """The fusion call with every argument named (a benchmark may name a copy of the function)."""
    args = ", ".join(f"p_{name} => %({name})s::{sql_type}" for name, sql_type in _ARGS)
    return f"SELECT * FROM {function}({args})"


def channel_weights(app: App, overrides: Mapping[str, float] | None = None) -> dict[str, float]:
    """Each channel's weight from the settings, with ``overrides`` (by channel name) applied."""
    weights = {c.name: float(app.settings[c.weight_setting]) for c in CHANNELS}
    for name, value in (overrides or {}).items():
        if name not in weights:
            raise ValueError(f"unknown channel {name!r}; channels: {', '.join(weights)}")
        weights[name] = float(value)
    return weights


def rrf_arguments(
    app: App,
    *,
    query: str,
    scopes: Sequence[str],
    weights: Mapping[str, float],
    embedding: str | None = None,
    generation: Mapping[str, Any] | None = None,
    category: str | None = None,
    tags: Sequence[str] = (),
    exclude_ids: Sequence[str] = (),
    exclude_types: Sequence[str] = (),
    date_query: str | None = None,
    private_category: str | None = None,
    tenant: str | None = None,
    k: int | None = None,
    result_limit: int | None = None,
) -> dict[str, Any]:
    """The named arguments of ``ctx_rrf``: the query's, then the settings' (``k`` and
    ``result_limit`` override ``query.rrf_k`` and ``query.candidates``); ``tenant`` adds the
    blocks granted to that tenant to ``scopes``."""
    s = app.settings
    args: dict[str, Any] = {
        "query": query,
        "embedding": embedding,
        "generation": generation["id"] if generation else None,
        "dims": generation["dimensions"] if generation else None,
        "scopes": list(scopes),
        "category": category,
        "tags": list(tags),
        "exclude_ids": list(exclude_ids),
        "exclude_types": list(exclude_types),
        "k": int(s["query.rrf_k"]) if k is None else k,
        "result_limit": int(s["query.candidates"]) if result_limit is None else result_limit,
        "trigram_threshold": float(s["query.trigram_threshold"]),
        "date_query": date_query,
        "common_cutoff": float(s["query.fts_common_cutoff"]),
        "cutoff_min_blocks": float(s["query.fts_cutoff_min_blocks"]),
        "private_category": private_category,
        "tenant": tenant,
        "fts_budget": int(s["query.fts_budget"]),
        "trigram_scan_max": int(s["query.trigram_scan_max"]),
        "dense_exact_max": int(s["query.dense_exact_max"]),
        # 0: twice the dense candidates, at least 40 (pgvector's default), at most pgvector's 1000
        "hnsw_ef_search": int(s["query.hnsw_ef_search"])
        or min(1000, max(40, 2 * int(s["query.limit_dense"]))),
        "hnsw_iterative": str(s["query.hnsw_iterative_scan"]),
        "hnsw_max_tuples": int(s["query.hnsw_max_scan_tuples"]),
    }
    for c in CHANNELS:
        args[f"weight_{c.name}"] = float(weights[c.name])
        args[f"limit_{c.name}"] = int(s[c.limit_setting])
    return args


def candidates_from_rows(rows: Sequence[Mapping[str, Any]]) -> list[Candidate]:
    return [
        Candidate(
            block_id=str(r["block_id"]),
            score=float(r["score"]),
            ranks={c.name: r[f"{c.name}_rank"] for c in CHANNELS},
            channel_scores={c.name: r[f"{c.name}_score"] for c in CHANNELS if c.score_label},
        )
        for r in rows
    ]


def fuse(app: App, reads: Reads | None = None, **query: Any) -> list[Candidate]:
    """Run ``ctx_rrf`` (arguments as ``rrf_arguments``) where ``reads`` says (default: the
    primary): up to ``query.candidates`` fused candidates, best first."""
    args = rrf_arguments(app, **query)
    rows = (reads or app.reads()).run(lambda conn: conn.execute(rrf_sql(), args).fetchall())
    return candidates_from_rows(rows)
