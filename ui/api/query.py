"""The query endpoint: the whole query path, stage by stage."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ctx.core import QueryRequest, query
from ctx.core.retrieval import QueryResponse
from ctx.ui.api.deps import AppDep, PrincipalDep
from ctx.ui.api.errors import ERROR_RESPONSES

router = APIRouter(prefix="/api", tags=["query"], responses=ERROR_RESPONSES)


@router.post(
    "/query", name="query", response_model=QueryResponse, response_model_exclude_unset=True
)
def query_endpoint(req: QueryRequest, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Hybrid retrieval: weighted RRF over dense, English/German full-text, title trigrams and
    dates; with ``explain``, per-channel ranks and per-stage timings."""
    return query(app, who, req)
