"""Workbench pages that file an issue: the create form, with likely duplicates and related blocks
from ``suggest`` (the query path). htmx posts the draft to ``/issues/suggest`` as it is typed and
swaps the suggestions in; without JavaScript, "Check for duplicates" shows the form again with
them. Filing opens the new issue's page; a refused draft comes back with its message and a 4xx.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ctx.core import App, CtxError, Principal, get_block
from ctx.plugins.issues import service
from ctx.plugins.issues.schemas import IssueCreate, SuggestRequest
from ctx.plugins.issues.suggest import suggest
from ctx.plugins.issues.types import ISSUE
from ctx.plugins.issues.web_issue import Text, detail_page, is_htmx, issue_url, refused
from ctx.plugins.issues.web_view import names, valid
from ctx.ui import UserDep, WebAppDep, render

router = APIRouter(include_in_schema=False)


def _issue_link(app: App, who: Principal, hit: dict[str, Any]) -> str:
    """Where a suggested block is read: an issue's own page, any other block's page."""
    if hit["block_type"] == ISSUE:
        try:
            number = get_block(app, who, hit["id"])["metadata"]["number"]
            return issue_url(hit["scope"], int(number))
        except (CtxError, KeyError, ValueError):
            pass
    return f"/blocks/{hit['id']}"


def _suggestions(app: App, who: Principal, title: str, body: str) -> dict[str, Any]:
    """Likely duplicates and related blocks for a draft, each with its link; nothing for a
    draft without a title (there is nothing to compare yet)."""
    if not title.strip():
        return {"duplicates": [], "related": [], "checked": False, "suggest_error": None}
    try:
        found = suggest(app, who, valid(SuggestRequest, {"title": title, "body": body}))
    except CtxError as exc:
        return {"duplicates": [], "related": [], "checked": True, "suggest_error": exc.message}
    for hit in (*found["duplicates"], *found["related"]):
        hit["href"] = _issue_link(app, who, hit)
    return {**found, "checked": True, "suggest_error": None}


def _form(
    request: Request,
    who: Principal,
    draft: dict[str, str],
    extra: dict[str, Any] | None = None,
    *,
    error: str | None = None,
    status: int = 200,
) -> HTMLResponse:
    context = {
        "draft": draft,
        "home": who.home_scope,
        "error": error,
        "duplicates": [],
        "related": [],
        "checked": False,
        "suggest_error": None,
        **(extra or {}),
    }
    return render(request, "issues/new.html", context, status=status)


@router.get("/issues/new", name="web-issue-new")
def new_issue(request: Request, who: UserDep) -> HTMLResponse:
    return _form(request, who, {"title": "", "body": "", "labels": "", "assignees": ""})


@router.post("/issues/new", name="web-issue-create")
def create_issue(
    request: Request,
    app: WebAppDep,
    who: UserDep,
    title: Text = "",
    body: Text = "",
    labels: Text = "",
    assignees: Text = "",
    action: Text = "create",
) -> Response:
    """File the issue, or (``action=check``) show the form again with likely duplicates."""
    draft = {"title": title, "body": body, "labels": labels, "assignees": assignees}
    if action == "check":
        return _form(request, who, draft, _suggestions(app, who, title, body))
    try:
        req = valid(
            IssueCreate,
            {"title": title, "body": body, "labels": names(labels), "assignees": names(assignees)},
        )
        issue = service.create(app, who, req)
    except CtxError as exc:
        return _form(request, who, draft, error=exc.message, status=refused(exc))
    url = issue_url(issue["scope"], issue["number"])
    if is_htmx(request):
        scope, number = issue["scope"], issue["number"]
        headers = {"HX-Push-Url": url}
        return detail_page(request, app, who, scope, number, notice="Issue filed.", headers=headers)
    return RedirectResponse(url, status_code=303)


@router.post("/issues/suggest", name="web-issue-suggest")
def suggest_for(
    request: Request, app: WebAppDep, who: UserDep, title: Text = "", body: Text = ""
) -> HTMLResponse:
    """The suggestions partial, for the create form to swap in as the draft is typed."""
    return render(request, "issues/_suggest.html", _suggestions(app, who, title, body))
