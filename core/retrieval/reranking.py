"""The rerank stage: a reranker re-orders the top fused candidates (after ``gravity``).

Off by default (``query.rerank``; a request may ask with ``rerank: true/false``). A reorderer
cannot surface what fusion missed, and the seed measured it net zero to negative on latent gold;
when it is on, it blends with fusion rather than replacing it.

What happens when it runs:

* The top ``query.rerank_max_docs`` candidates (at most 50) become documents: title, a newline,
  the first 2,048 characters of content (read in one SQL statement). Candidates past that limit
  keep their order after the reranked ones.
* ``query.reranker`` names the reranker (a plugin, ``register_rerankers``). The built-in
  ``backends`` sends the documents to the model backends' rerank chain as ``Piece``s, so the trust
  gate decides what each backend may see. Raw scores are logits (e.g. -11..+6) realigned by index
  by the client; a sigmoid maps them onto (0, 1). Without a rerank backend but with a synthesis
  one, the synthesis model is asked to judge the first 15 documents (400 characters each) and
  answer with a JSON array of 0..10 ratings (prompt ``rerank-judge``), mapped onto 0..1.
* A plugin ``Reranker`` (``rerank(query, documents)``) runs in-process, like a local model, and is
  given every document's text; its scores are taken as logits too. A plugin that sends content
  off the machine must follow ``GatedReranker`` and respect the gate itself (``ctx.core.llm``).
* Each scored candidate records ``factors["rerank"]`` (the 0..1 relevance, shown by ``explain``)
  and is ordered by ``w * relevance + (1 - w) * fusion_norm`` (``w`` = ``query.rerank_weight``;
  ``fusion_norm`` = its score over the best score among the reranked). ``score`` itself stays on
  the fusion scale, which ``thresholds`` classifies.
* A document the backend may not see (the gate withheld it) keeps its slot; the visible ones are
  re-ordered among the slots they occupied.
* The stage is fail-open: any error leaves the order as it was, with a warning saying why. With
  no backend for either role the warning is ``rerank skipped: <reason>``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ctx.core import llm
from ctx.core.errors import ConfigError, CtxError
from ctx.core.llm import InvalidResponse, NoBackend, Piece, first_json
from ctx.core.retrieval.candidates import Candidate
from ctx.core.retrieval.pipeline import QueryRun, QueryStage
from ctx.core.retrieval.rerank import (
    GatedReranker,
    Reranker,
    RerankerFactory,
    RerankResult,
    RerankUnavailable,
)

if TYPE_CHECKING:
    from ctx.core.app import App

BUILTIN_RERANKER = "backends"
MAX_DOCS = 50
DOC_CHARS = 2048
JUDGE_DOCS = 15
JUDGE_CHARS = 400
JUDGE_MAX_MARK = 10.0
JUDGE_PROMPT = ("rerank-judge", "v1")


def sigmoid(x: float) -> float:
    """The logistic function, without overflow for large negative logits."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def blend(weight: float, relevance: float, fusion_norm: float) -> float:
    """The key the reranked candidates are ordered by."""
    return weight * relevance + (1.0 - weight) * fusion_norm


@dataclass(frozen=True)
class Document:
    block_id: str
    text: str
    sensitivity: str


def fetch_documents(app: App, candidates: Sequence[Candidate]) -> dict[str, Document]:
    """The documents of the candidates' blocks (title, newline, content head), by block id; a
    block deleted meanwhile is missing."""
    with app.connection() as conn:
        rows = conn.execute(
            """
            SELECT id::text AS id, title, left(content, %s) AS content, sensitivity
              FROM context_blocks
             WHERE id = ANY(%s::uuid[])
            """,
            (DOC_CHARS, [c.block_id for c in candidates]),
        ).fetchall()
    return {
        r["id"]: Document(r["id"], f"{r['title']}\n{r['content']}", str(r["sensitivity"]))
        for r in rows
    }


# --- the built-in reranker ----------------------------------------------------------------------


class BackendsReranker:
    """The model backends: the rerank chain, or the synthesis chain as a judge without one."""

    name = BUILTIN_RERANKER

    def rerank(self, query: str, documents: Sequence[str]) -> list[float]:
        raise ConfigError(
            "the backends reranker needs each document's sensitivity; call rerank_gated"
        )

    def rerank_gated(self, app: App, query: str, documents: Sequence[Piece]) -> RerankResult:
        no_rerank = llm.available(app, "rerank")
        if no_rerank is None:
            try:
                raw, reply = llm.rerank(app, query, documents)
            except NoBackend as exc:
                raise RerankUnavailable(exc.reason) from None
            relevance = [None if r is None else sigmoid(r) for r in raw]
            return RerankResult(relevance, reply.backend, reply.model, "rerank")
        no_judge = llm.available(app, "synthesis")
        if no_judge is not None:
            raise RerankUnavailable(
                f"no rerank backend ({no_rerank}) and no synthesis backend to judge ({no_judge})"
            )
        return judge(app, query, documents)


def backends_reranker(options: Mapping[str, Any]) -> BackendsReranker:
    return BackendsReranker()


def judge(app: App, query: str, documents: Sequence[Piece]) -> RerankResult:
    """LLM-as-judge over the synthesis chain: the first 15 documents, 400 characters each."""
    window = [Piece(p.sensitivity, str(p.value)[:JUDGE_CHARS]) for p in documents[:JUDGE_DOCS]]
    slot = {id(p): i for i, p in enumerate(window)}

    def build(admitted: list[Piece]) -> list[dict[str, str]]:
        return [
            {"role": "system", "content": llm.render_prompt(*JUDGE_PROMPT, count=len(admitted))},
            {"role": "user", "content": judge_input(query, [str(p.value) for p in admitted])},
        ]

    try:
        reply = llm.chat(app, "synthesis", build, pieces=window, need=1, params={"temperature": 0})
    except NoBackend as exc:
        raise RerankUnavailable(exc.reason) from None
    marks = parse_marks(reply.text, len(reply.admitted), reply.backend)
    relevance: list[float | None] = [None] * len(window)
    for piece, mark in zip(reply.admitted, marks, strict=True):
        relevance[slot[id(piece)]] = mark / JUDGE_MAX_MARK
    return RerankResult(relevance, reply.backend, reply.model, "judge")


