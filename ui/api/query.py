"""The query endpoint: the whole query path, stage by stage."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ctx.core import QueryRequest, query
from ctx.ui.api.deps import AppDep, PrincipalDep

router = APIRouter(prefix="/api", tags=["query"])


@router.post("/query", name="query")
def query_endpoint(req: QueryRequest, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Hybrid retrieval: weighted RRF over dense, English/German full-text, title trigrams and
    dates; with ``explain``, per-channel ranks and per-stage timings."""
    return query(app, who, req)
