"""Export and import of blocks: ``GET /api/export`` streams JSON lines, ``POST /api/import``
takes a batch of them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import StreamingResponse
from pydantic import Field

from ctx.core import blocks
from ctx.core.validation import Strict
from ctx.ui.api.deps import AppDep, PrincipalDep
from ctx.ui.api.errors import ERROR_RESPONSES

router = APIRouter(prefix="/api", tags=["blocks"], responses=ERROR_RESPONSES)


class ImportRequest(Strict):
    records: list[dict[str, Any]] = Field(
        min_length=1, description="Lines of a `ctx export` file, the header first."
    )


@router.get(
    "/export",
    name="export",
    response_class=StreamingResponse,
    responses={200: {"content": {"application/x-ndjson": {}}}},
)
def export(
    app: AppDep,
    who: PrincipalDep,
    scope: Annotated[
        list[str] | None, Query(description="Scopes to export (default: all).")
    ] = None,
) -> StreamingResponse:
    """Every block of the key's read scopes (or of ``scope``) with its metadata, temporal
    anchors and links, as JSON lines: a header, blocks, links, an end line with the counts."""
    records = blocks.export_records(app, who, scope)
    first = next(records)  # a refused scope fails here, as a clear 4xx, before streaming

    def lines() -> Iterator[str]:
        yield json.dumps(first) + "\n"
        for record in records:
            yield json.dumps(record, ensure_ascii=False) + "\n"

    return StreamingResponse(lines(), media_type="application/x-ndjson")


@router.post("/import", name="import")
def import_(req: ImportRequest, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Import a batch of export lines in one transaction: blocks keep their ids and times,
    links join them; what is already here unchanged stays as it is."""
    return blocks.import_records(app, who, req.records)
