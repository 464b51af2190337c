"""REST for the sync: ``/api/issues/sync`` (run now, links, conflicts) and the forges' webhook
endpoint ``/api/forge/{forge}/webhook`` (no key: the delivery's signature is its credential)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from starlette.concurrency import run_in_threadpool

from ctx.plugins.issues.routes import ERRORS
from ctx.plugins.issues.sync import service
from ctx.plugins.issues.sync.schemas import LinkCreate, ResolveRequest, SyncRequest
from ctx.ui import AppDep, PrincipalDep

router = APIRouter(prefix="/api/issues/sync", tags=["issues"], responses=ERRORS)
webhooks = APIRouter(prefix="/api/forge", tags=["issues"], responses=ERRORS)


@router.post("", name="issues.sync")
def sync(app: AppDep, who: PrincipalDep, req: SyncRequest | None = None) -> dict[str, Any]:
    """Sync the scope (default: home) with its forge repository now; the run's report."""
    return service.sync_now(app, who, (req or SyncRequest()).scope)


@router.get("/links", name="issues.sync.links")
def links(app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Forge links of the key's scopes (all, for an admin); secret names, never values."""
    return {"links": service.list_links(app, who)}


@router.post("/links", name="issues.sync.link", status_code=201)
def link(req: LinkCreate, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Link a repository scope to a forge repository (admin)."""
    return service.create_link(app, who, req)


@router.delete("/links/{link_id}", name="issues.sync.unlink")
def unlink(link_id: int, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Remove a link (admin); the issues stay."""
    return service.delete_link(app, who, link_id)


@router.get("/conflicts", name="issues.sync.conflicts")
def conflicts(
    app: AppDep,
    who: PrincipalDep,
    scope: Annotated[str | None, Query()] = None,
    resolved: Annotated[bool, Query(description="Include resolved ones.")] = False,
) -> dict[str, Any]:
    """Records both sides changed differently: the base, local and remote versions."""
    found = service.list_conflicts(app, who, scope, resolved)
    return {"conflicts": found, "count": len(found)}


@router.post("/conflicts/{conflict_id}/resolve", name="issues.sync.resolve")
def resolve(
    conflict_id: int, req: ResolveRequest, app: AppDep, who: PrincipalDep
) -> dict[str, Any]:
    """Pick the local or the remote version; the next run (queued now) carries it over."""
    return service.resolve(app, who, conflict_id, req.take)


@webhooks.post("/{forge}/webhook", name="issues.sync.webhook", status_code=202)
async def webhook(forge: str, request: Request, app: AppDep) -> dict[str, Any]:
    """A forge's push delivery: checked against the link's webhook secret, taken once, and
    turned into a queued sync (202)."""
    body = await request.body()
    return await run_in_threadpool(service.webhook, app, forge, dict(request.headers), body)
