"""The workbench's sync conflicts page: each open conflict with the base, local and remote value
of every field both sides changed, and a form per side to take it."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Form, Path, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ctx.core import CtxError
from ctx.plugins.issues.sync import service as sync
from ctx.plugins.issues.web_issue import is_htmx, refused
from ctx.ui import UserDep, WebAppDep, render

router = APIRouter(include_in_schema=False)
SIDES = ("local", "remote")


def _shown(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "(none)"
    if value is None or value == "":
        return "(empty)"
    return value if isinstance(value, str) else json.dumps(value)


def _rows(conflict: dict[str, Any]) -> list[dict[str, str]]:
    base = conflict["base"] or {}
    return [
        {
            "field": name,
            "base": _shown(base.get(name)),
            "local": _shown(conflict["local"].get(name)),
            "remote": _shown(conflict["remote"].get(name)),
        }
        for name in conflict["fields"]
    ]


def _page(
    request: Request,
    app: Any,
    who: Any,
    notice: str | None = None,
    error: str | None = None,
    status: int = 200,
) -> HTMLResponse:
    found = sync.list_conflicts(app, who)
    items = [{**c, "rows": _rows(c), "mine": c["scope"] == who.home_scope} for c in found]
    context = {"conflicts": items, "notice": notice, "error": error}
    return render(request, "issues/conflicts.html", context, status=status)


@router.get("/issues/conflicts", name="web-issues-conflicts")
def conflicts_page(request: Request, app: WebAppDep, who: UserDep) -> HTMLResponse:
    """Open sync conflicts of the key's read scopes."""
    return _page(request, app, who)


@router.post("/issues/conflicts/{conflict_id}/resolve", name="web-issues-resolve")
def resolve(
    request: Request,
    app: WebAppDep,
    who: UserDep,
    conflict_id: Annotated[int, Path(ge=1, le=2**63 - 1)],
    take: Annotated[str, Form()],
) -> Response:
    """Take one side; the next sync (queued now) carries it to the other."""
    try:
        if take not in SIDES:
            from ctx.core import ValidationError

            raise ValidationError("take must be local or remote", field="take")
        sync.resolve(app, who, conflict_id, take)
    except CtxError as exc:
        return _page(request, app, who, error=exc.message, status=refused(exc))
    notice = f"Conflict {conflict_id}: the {take} version was taken; a sync is queued."
    if is_htmx(request):
        return _page(request, app, who, notice=notice)
    return RedirectResponse("/issues/conflicts?resolved=1", status_code=303)
