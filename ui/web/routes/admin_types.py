"""Block types as policy data: the list, and a form for a type's fields (as ``PATCH
/api/types/{name}``: ``update_type`` validates the row as a whole, then the app reloads its types).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, Response

from ctx.core import App, ValidationError
from ctx.core.blocks import RETRIEVAL_POLICIES, SENSITIVITIES, get_type, load_types, update_type
from ctx.ui.web.deps import AdminUserDep, WebAppDep
from ctx.ui.web.render import render
from ctx.ui.web.routes.admin_forms import done, storable, ticked

router = APIRouter(include_in_schema=False)

FLAGS = ("guard_dedup", "dream_linkable", "embed", "temporal_extract")


class TypeForm:
    """The editable fields as sent (the name is in the path and cannot change)."""

    def __init__(
        self,
        description: Annotated[str, Form()] = "",
        retrieval_policy: Annotated[str, Form()] = "normal",
        retrieval_factor: Annotated[str, Form()] = "1",
        guard_duplicate: Annotated[str, Form()] = "",
        guard_review: Annotated[str, Form()] = "",
        default_sensitivity: Annotated[str, Form()] = "internal",
        workflow: Annotated[str, Form()] = "",
        guard_dedup: Annotated[list[str] | None, Form()] = None,
        dream_linkable: Annotated[list[str] | None, Form()] = None,
        embed: Annotated[list[str] | None, Form()] = None,
        temporal_extract: Annotated[list[str] | None, Form()] = None,
    ) -> None:
        self.changes: dict[str, Any] = {
            "description": description,
            "retrieval_policy": retrieval_policy,
            # numbers stay text: update_type turns them into numbers or names the bad field
            "retrieval_factor": retrieval_factor.strip(),
            "guard_duplicate": guard_duplicate.strip(),
            "guard_review": guard_review.strip(),
            "default_sensitivity": default_sensitivity,
            "workflow": workflow.strip(),
            "guard_dedup": ticked(guard_dedup),
            "dream_linkable": ticked(dream_linkable),
            "embed": ticked(embed),
            "temporal_extract": ticked(temporal_extract),
        }


def type_form(
    request: Request,
    name: str,
    values: dict[str, Any],
    *,
    error: str | None = None,
    field: str | None = None,
    status: int = 200,
) -> HTMLResponse:
    return render(
        request,
        "admin/type_form.html",
        {
            "name": name,
            "v": values,
            "error": error,
            "field": field,
            "policies": RETRIEVAL_POLICIES,
            "sensitivities": SENSITIVITIES,
        },
        status=status,
    )


def all_types(app: App) -> list[dict[str, Any]]:
    with app.connection() as conn:
        types = load_types(conn)
    return [asdict(t) for t in sorted(types.values(), key=lambda t: t.name)]


@router.get("/admin/types", name="web-admin-types")
def types_list(request: Request, app: WebAppDep, _: AdminUserDep, saved: str = "") -> HTMLResponse:
    types = all_types(app)
    known = {t["name"] for t in types}
    return render(
        request, "admin/types.html", {"types": types, "saved": saved if saved in known else ""}
    )


@router.get("/admin/types/{name}", name="web-admin-types-edit")
def types_edit(request: Request, name: str, app: WebAppDep, _: AdminUserDep) -> HTMLResponse:
    with app.connection() as conn:
        spec = get_type(conn, name)
    values = asdict(spec)
    values["workflow"] = values["workflow"] or ""
    return type_form(request, name, values)


@router.post("/admin/types/{name}", name="web-admin-types-set")
def types_set(
    request: Request,
    name: str,
    app: WebAppDep,
    _: AdminUserDep,
    form: Annotated[TypeForm, Depends()],
) -> Response:
    with app.connection() as conn:
        get_type(conn, name)  # an unknown type is a 404 page, not a form
    try:
        storable(form.changes)
        with app.connection() as conn:
            update_type(conn, name, form.changes)
    except ValidationError as exc:
        return type_form(
            request,
            name,
            {"name": name, **form.changes},
            error=exc.message,
            field=exc.field,
            status=422,
        )
    app.reload()
    return done(request, f"/admin/types?saved={name}")
