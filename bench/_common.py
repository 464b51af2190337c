"""Helpers shared by the benchmark scripts: a throw-away App, a stub embedder, statistics, tables.

The scripts are run by hand (see docs/benchmarks.md); nothing here is imported by ctx itself.
"""

from __future__ import annotations

import logging
import math
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ctx.core import App, Principal
from ctx.core.retrieval import Candidate, candidates_from_rows, rrf_arguments, rrf_sql
from ctx.core.runtime import drain, size_embedded

REPO_ROOT = Path(__file__).resolve().parent.parent
# Environment variables that choose the database or home; a benchmark never inherits them.
_PLACEMENT_VARS = ("CTX_DATABASE_URL", "CTX_HOME")


def bench_environ(overrides: dict[str, str] | None = None) -> dict[str, str]:
    """The caller's ``CTX_*`` settings (weights, limits, ...) without the database placement."""
    env = {k: v for k, v in os.environ.items() if k.startswith("CTX_") and k not in _PLACEMENT_VARS}
    env.update(overrides or {})
    return env


def ctx_env_summary(env: dict[str, str]) -> str:
    """The ``CTX_*`` variables that shaped a run, for the report line (secrets hidden)."""
    shown = [
        f"{k}={'***' if 'KEY' in k or 'TOKEN' in k else v}"
        for k, v in sorted(env.items())
        if k.startswith("CTX_")
    ]
    return " ".join(shown) or "(defaults)"


@contextmanager
def bench_app(
    database_url: str | None, environ: dict[str, str], home: str | None = None
) -> Iterator[App]:
    """An opened App on ``database_url``, or on a private embedded PostgreSQL that is removed after.

    The temporary home lives under the system temp directory; the cluster stops and the folder is
    deleted when the block exits, also on errors and Ctrl-C. With ``home`` the embedded cluster
    lives there and is kept (a large corpus is built once and measured many times).
    """
    logging.getLogger("ctx").setLevel(logging.WARNING)
    # A background job ignores SIGINT; turn SIGTERM into SystemExit so the cleanup below runs.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    keep = home is not None
    where = Path(home) if home else Path(tempfile.mkdtemp(prefix="ctx-bench-"))
    where.mkdir(parents=True, exist_ok=True)
    app = App(database_url=database_url, home=where, load_entry_points=False, environ=environ)
    try:
        app.open()
        # sized from the machine as `ctx init` sizes the cluster `make run` users get
        # (CTX_PG_MEMORY=off: PostgreSQL's defaults)
        sized = size_embedded(app)
        if sized:
            progress(sized)
        try:
            yield app
        finally:
            app.close()
    finally:
        if not keep:
            shutil.rmtree(where, ignore_errors=True)


def principal(home_scope: str, read: Sequence[str] = ()) -> Principal:
    """A key-less principal (benchmarks call the core functions, not the HTTP layer)."""
    return Principal(
        key_id="00000000-0000-0000-0000-00000000b0b0",
        name="bench",
        home_scope=home_scope,
        allowed_scopes=tuple(s for s in read if s != home_scope),
    )


class FixedQueryEmbedder:
    """Stands in for a generation's embedder: query vectors come from a table, not a model.

    Lets a benchmark time the database part of the query stages (or reuse vectors computed once)
    through the unchanged query code. Unknown queries fall back to ``fallback``.
    """

    def __init__(
        self,
        name: str,
        model: str,
        dimensions: int,
        vectors: dict[str, NDArray[np.float32]],
        fallback: Callable[[str], NDArray[np.float32]] | None = None,
        similarity_bands: tuple[float, float] | None = None,
    ) -> None:
        self.name = name
        self.model = model
        self.dimensions = dimensions
        self.vectors = vectors
        self.fallback = fallback
        self.similarity_bands = similarity_bands

    def embed_documents(self, texts: list[str]) -> NDArray[np.float32]:
        raise RuntimeError("FixedQueryEmbedder embeds queries only")

    def embed_query(self, text: str) -> NDArray[np.float32]:
        vec = self.vectors.get(text)
        if vec is None:
            if self.fallback is None:
                raise KeyError(f"no fixed vector for query {text!r}")
            vec = self.vectors[text] = self.fallback(text)
        return vec


def use_embedder(app: App, embedder: Any) -> None:
    """Make every generation of ``app`` use ``embedder`` (benchmark-only override)."""
    app.embedders.for_generation = lambda gen: embedder  # type: ignore[method-assign]


