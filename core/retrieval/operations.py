"""The query operations, each declared once (``ctx.core.operations``)."""

from __future__ import annotations

from ctx.core.operations import Operation, Rest, Tool
from ctx.core.retrieval.schemas import QueryInput, QueryRequest, QueryResponse

TOOLS = "ctx.core.retrieval.tools"
HYBRID = (
    "Hybrid retrieval: weighted RRF over dense, English/German full-text, title trigrams and "
    "dates; with ``explain``, per-channel ranks and per-stage timings; with ``synthesize``, an "
    "answer from the sources with checked citations."
)

QUERY = Operation(
    name="retrieval.query",
    summary="Hybrid retrieval, and an answer from the sources with checked citations.",
    description=HYBRID,
    service="ctx.core.retrieval.pipeline:query",
    input=QueryRequest,
    output=QueryResponse,
    charges=f"{TOOLS}:query_charges",
    rest=Rest("POST", "/api/query", exclude_unset=True, tags=("query",)),
    tool=Tool(
        "query",
        "Find what ctx knows about a question: hybrid semantic and full-text retrieval with time "
        "awareness, ranked sources with snippets and a confidence class (confident, "
        "low_confidence, no_relevant_blocks_found). Use it before answering from memory; then "
        "`get` a source for its full text.",
        input=QueryInput,
        run=f"{TOOLS}:run_query",
        charges=f"{TOOLS}:answer_charges",
        idempotent=True,
    ),
    cli=True,
)

QUERY_STREAM = Operation(
    name="retrieval.query-stream",
    summary="The query path with the answer streamed as server-sent events.",
    description="The query path with the answer streamed as server-sent events: ``sources`` "
    '(the response of ``/api/query`` without an answer), ``token`` events (``{"text"}``) as '
    "the model writes, then ``answer`` (the checked answer, citations, backend) or ``error``. "
    "``synthesize`` defaults to ``auto`` here: an answer whenever a synthesis backend exists.",
    service=f"{TOOLS}:stream_query",
    input=QueryRequest,
    charges=f"{TOOLS}:stream_charges",
    rest=Rest("POST", "/api/query/stream", answer="events", tags=("query",)),
    cli=True,
)
