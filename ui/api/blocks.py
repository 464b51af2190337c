"""Block endpoints: store, light search, manage, whoami."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ctx.core import ValidationError, blocks
from ctx.core.blocks import (
    ManageRequest,
    SearchRequest,
    SearchResponse,
    StoreRequest,
    StoreResponse,
)
from ctx.ui.api.deps import AppDep, PrincipalDep

router = APIRouter(prefix="/api", tags=["blocks"])


@router.post("/store", name="store", response_model=StoreResponse)
def store(req: StoreRequest, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Create or update a block (upsert by scope + category + title) in the key's home scope."""
    return blocks.store_block(app, who, req)


@router.post("/search", name="search", response_model=SearchResponse)
def search(req: SearchRequest, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Full-text search (English and German) over the key's read scopes; no model needed."""
    hits = blocks.search_blocks(app, who, req)
    return {"results": hits, "count": len(hits)}


@router.post("/manage", name="manage")
def manage(req: ManageRequest, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Get or delete a block by id or unique id prefix; list, stats and categories."""
    if req.action in ("get", "delete") and not req.id:
        raise ValidationError(f"action {req.action!r} needs an id", field="id")
    if req.action == "get":
        assert req.id is not None
        return {"block": blocks.get_block(app, who, req.id)}
    if req.action == "delete":
        assert req.id is not None
        return blocks.delete_block(app, who, req.id)
    if req.action == "list":
        items = blocks.list_blocks(
            app, who, limit=req.limit, offset=req.offset, category=req.category, scope=req.scope
        )
        return {"blocks": items, "count": len(items)}
    if req.action == "stats":
        return {"stats": blocks.block_stats(app, who)}
    return {"categories": blocks.block_categories(app, who, scope=req.scope)}


@router.get("/whoami", name="whoami")
def whoami(who: PrincipalDep) -> dict[str, Any]:
    """The calling key: name, home scope, read scopes, admin bit."""
    return who.as_dict()
