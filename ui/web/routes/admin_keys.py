"""API keys: the list (never a token: only its prefix), creating one (its token shown once, on
the answer to the form) and revoking one. Revoking a key ends its web sessions too, this one
included when it is the key signed in here."""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from ctx.core import App, Principal, ValidationError, access
from ctx.ui.web.deps import AdminUserDep, WebAppDep
from ctx.ui.web.render import render
from ctx.ui.web.routes.admin_forms import confirm_page, confirmed, done, storable, ticked

router = APIRouter(include_in_schema=False)


def keys_page(
    request: Request,
    app: App,
    who: Principal,
    *,
    form: dict[str, object] | None = None,
    error: str | None = None,
    status: int = 200,
) -> HTMLResponse:
    with app.connection() as conn:
        keys = access.list_keys(conn)
    return render(
        request,
        "admin/keys.html",
        {
            "keys": keys,
            "me": who.key_id,
            "f": form or {"name": "", "home_scope": "", "allowed_scopes": "", "is_admin": False},
            "error": error,
        },
        status=status,
    )


@router.get("/admin/keys", name="web-admin-keys")
def keys_list(request: Request, app: WebAppDep, who: AdminUserDep) -> HTMLResponse:
    return keys_page(request, app, who)


@router.post("/admin/keys", name="web-admin-keys-create")
def keys_create(
    request: Request,
    app: WebAppDep,
    who: AdminUserDep,
    name: Annotated[str, Form()] = "",
    home_scope: Annotated[str, Form()] = "",
    allowed_scopes: Annotated[str, Form()] = "",
    is_admin: Annotated[list[str] | None, Form()] = None,
) -> Response:
    """The answer is the one page that ever shows the token (not cached, not redirected to)."""
    form: dict[str, object] = {
        "name": name.strip(),
        "home_scope": home_scope.strip(),
        "allowed_scopes": allowed_scopes,
        "is_admin": ticked(is_admin),
    }
    allowed = [s for s in re.split(r"[\s,]+", allowed_scopes) if s]
    try:
        storable(form)
        with app.connection() as conn:
            key_id, token = access.create_key(
                conn,
                name=name.strip(),
                home_scope=home_scope.strip(),
                allowed_scopes=allowed,
                is_admin=ticked(is_admin),
            )
            created = next(k for k in access.list_keys(conn) if k["id"] == key_id)
    except ValidationError as exc:
        return keys_page(request, app, who, form=form, error=exc.message, status=422)
    context = {"key": created, "token": token, "tenant": created["tenant"], "back": "/admin/keys"}
    return render(request, "admin/key_created.html", context)


@router.post("/admin/keys/{key_id}/revoke", name="web-admin-keys-revoke")
def keys_revoke(
    request: Request,
    key_id: str,
    app: WebAppDep,
    who: AdminUserDep,
    confirm: Annotated[str, Form()] = "",
) -> Response:
    with app.connection() as conn:
        key = next((k for k in access.list_keys(conn) if k["id"] == key_id), None)
    if key is None:
        with app.connection() as conn:
            access.revoke_key(conn, key_id)  # says which key is unknown (a 404 page)
    mine = key_id == who.key_id
    if not confirmed(confirm):
        return confirm_page(
            request,
            title=f"Revoke key {key['name'] if key else key_id}?",
            message="Every client using this key is refused from the next request on; "
            "this cannot be undone (create a new key instead).",
            warning="This is the key you are signed in with: you will be signed out."
            if mine
            else None,
            action=f"/admin/keys/{key_id}/revoke",
            button="Revoke key",
            back="/admin/keys",
        )
    with app.connection() as conn:
        access.revoke_key(conn, key_id)
    return done(request, "/signin" if mine else "/admin/keys")
