"""Block endpoints: store, light search, manage, whoami."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ctx.core import blocks
from ctx.core.access import WhoAmI, charge_limits
from ctx.core.blocks import (
    ManageRequest,
    ManageResponse,
    SearchRequest,
    SearchResponse,
    StoreRequest,
    StoreResponse,
)
from ctx.ui.api.deps import AppDep, PrincipalDep
from ctx.ui.api.errors import BY_ID_RESPONSES, ERROR_RESPONSES
from ctx.ui.version import VERSION

WRITE_ACTIONS = frozenset({"delete", "update", "archive", "unarchive"})

router = APIRouter(prefix="/api", tags=["blocks"], responses={**ERROR_RESPONSES, **BY_ID_RESPONSES})


@router.post("/store", name="store", response_model=StoreResponse)
def store(req: StoreRequest, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Create or update a block (upsert by scope + category + title) in the key's home scope."""
    return blocks.store_block(app, who, req)


@router.post("/search", name="search", response_model=SearchResponse)
def search(req: SearchRequest, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Full-text search (English and German) over the key's read scopes; no model needed."""
    hits = blocks.search_blocks(app, who, req)
    return {"results": hits, "count": len(hits)}


@router.post(
    "/manage", name="manage", response_model=ManageResponse, response_model_exclude_unset=True
)
def manage(req: ManageRequest, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """By id (or a unique prefix): get, delete, update (with ``changes``), archive, unarchive; and
    list, stats and categories of the key's read scopes (or one of them)."""
    if req.action in WRITE_ACTIONS:
        charge_limits(app, who, "writes")
    return blocks.manage(app, who, req)


@router.get("/whoami", name="whoami", response_model=WhoAmI)
def whoami(who: PrincipalDep) -> dict[str, Any]:
    """The calling key: name, home scope, read scopes, admin bit."""
    return who.as_dict()


@router.get("/version", name="version")
def version(who: PrincipalDep) -> dict[str, str]:
    """The server's version (behind a key: anonymous callers learn nothing about the server)."""
    return {"version": VERSION}
