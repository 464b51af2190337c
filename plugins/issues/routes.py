"""REST under ``/api/issues``: the same operations as the CLI and the MCP tools."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from ctx.plugins.issues import service
from ctx.plugins.issues.schemas import (
    CloseRequest,
    CommentCreate,
    IssueCreate,
    IssueEdit,
    IssueFilter,
    SuggestRequest,
)
from ctx.plugins.issues.suggest import suggest
from ctx.ui import AppDep, PrincipalDep, error_response

_error = error_response


ERRORS: dict[int | str, dict[str, Any]] = {
    401: _error("No key, or an unknown or revoked one."),
    403: _error("The key may not read or write that scope."),
    404: _error("No issue of that number in the scope."),
    409: _error("Nothing to change, or the issue is already in that state."),
    413: _error("The body is larger than server.body_limit."),
    415: _error("The body is not declared as JSON."),
    422: _error("A field is missing or invalid; `field` names it."),
}
router = APIRouter(prefix="/api/issues", tags=["issues"], responses=ERRORS)


@router.get("", name="issues.list")
def list_issues(
    app: AppDep, who: PrincipalDep, filters: Annotated[IssueFilter, Query()]
) -> dict[str, Any]:
    """Issues of the key's read scopes, newest first; filter by state, label, assignee, text."""
    issues = service.list_issues(app, who, filters)
    return {"issues": issues, "count": len(issues)}


@router.post("", name="issues.create", status_code=201)
def create(req: IssueCreate, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """File an issue in the key's home scope; it gets the scope's next number."""
    return service.create(app, who, req)


@router.post("/suggest", name="issues.suggest")
def suggest_for(req: SuggestRequest, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    """Likely duplicates and related blocks for an issue not yet filed."""
    return suggest(app, who, req)


@router.get("/{number}", name="issues.show")
def show(
    number: int, app: AppDep, who: PrincipalDep, scope: Annotated[str | None, Query()] = None
) -> dict[str, Any]:
    """An issue with its comments, history and Dream links (``scope`` defaults to home)."""
    return service.show(app, who, _positive(number), scope)


@router.patch("/{number}", name="issues.edit")
def edit(number: int, req: IssueEdit, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    return service.edit(app, who, _positive(number), req)


@router.post("/{number}/comments", name="issues.comment", status_code=201)
def comment(number: int, req: CommentCreate, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    return service.comment(app, who, _positive(number), req)


@router.post("/{number}/close", name="issues.close")
def close(
    number: int, app: AppDep, who: PrincipalDep, req: CloseRequest | None = None
) -> dict[str, Any]:
    return service.close(app, who, _positive(number), req or CloseRequest())


@router.post("/{number}/reopen", name="issues.reopen")
def reopen(number: int, app: AppDep, who: PrincipalDep) -> dict[str, Any]:
    return service.reopen(app, who, _positive(number))


def _positive(number: int) -> int:
    from ctx.core import ValidationError

    if number < 1:
        raise ValidationError("issue number must be 1 or more", field="number")
    return number
