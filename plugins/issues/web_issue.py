"""Workbench pages of one issue: its page (``/issues/{scope}/{number}``) with comments, history
and Dream links, and the forms that comment, close, reopen and set labels and assignees.

Numbers count per scope and a scope is path-safe (``validate_scope``: lowercase letters, digits,
``.``, ``_``, ``-``), so both are in the path. Writes go to the key's home scope only, as in the
API; the forms are shown there alone, and a post for another scope is refused before the service
(which looks numbers up in the home scope) is called. Without JavaScript a post answers 303 back
to the page; with htmx the page's content is swapped with the outcome; a refusal comes back as the
page with its message and a 4xx.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Form, Path, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ctx.core import App, CtxError, Forbidden, Principal
from ctx.plugins.issues import service
from ctx.plugins.issues.schemas import CloseRequest, CommentCreate, IssueEdit
from ctx.plugins.issues.web_view import REASONS, body_html, change_text, names, valid
from ctx.ui import UserDep, WebAppDep, render

router = APIRouter(include_in_schema=False)

Number = Annotated[int, Path(ge=1, le=2**31 - 1)]
Text = Annotated[str, Form()]
NOTICES = {
    "commented": "Comment added.",
    "closed": "Issue closed.",
    "reopened": "Issue reopened.",
    "edited": "Labels and assignees saved.",
}


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def refused(exc: CtxError) -> int:
    """The status a refused form comes back with: the error's own 4xx, else 422."""
    return exc.status_code if 400 <= exc.status_code < 500 else 422


def issue_url(scope: str, number: int) -> str:
    return f"/issues/{scope}/{number}"


def _web_url(url: Any) -> str | None:
    """The forge link, when it is one a browser may follow (never ``javascript:`` and the like)."""
    ok = isinstance(url, str) and url.lower().startswith(("https://", "http://"))
    return url if ok else None


def detail_page(
    request: Request,
    app: App,
    who: Principal,
    scope: str,
    number: int,
    *,
    notice: str | None = None,
    error: str | None = None,
    status: int = 200,
    headers: dict[str, str] | None = None,
) -> HTMLResponse:
    """The issue's page; a form's outcome or refusal is said at its top."""
    issue = service.show(app, who, number, scope)
    context = {
        "issue": issue,
        "url": issue_url(scope, number),
        "body": body_html(issue["body"]),
        "comments": [{**c, "html": body_html(c["body"], 2)} for c in issue["comments"]],
        "history": [
            {**h, "old": change_text(h["old_value"]), "new": change_text(h["new_value"])}
            for h in issue["history"]
        ],
        "forge_url": _web_url(issue.get("url")),
        "editable": issue["scope"] == who.home_scope,
        "reasons": REASONS,
        "notice": notice,
        "error": error,
    }
    return render(request, "issues/detail.html", context, status=status, headers=headers)


@router.get("/issues/{scope}/{number}", name="web-issue")
def issueissue_url(
    request: Request,
    app: WebAppDep,
    who: UserDep,
    scope: str,
    number: Number,
    done: str = "",
) -> HTMLResponse:
    return detail_page(request, app, who, scope, number, notice=NOTICES.get(done))


def _act(
    request: Request,
    app: App,
    who: Principal,
    scope: str,
    number: int,
    done: str,
    change: Callable[[], Any],
) -> Response:
    """Run one change of the issue; the page again, with the outcome or the refusal."""
    try:
        if scope != who.home_scope:
            raise Forbidden(f"this key changes only issues of its home scope {who.home_scope!r}")
        change()
    except CtxError as exc:
        return detail_page(request, app, who, scope, number, error=exc.message, status=refused(exc))
    if is_htmx(request):
        return detail_page(request, app, who, scope, number, notice=NOTICES[done])
    return RedirectResponse(f"{issue_url(scope, number)}?done={done}", status_code=303)


@router.post("/issues/{scope}/{number}/comment", name="web-issue-comment")
def comment_issue(
    request: Request, app: WebAppDep, who: UserDep, scope: str, number: Number, body: Text = ""
) -> Response:
    def change() -> Any:
        return service.comment(app, who, number, valid(CommentCreate, {"body": body}))

    return _act(request, app, who, scope, number, "commented", change)


@router.post("/issues/{scope}/{number}/close", name="web-issue-close")
def close_issue(
    request: Request,
    app: WebAppDep,
    who: UserDep,
    scope: str,
    number: Number,
    reason: Text = "completed",
) -> Response:
    def change() -> Any:
        return service.close(app, who, number, valid(CloseRequest, {"reason": reason}))

    return _act(request, app, who, scope, number, "closed", change)


@router.post("/issues/{scope}/{number}/reopen", name="web-issue-reopen")
def reopen_issue(
    request: Request, app: WebAppDep, who: UserDep, scope: str, number: Number
) -> Response:
    def change() -> Any:
        return service.reopen(app, who, number)

    return _act(request, app, who, scope, number, "reopened", change)


@router.post("/issues/{scope}/{number}/edit", name="web-issue-edit")
def edit_issue(
    request: Request,
    app: WebAppDep,
    who: UserDep,
    scope: str,
    number: Number,
    labels: Text = "",
    assignees: Text = "",
) -> Response:
    def change() -> Any:
        req = valid(IssueEdit, {"labels": names(labels), "assignees": names(assignees)})
        return service.edit(app, who, number, req)

    return _act(request, app, who, scope, number, "edited", change)
