"""Sealed secrets, write-only: names, what uses each, when each changed; set one, delete one.

A value goes in and never comes back: not in the list, not in the form after a refusal (the
password field is always empty), not in a message. Deleting a secret a backend or a setting
still uses is refused with the names of its users.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from ctx.core import App, Conflict, ValidationError, access
from ctx.ui.web.deps import AdminUserDep, WebAppDep
from ctx.ui.web.render import render
from ctx.ui.web.routes.admin_forms import confirm_page, confirmed, done, storable

router = APIRouter(include_in_schema=False)


def secrets_page(
    request: Request,
    app: App,
    *,
    name: str = "",
    error: str | None = None,
    saved: str = "",
    status: int = 200,
) -> HTMLResponse:
    with app.connection() as conn:
        rows = access.list_secrets(conn)
        used = access.secret_users(conn)
    listed: list[dict[str, Any]] = [{**r, "users": used.get(r["name"], [])} for r in rows]
    return render(
        request,
        "admin/secrets.html",
        {
            "secrets": listed,
            "name": name,
            "error": error,
            "saved": saved if saved in {r["name"] for r in rows} else "",
        },
        status=status,
    )


@router.get("/admin/secrets", name="web-admin-secrets")
def secrets_list(
    request: Request, app: WebAppDep, _: AdminUserDep, saved: str = ""
) -> HTMLResponse:
    return secrets_page(request, app, saved=saved[:64])


@router.post("/admin/secrets", name="web-admin-secrets-set")
def secrets_set(
    request: Request,
    app: WebAppDep,
    who: AdminUserDep,
    name: Annotated[str, Form()] = "",
    value: Annotated[str, Form()] = "",
) -> Response:
    """Seal ``value`` under ``name`` (replacing an earlier value), as ``PUT /api/secrets``."""
    name = name.strip()
    try:
        storable({"name": name})
        with app.connection() as conn:
            access.set_secret(conn, app.seal_key, name, value, by=f"web:{who.name}")
    except ValidationError as exc:
        # the message names the rule, never the value; the name comes back, the value does not
        return secrets_page(request, app, name=name, error=exc.message, status=422)
    app.backends.invalidate()  # a backend using this name opens its client with the new value
    return done(request, f"/admin/secrets?saved={name}")


@router.post("/admin/secrets/{name}/delete", name="web-admin-secrets-delete")
def secrets_delete(
    request: Request,
    name: str,
    app: WebAppDep,
    _: AdminUserDep,
    confirm: Annotated[str, Form()] = "",
) -> Response:
    with app.connection() as conn:
        users = access.secret_users(conn).get(name, [])
    if not confirmed(confirm) and not users:
        return confirm_page(
            request,
            title=f"Delete secret {name}?",
            message="The sealed value is gone for good; setting it again needs the value.",
            action=f"/admin/secrets/{name}/delete",
            button="Delete secret",
            back="/admin/secrets",
        )
    try:
        with app.connection() as conn:
            access.delete_secret(conn, name)
    except Conflict as exc:
        return secrets_page(request, app, error=exc.message, status=409)
    return done(request, "/admin/secrets")
