"""The reading desk: what the store knows about the current focus, ranked by ctx's query path.

The desk runs the query stages up to ``governor.desk_stages`` (fusion over every channel, the
neighbours, the rescore, gravity when the focus names a time, graph expansion, the supersedes
filter) over the thread's own records (``private_category``), the collection's blocks and, with
``governor.desk_scopes = readable``, every scope the key reads. It does no inline work: events
the indexer has not reached are in the recent ring already. The query vector goes through the
governor's cache.
"""

from __future__ import annotations

import hashlib
from concurrent.futures import Executor, Future
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

from ctx.core.embed import active_generation, vector_literal
from ctx.core.governor.envelope import DeskItem, when
from ctx.core.retrieval import QueryRequest, run_pipeline

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App
    from ctx.core.governor.cache import TieredCache
    from ctx.core.governor.threads import Thread
    from ctx.core.retrieval import QueryRun

ITEM_CHARS = 2000  # a long block is shown by its beginning
ID_CHARS = 8  # a desk line names its block by this much of its id
MODEL_STAGES = ("translate", "rerank", "synthesis")  # model calls: never on a prompt's path


@dataclass
class Retrieved:
    items: list[DeskItem]
    took_ms: float
    warnings: list[str]
    stages: list[dict[str, Any]]


def _is_vector(value: bytes, dims: int) -> bool:
    """A cached entry is used only when it is a vector literal of the generation's size: a cache
    is disposable, and whatever is in it is checked rather than trusted."""
    return value[:1] == b"[" and value[-1:] == b"]" and value.count(b",") == dims - 1


def query_vector(app: App, cache: TieredCache, generation: dict[str, Any], text: str) -> str:
    """The query vector literal of ``text`` in ``generation``, through the cache."""
    digest = hashlib.sha256(text.encode()).hexdigest()[:32]
    key = f"qv:{generation['id']}:{digest}"
    hit = cache.get(key)
    if hit is not None and _is_vector(hit, int(generation["dimensions"])):
        return hit.decode()
    literal = vector_literal(app.embedders.for_generation(generation).embed_query(text))
    cache.set(key, literal.encode())
    return literal


class FocusVector:
    """The focus and its query vector, computed on a pool thread from the moment a prepare
    starts, so the model runs while the event is stored and the ring is read."""

    def __init__(self, app: App, cache: TieredCache, text: str, pool: Executor) -> None:
        self.app = app
        self.cache = cache
        self.text = text[:2000]
        self._future: Future[tuple[int, str] | None] = pool.submit(self._compute)

    def _compute(self) -> tuple[int, str] | None:
        with self.app.connection() as conn:
            generation = active_generation(conn)
        if generation is None:
            return None
        return int(generation["id"]), query_vector(self.app, self.cache, generation, self.text)

    def embed_text(self, run: QueryRun, text: str) -> str:
        """The pipeline's ``embed_text``: the precomputed vector when it fits, else the cache."""
        assert run.generation is not None
        if text == self.text:
            try:
                done = self._future.result()
            except Exception:  # fail open like the embed stage: computed again below, or not
                done = None
            if done is not None and done[0] == run.generation["id"]:
                return done[1]
        return query_vector(run.app, self.cache, run.generation, text)


def render(row: dict[str, Any], thread: Thread) -> tuple[str, str]:
    """The desk line of a block and its visibility for this thread. Each line starts with the
    block's id (its first ``ID_CHARS`` characters, a prefix ``get`` resolves) in brackets, the
    form a model is asked to cite."""
    content = " ".join((row["content"] or "").split())
    if len(content) > ITEM_CHARS:
        content = content[:ITEM_CHARS] + "…"
    meta = row["metadata"] or {}
    ref = f"[{str(row['id'])[:ID_CHARS]}]"
    if row["category"] == thread.category and row["scope"] == thread.scope:
        speaker = meta.get("name") or meta.get("role") or "?"
        return f"{ref} [{when(row['occurred_at'])}] {speaker}: {content}", "thread"
    visibility = "project" if row["scope"] == thread.scope else "team"
    dated = f" ({row['occurred_at']:%Y-%m-%d})" if row["occurred_at"] else ""
    return f"{ref} [{row['category']}] {row['title']}{dated}: {content}", visibility


def retrieve(
    app: App,
    who: Principal,
    thread: Thread,
    focus: FocusVector,
    *,
    now: date | None,
    exclude: list[str],
) -> Retrieved:
    s = app.settings
    scopes = [thread.scope]
    if s["governor.desk_scopes"] == "readable":
        scopes += [x for x in who.read_scopes if x != thread.scope]
    request = QueryRequest(
        query=focus.text,
        scopes=scopes,
        private_category=thread.category,
        now=now,
        exclude_ids=exclude[:500],
    )
    names = [st.name for st in app.query_stages]
    last = str(s["governor.desk_stages"])
    stop = last if last in names else "candidates"
    limit = int(s["governor.desk_items"]) * 2
    rows: dict[str, dict[str, Any]] = {}
    # a read replica may serve it: the desk needs the key's earlier writes, not this call's
    # event (that one is in the recent ring)
    reads = app.reads(who, own_writes=False)
    # No model call and no inline work on this path: on the primary its stages share one
    # connection (a replica's reads run on the replica's own connections).
    with nullcontext() if reads.on_replica else app.held_connection():
        run, candidates = run_pipeline(
            app,
            who,
            request,
            skip=[n for n in MODEL_STAGES if n in names],
            stop_after=stop,
            inline=False,
            embed_text=focus.embed_text,
            reads=reads,
        )
        head = candidates[:limit]
        if head:
            for row in run.read(
                lambda conn: conn.execute(
                    "SELECT id::text AS id, scope, category, title, content, metadata, "
                    "occurred_at, sensitivity FROM context_blocks WHERE id = ANY(%s::uuid[])",
                    ([c.block_id for c in head],),
                ).fetchall()
            ):
                rows[row["id"]] = row
    items = []
    for c in head:
        found = rows.get(c.block_id)
        if found is None:
            continue
        row = found
        text, visibility = render(row, thread)
        seq = (row["metadata"] or {}).get("seq") if visibility == "thread" else None
        items.append(
            DeskItem(
                c.block_id,
                text,
                float(c.score),
                visibility,
                row["sensitivity"],
                seq if isinstance(seq, int) else None,
                row["scope"],
                row["category"],
            )
        )
    took = sum(float(t["ms"]) for t in run.trace)
    return Retrieved(items, round(took, 2), run.warnings, run.trace)
