"""The context governor over REST: prepare and commit around a model call, pins, status, flush,
promotion, document ingestion and the list of threads."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from ctx.core.governor import (
    CommitRequest,
    FlushRequest,
    IngestRequest,
    PrepareRequest,
    PromoteRequest,
    ProtectRequest,
    ReleaseRequest,
    StatusRequest,
)
from ctx.ui.api.deps import AppDep, PrincipalDep
from ctx.ui.api.errors import ERROR_RESPONSES, error_response

GOVERNOR_RESPONSES = {
    **ERROR_RESPONSES,
    400: error_response("The token counter named is unknown or cannot be used here."),
    404: error_response("No such thread in the key's scopes, or no such event or block."),
}
router = APIRouter(prefix="/api/governor", tags=["governor"], responses=GOVERNOR_RESPONSES)


@router.post("/prepare", name="governor_prepare")
def prepare(req: PrepareRequest, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Store the incoming event (before anything else), then return the messages to send to the
    model: system prompt, protected items, a reading desk retrieved for the focus and the recent
    ring, never more than ``budget`` tokens (framing included). With ``strict``, first wait (up
    to ``timeout_s``) until everything recorded in the thread is indexed."""
    out = app.governor.prepare(who, req)
    out.pop("sensitivities", None)
    return out


@router.post("/commit", name="governor_commit")
def commit(req: CommitRequest, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Store the model's answer or a tool's result in the thread."""
    return app.governor.commit(who, req)


@router.post("/protect", name="governor_protect")
def protect(req: ProtectRequest, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Pin items (an event, a block, text) so every envelope of the thread keeps them."""
    return app.governor.protect(who, req)


@router.post("/release", name="governor_release")
def release(req: ReleaseRequest, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Unpin items of the thread (by pin id, or all)."""
    return app.governor.release(who, req)


@router.post("/status", name="governor_status")
def status(req: StatusRequest, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Watermarks (recorded, indexed, embedded), the index queue's health, the work ring, the
    cache, the pins and what filled the last envelope."""
    return app.governor.status(who, req)


@router.post("/flush", name="governor_flush")
def flush(req: FlushRequest, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Wait until everything recorded in the thread is indexed, up to ``timeout_s``; the answer
    says whether the timeout was hit."""
    return app.governor.flush(who, req)


@router.post("/promote", name="governor_promote")
def promote(req: PromoteRequest, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Copy a record of the thread to the project (its collection) or a team scope, keeping its
    provenance."""
    return app.governor.promote(who, req)


@router.post("/ingest", name="governor_ingest")
def ingest(req: IngestRequest, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """A document into the thread (records only its desk reads) or into its project."""
    return app.governor.ingest(who, req)


@router.get("/threads", name="governor_threads")
def threads(
    app: AppDep,
    who: PrincipalDep,
    collection: Annotated[str | None, Query(max_length=50)] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> dict[str, Any]:
    """Threads in the key's readable scopes (or one collection), most recently active first."""
    return app.governor.list_threads(who, collection, limit)