def judge_input(query: str, texts: Sequence[str]) -> str:
    parts = [f"Question: {query}", ""]
    for n, text in enumerate(texts, 1):
        # a document cannot close its own delimiter, nor open another
        body = llm.fence(text, "document")
        parts += [f'<document index="{n}">', body, "</document>", ""]
    return "\n".join(parts).rstrip()


def parse_marks(text: str, count: int, backend: str) -> list[float]:
    """The first JSON array in the judge's answer: exactly ``count`` numbers in 0..10."""
    value = first_json(text, list)
    if value is None:
        raise InvalidResponse(f"the rerank judge ({backend}) answered without a JSON array")
    if len(value) != count:
        got = len(value) if isinstance(value, list) else "no"
        raise InvalidResponse(
            f"the rerank judge ({backend}) gave {got} ratings for {count} documents"
        )
    for mark in value:
        if (
            not isinstance(mark, int | float)
            or isinstance(mark, bool)
            or not math.isfinite(mark)
            or not 0 <= mark <= JUDGE_MAX_MARK
        ):
            raise InvalidResponse(
                f"the rerank judge ({backend}) gave {mark!r}, not a rating from 0 to 10"
            )
    return [float(m) for m in value]


# --- the stage ----------------------------------------------------------------------------------


def _reranker(app: App, name: str) -> Reranker:
    """The reranker named by ``query.reranker``, built once per app (factory options: none)."""
    cache: dict[str, Reranker] = app.__dict__.setdefault("_rerankers_built", {})
    if name not in cache:
        factories: dict[str, RerankerFactory] = app.rerankers
        factory = factories.get(name)
        if factory is None:
            raise ConfigError(
                f"query.reranker is {name!r}, which no plugin registers "
                f"(registered: {', '.join(sorted(factories)) or 'none'})"
            )
        cache[name] = factory({})
    return cache[name]


def wanted(q: QueryRun) -> bool:
    asked = q.request.rerank
    return bool(q.app.settings["query.rerank"]) if asked is None else asked


def _plugin_relevance(reranker: Reranker, query: str, texts: list[str]) -> RerankResult:
    raw = reranker.rerank(query, texts)
    name = getattr(reranker, "name", "?")
    if not isinstance(raw, list | tuple) or len(raw) != len(texts):
        got = len(raw) if isinstance(raw, list | tuple) else type(raw).__name__
        raise CtxError(f"reranker {name!r} returned {got} scores for {len(texts)} documents")
    for score in raw:
        if (
            isinstance(score, bool)
            or not isinstance(score, int | float)
            or not math.isfinite(score)
        ):
            raise CtxError(f"reranker {name!r} returned {score!r}, not a finite number")
    return RerankResult([sigmoid(float(s)) for s in raw], name, "", "plugin")


def rerank(q: QueryRun, candidates: list[Candidate]) -> list[Candidate]:
    """Re-order the top candidates by a reranker blended with fusion (off by default)."""
    if not candidates or not wanted(q):
        return candidates
    s = q.app.settings
    reranker = _reranker(q.app, str(s["query.reranker"]))
    head = candidates[: min(int(s["query.rerank_max_docs"]), MAX_DOCS)]
    docs = fetch_documents(q.app, head)
    present = [i for i, c in enumerate(head) if c.block_id in docs]
    texts = [docs[head[i].block_id] for i in present]
    query = q.request.query
    try:
        if isinstance(reranker, GatedReranker):
            pieces = [Piece(d.sensitivity, d.text) for d in texts]
            result = reranker.rerank_gated(q.app, query, pieces)
        else:
            result = _plugin_relevance(reranker, query, [d.text for d in texts])
    except RerankUnavailable as exc:
        q.warn(exc.message)
        return candidates
    if len(result.relevance) > len(present):
        raise CtxError(
            f"reranker {result.backend!r} scored {len(result.relevance)} of {len(present)} documents"
        )
    # the window: the head up to the last document the reranker was given; after it, in order
    scored = present[: len(result.relevance)]
    window = head[: scored[-1] + 1] if scored else []
    relevance = {i: r for i, r in zip(scored, result.relevance, strict=True) if r is not None}
    slots = sorted(relevance)
    best = max((window[i].score for i in slots), default=0.0)
    weight = float(s["query.rerank_weight"])
    key: dict[int, float] = {}
    for i in slots:
        c = window[i]
        c.factors["rerank"] = relevance[i]
        key[i] = blend(weight, relevance[i], c.score / best if best > 0 else 0.0)
    order = sorted(slots, key=lambda i: -key[i])  # stable: ties keep the fusion order
    out = list(window)
    for slot, i in zip(slots, order, strict=True):
        out[slot] = window[i]
    q.note(
        reranked=len(slots),
        withheld=len(window) - len(slots),
        moved=sum(1 for slot, i in zip(slots, order, strict=True) if slot != i),
        backend=result.backend,
        **({"model": result.model} if result.model else {}),
        how=result.how,
    )
    return out + candidates[len(window) :]


RERANK_STAGE = QueryStage(
    "rerank",
    rerank,
    after="gravity",
    fail_open=True,
    description=rerank.__doc__ or "",
)
