"""The tenant pages: for every signed-in key, its tenant and what it may read; for owner and
admin keys, their tenant's scopes, keys and grants to manage; for the root admin, every tenant.

A tenant the key does not administer is the 404 page, as over the API. Every write goes through
the same functions as ``/api/tenants`` (ctx.core.access.tenants), so the rules are the API's.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from ctx.core import App, CtxError, Principal, ValidationError, access
from ctx.ui.web.deps import UserDep, WebAppDep
from ctx.ui.web.render import render
from ctx.ui.web.routes.admin_forms import done, storable

router = APIRouter(include_in_schema=False)
tenants = access.tenants


def _scopes(text: str) -> list[str]:
    return [s for s in re.split(r"[\s,]+", text) if s]


def tenant_page(
    request: Request,
    app: App,
    who: Principal,
    name: str,
    *,
    error: str | None = None,
    form: dict[str, Any] | None = None,
    status: int = 200,
) -> HTMLResponse:
    with app.connection() as conn:
        tenant = tenants.get_tenant(conn, name)
        manager = who.manages(tenant["id"])
        if not manager and tenant["id"] != who.tenant_id:
            tenant = tenants.managed_tenant(conn, who, name)  # the 404 of a foreign tenant
        context: dict[str, Any] = {"tenant": tenant, "manager": manager, "me": who}
        if manager:
            context |= {
                "scopes": tenants.tenant_scopes(conn, tenant),
                "keys": tenants.tenant_keys(conn, tenant),
                "grants": tenants.list_grants(conn, tenant),
            }
    blank = {"key_name": "", "home_scope": "", "allowed_scopes": "", "role": "member"}
    context |= {"error": error, "f": blank | (form or {})}
    return render(request, "tenant/show.html", context, status=status)


@router.get("/tenant", name="web-tenant")
def tenant_home(request: Request, app: WebAppDep, who: UserDep) -> HTMLResponse:
    """The root admin's list of tenants; everyone else's own tenant."""
    if not who.is_admin:
        return tenant_page(request, app, who, who.tenant)
    return tenants_list(request, app, who)


def tenants_list(
    request: Request, app: App, who: Principal, *, error: str | None = None, status: int = 200
) -> HTMLResponse:
    with app.connection() as conn:
        rows = tenants.list_tenants(conn, who)
    return render(request, "tenant/index.html", {"tenants": rows, "error": error}, status=status)


@router.post("/tenant", name="web-tenant-create")
def tenant_create(
    request: Request,
    app: WebAppDep,
    who: UserDep,
    name: Annotated[str, Form()] = "",
    display_name: Annotated[str, Form()] = "",
) -> Response:
    who.require_admin()
    try:
        storable({"name": name, "display_name": display_name})
        with app.connection() as conn:
            tenants.create_tenant(conn, who, name.strip(), display_name.strip())
    except CtxError as exc:
        return tenants_list(request, app, who, error=exc.message, status=exc.status_code)
    return done(request, f"/tenant/{name.strip()}")


@router.get("/tenant/{name}", name="web-tenant-show")
def tenant_show(name: str, request: Request, app: WebAppDep, who: UserDep) -> HTMLResponse:
    return tenant_page(request, app, who, name)


@router.post("/tenant/{name}/scopes", name="web-tenant-scope")
def tenant_scope(
    name: str,
    request: Request,
    app: WebAppDep,
    who: UserDep,
    scope: Annotated[str, Form()] = "",
) -> Response:
    try:
        storable({"scope": scope})
        with app.connection() as conn:
            tenants.add_scope(conn, who, name, scope.strip())
    except CtxError as exc:
        return tenant_page(request, app, who, name, error=exc.message, status=exc.status_code)
    return done(request, f"/tenant/{name}")


@router.post("/tenant/{name}/keys", name="web-tenant-key")
def tenant_key(
    name: str,
    request: Request,
    app: WebAppDep,
    who: UserDep,
    key_name: Annotated[str, Form()] = "",
    home_scope: Annotated[str, Form()] = "",
    allowed_scopes: Annotated[str, Form()] = "",
    role: Annotated[str, Form()] = "member",
) -> Response:
    """The answer is the one page that ever shows the token."""
    form = {"key_name": key_name, "home_scope": home_scope, "allowed_scopes": allowed_scopes,
            "role": role}  # fmt: skip
    try:
        storable(form)
        with app.connection() as conn:
            tenant = tenants.managed_tenant(conn, who, name)
            key_id, token = access.create_key(
                conn,
                name=key_name.strip() or f"{name} key for {home_scope.strip()}",
                home_scope=home_scope.strip(),
                allowed_scopes=_scopes(allowed_scopes),
                tenant=tenant["name"],
                role=role,
                who=who,
            )
            created = next(k for k in tenants.tenant_keys(conn, tenant) if k["id"] == key_id)
    except CtxError as exc:
        return tenant_page(
            request, app, who, name, error=exc.message, form=form, status=exc.status_code
        )
    context = {"key": created, "token": token, "tenant": name, "back": f"/tenant/{name}"}
    return render(request, "admin/key_created.html", context)


@router.post("/tenant/{name}/keys/{key_id}/revoke", name="web-tenant-key-revoke")
def tenant_key_revoke(
    name: str, key_id: str, request: Request, app: WebAppDep, who: UserDep
) -> Response:
    with app.connection() as conn:
        tenants.revoke_tenant_key(conn, who, name, key_id)
    return done(request, "/signin" if key_id == who.key_id else f"/tenant/{name}")


@router.post("/tenant/{name}/share", name="web-tenant-share")
def tenant_share(
    name: str,
    request: Request,
    app: WebAppDep,
    who: UserDep,
    to: Annotated[str, Form()] = "",
    scope: Annotated[str, Form()] = "",
    block_id: Annotated[str, Form()] = "",
    revoke: Annotated[str, Form()] = "",
    accept: Annotated[str, Form()] = "",
) -> Response:
    """From tenant ``name``'s page: share a scope or offer a block to tenant ``to``, take it back
    (``revoke=yes``), or accept a block offered to ``name`` (``accept=yes``). The grant
    functions decide who may."""
    try:
        storable({"to": to, "scope": scope, "block_id": block_id})
        if bool(scope.strip()) == bool(block_id.strip()):
            raise ValidationError("give a scope or a block id", field="scope")
        with app.connection() as conn:
            tenants.managed_tenant(conn, who, name)
            if accept == "yes":
                tenants.accept_block(conn, who, name, block_id.strip())
            elif scope.strip():
                by_scope = tenants.revoke_scope if revoke == "yes" else tenants.grant_scope
                by_scope(conn, who, scope.strip(), to.strip())
            else:
                by_block = tenants.revoke_block if revoke == "yes" else tenants.grant_block
                by_block(conn, who, block_id.strip(), to.strip())
    except CtxError as exc:
        return tenant_page(request, app, who, name, error=exc.message, status=exc.status_code)
    return done(request, f"/tenant/{name}")