def weights_of(dense: float, fts_en: float, fts_de: float, trigram: float) -> dict[str, float]:
    """Channel weights by name (the date channel off: these modes ask without a parsed time)."""
    return {"dense": dense, "fts_en": fts_en, "fts_de": fts_de, "trigram": trigram, "dates": 0.0}


# One channel weighted, the others off: how a benchmark asks a single channel through the query
# path (``locomo.py --mode all``, ``crosslang_path.py``). "fts" is the English and German pair
# with their default weights; "fts_en" and "fts_de" split it.
SINGLE_CHANNELS: dict[str, dict[str, float]] = {
    "dense": weights_of(1.0, 0.0, 0.0, 0.0),
    "fts": weights_of(0.0, 0.25, 0.20, 0.0),
    "trigram": weights_of(0.0, 0.0, 0.0, 1.0),
}
FTS_SPLIT: dict[str, dict[str, float]] = {
    "fts_en": weights_of(0.0, 0.25, 0.0, 0.0),
    "fts_de": weights_of(0.0, 0.0, 0.20, 0.0),
}


def call_rrf(
    conn: Any,
    app: App,
    fn: str,
    query: str,
    embedding: str | None,
    gen: dict[str, Any],
    scopes: list[str],
    weights: dict[str, float],
    k: int | None = None,
    result_limit: int | None = None,
) -> list[Candidate]:
    """Call ``ctx_rrf`` (or a benchmark copy named ``fn``) with the arguments the query path uses."""
    args = rrf_arguments(
        app,
        query=query,
        scopes=scopes,
        weights=weights,
        embedding=embedding if weights["dense"] > 0 else None,
        generation=gen,
        k=k,
        result_limit=result_limit,
    )
    return candidates_from_rows(conn.execute(rrf_sql(fn), args).fetchall())


def percentile(values: Sequence[float], p: float) -> float:
    """Linear-interpolated percentile (p in 0..100); NaN for no values."""
    if not values:
        return math.nan
    return float(np.percentile(np.asarray(values, dtype=np.float64), p))


def timing_ms(samples_s: Sequence[float]) -> dict[str, float]:
    """mean, p50 and p95 of durations given in seconds, in milliseconds."""
    ms = [s * 1000.0 for s in samples_s]
    return {
        "mean": round(float(np.mean(ms)) if ms else math.nan, 2),
        "p50": round(percentile(ms, 50), 2),
        "p95": round(percentile(ms, 95), 2),
        "n": len(ms),
    }


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A Markdown table (pastes into docs/benchmarks.md as is)."""

    def cell(v: Any) -> str:
        if isinstance(v, float):
            return f"{v:.3f}" if abs(v) < 10 else f"{v:.1f}"
        return str(v)

    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(cell(v) for v in r) + " |" for r in rows]
    return "\n".join(lines)


def progress(message: str) -> None:
    """Progress goes to stderr so that stdout stays the report (and the final JSON line)."""
    print(message, file=sys.stderr, flush=True)


def run_ingest(app: App, args: Sequence[str]) -> tuple[float, dict[str, Any]]:
    """Run ``ctx ingest ARGS... --json`` in this process; its seconds and its JSON summary."""
    import json
    import time

    from ctx.ui.cli import run

    out = Path(tempfile.mkstemp(suffix=".json")[1])
    started = time.perf_counter()
    saved = sys.stdout
    with out.open("w") as sink:
        sys.stdout = sink
        try:
            code = run(["ingest", *args, "--json"], app)
        finally:
            sys.stdout = saved
    seconds = time.perf_counter() - started
    if code != 0:
        raise SystemExit(f"ctx ingest exited {code}")
    summary: dict[str, Any] = json.loads(out.read_text())
    out.unlink()
    return seconds, summary


@contextmanager
def copy_blocks(conn: Any) -> Iterator[Any]:
    """COPY rows of (id, scope, category, title, content, block_type, content_hash) straight
    into ``context_blocks`` (benchmark corpora; no write path, no jobs)."""
    with (
        conn.cursor() as cur,
        cur.copy(
            "COPY context_blocks (id, scope, category, title, content, block_type, "
            "content_hash) FROM STDIN"
        ) as copy,
    ):
        yield copy


def settle(app: App) -> None:
    """The jobs a worker runs seconds after writes, once the embeddings are in: each scope's
    block and word counts (a scope never counted is searched as if it were large: the full-text
    channels capped at their budget, the dense channel through HNSW), content times and date
    tokens for the temporal stage, then steady-state statistics (autovacuum would do it soon;
    ``ctx_rrf`` reads them)."""
    drain(app, "scope_terms")
    drain(app, "temporal")
    with app.connection() as conn:
        conn.execute("ANALYZE context_blocks")
