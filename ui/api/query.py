"""The query endpoints: the whole query path, stage by stage; the answer whole or streamed."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

from fastapi import APIRouter
from fastapi.encoders import jsonable_encoder
from fastapi.responses import StreamingResponse

from ctx.core import QueryRequest, query
from ctx.core.access import charge_limits
from ctx.core.retrieval import QueryResponse, asks_model, query_with_answer
from ctx.ui.api.deps import AppDep, PrincipalDep
from ctx.ui.api.errors import ERROR_RESPONSES

log = logging.getLogger("ctx.api")
router = APIRouter(prefix="/api", tags=["query"], responses=ERROR_RESPONSES)


@router.post(
    "/query", name="query", response_model=QueryResponse, response_model_exclude_unset=True
)
def query_endpoint(req: QueryRequest, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Hybrid retrieval: weighted RRF over dense, English/German full-text, title trigrams and
    dates; with ``explain``, per-channel ranks and per-stage timings; with ``synthesize``, an
    answer from the sources with checked citations."""
    if asks_model(app, req):
        charge_limits(app, who, "model")
    return query(app, who, req)


def _event(name: str, data: dict[str, Any]) -> str:
    payload = json.dumps(jsonable_encoder(data), ensure_ascii=False, separators=(",", ":"))
    return f"event: {name}\ndata: {payload}\n\n"


@router.post(
    "/query/stream",
    name="query-stream",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/event-stream": {}}, "description": "Server-sent events."}},
)
def query_stream_endpoint(req: QueryRequest, app: AppDep, who: PrincipalDep) -> StreamingResponse:
    """The query path with the answer streamed as server-sent events: ``sources`` (the response
    of ``/api/query`` without an answer), ``token`` events (``{"text"}``) as the model writes,
    then ``answer`` (the checked answer, citations, backend) or ``error``. ``synthesize``
    defaults to ``auto`` here: an answer whenever a synthesis backend exists."""
    if "synthesize" not in req.model_fields_set:
        req.synthesize = "auto"
    if asks_model(app, req):
        charge_limits(app, who, "model")
    events = query_with_answer(app, who, req)
    first = next(events)  # bad input and scope errors answer 4xx before the stream begins

    def body() -> Iterator[str]:
        yield _event(*first)
        try:
            for name, data in events:
                yield _event(name, data)
        except Exception:  # the status line is sent: say it in the stream, never a traceback
            log.exception("query stream failed")
            yield _event("error", {"message": "internal error while answering; see the server log"})
        finally:
            events.close()

    return StreamingResponse(
        body(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
