"""Workbench pages of the issue tracker: the list with its filters and the board here, one issue
and its forms in ``web_issue``, the create form in ``web_new``. They call the same service
functions as ``/api/issues``, as the signed-in key, so scopes are enforced there; every page and
form works without JavaScript, and htmx swaps only what changed.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ctx.core import CtxError, ValidationError
from ctx.plugins.issues import service, web_issue, web_new, web_sync
from ctx.plugins.issues.schemas import IssueFilter
from ctx.plugins.issues.web_view import BOARDS, STATES, Filters, board_columns, valid
from ctx.ui import UserDep, WebAppDep, render, swaps_region

router = APIRouter(include_in_schema=False)


@router.get("/issues", name="web-issues")
def issues_index(
    request: Request,
    app: WebAppDep,
    who: UserDep,
    state: str = "open",
    label: str = "",
    assignee: str = "",
    text: str = "",
    scope: str = "",
) -> HTMLResponse:
    """Issues of the key's read scopes, newest first, filtered as the GET form says."""
    f = Filters(state.strip(), label.strip(), assignee.strip(), text.strip(), scope.strip())
    error, status, rows = None, 200, []
    try:
        if f.state not in STATES:
            raise ValidationError("state must be open, closed or all", field="state")
        rows = service.list_issues(app, who, valid(IssueFilter, f.query()))
    except CtxError as exc:
        error, status = exc.message, web_issue.refused(exc)
    context = {"f": f, "rows": rows, "error": error, "states": STATES}
    if swaps_region(request, "issue-list"):
        return render(request, "issues/_list.html", context, status=status)
    context["scopes"] = sorted(who.read_scopes)
    return render(request, "issues/index.html", context, status=status)


@router.get("/issues/board", name="web-issues-board")
def issues_board(
    request: Request, app: WebAppDep, who: UserDep, by: str = "state", scope: str = ""
) -> HTMLResponse:
    """Every issue (open and closed) in columns by state, or by label."""
    if by not in BOARDS:
        raise ValidationError("by must be state or label", field="by")
    rows = service.list_issues(app, who, valid(IssueFilter, {"scope": scope or None, "limit": 200}))
    return render(
        request,
        "issues/board.html",
        {"by": by, "scope": scope, "columns": board_columns(rows, by), "shown": len(rows)},
    )


router.include_router(web_new.router)
router.include_router(web_sync.router)
router.include_router(web_issue.router)
