"""The query path as an agent calls it (the MCP ``query`` tool) and as a stream of events."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ctx.core.blocks import listed, snippet
from ctx.core.retrieval.pipeline import query
from ctx.core.retrieval.schemas import QueryInput, QueryRequest
from ctx.core.retrieval.synthesis import asks_model, query_with_answer

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App


def query_charges(app: App, req: QueryRequest) -> tuple[str, ...]:
    """A query asking for an answer calls the synthesis model (when one is set up)."""
    return ("model",) if asks_model(app, req) else ()


def answered(req: QueryRequest) -> QueryRequest:
    """The request of the streamed query: ``synthesize`` defaults to ``auto`` there (an answer
    whenever a synthesis backend exists)."""
    if "synthesize" in req.model_fields_set:
        return req
    return req.model_copy(update={"synthesize": "auto"})


def stream_charges(app: App, req: QueryRequest) -> tuple[str, ...]:
    return query_charges(app, answered(req))


def stream_query(app: App, who: Principal, req: QueryRequest) -> Iterator[tuple[str, Any]]:
    """The query path with the answer streamed: ``sources``, ``token`` events as the model
    writes, then ``answer`` or ``error``."""
    return query_with_answer(app, who, answered(req))


def answer_charges(app: App, args: QueryInput) -> tuple[str, ...]:
    """The query tool asking for an answer calls the synthesis model (when one is set up)."""
    if not args.answer:
        return ()
    return query_charges(app, QueryRequest(query=args.query, synthesize="auto"))


def run_query(app: App, who: Principal, args: QueryInput) -> dict[str, Any]:
    given = args.model_dump(exclude={"answer"})
    result = query(app, who, QueryRequest(**given, synthesize="auto" if args.answer else False))
    out: dict[str, Any] = {"confidence": result["confidence"]}
    if "answer" in result:
        out["answer"] = result["answer"]
        out["citations"] = [{"n": c["n"], "id": c["id"]} for c in result["citations"]]
    out |= {
        "results": [
            listed(s, score=round(float(s["score"]), 4), snippet=snippet(s.get("snippet")))
            for s in result["sources"]
        ],
    }
    if "skipped" in result.get("synthesis", {}) and args.answer:
        out["answer_skipped"] = result["synthesis"]["skipped"]
    temporal = result.get("temporal") or {}
    if temporal.get("matched"):
        out["time"] = {k: temporal.get(k) for k in ("start", "end") if temporal.get(k)}
    if result.get("warnings"):
        out["warnings"] = result["warnings"]
    return out
