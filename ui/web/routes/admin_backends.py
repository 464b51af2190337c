"""Model backends: the list with health and the last day's calls, a form to create or change
one, delete, and a reachability test.

Writes go through ``app.backends`` (the same pool methods as ``/api/backends``), so the pool is
rebuilt after each. Trust is the one field that decides which blocks a server may see: raising it
takes a second, explicit step naming the sensitivities the backend will newly receive.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, Response

from ctx.core import App, Conflict, ValidationError, access, llm
from ctx.ui.web.deps import AdminUserDep, WebAppDep
from ctx.ui.web.render import render
from ctx.ui.web.routes.admin_forms import (
    confirm_page,
    confirmed,
    done,
    is_htmx,
    storable,
    ticked,
)

router = APIRouter(include_in_schema=False)

SEES = {t: [s for s in llm.SENSITIVITY_ORDER if llm.may_see(t, s)] for t in llm.TRUST_LEVELS}


class BackendForm:
    """The backend form as sent: text, kept as typed so a refused form comes back intact."""

    def __init__(
        self,
        name: Annotated[str, Form()] = "",
        kind: Annotated[str, Form()] = "",
        base_url: Annotated[str, Form()] = "",
        roles: Annotated[list[str] | None, Form()] = None,
        model_map: Annotated[str, Form()] = "",
        priority: Annotated[str, Form()] = "100",
        trust: Annotated[str, Form()] = "public",
        secret: Annotated[str, Form()] = "",
        enabled: Annotated[list[str] | None, Form()] = None,
        description: Annotated[str, Form()] = "",
        elevate: Annotated[str, Form()] = "",
    ) -> None:
        self.values: dict[str, Any] = {
            "name": name.strip(),
            "kind": kind,
            "base_url": base_url.strip(),
            "roles": list(roles or []),
            "model_map": model_map,
            "priority": priority.strip(),
            "trust": trust,
            "secret": secret,
            "enabled": ticked(enabled),
            "description": description,
        }
        self.elevate = elevate

    def fields(self) -> dict[str, Any]:
        """The fields for the core (``BackendFields``): parsed, or a 422 naming the field."""
        v = self.values
        storable(v)
        try:
            priority = int(v["priority"])
        except ValueError:
            raise ValidationError("priority must be a whole number", field="priority") from None
        return {
            "kind": v["kind"],
            "base_url": v["base_url"],
            "roles": v["roles"],
            "model_map": parse_model_map(v["model_map"]),
            "priority": priority,
            "trust": v["trust"],
            "secret": v["secret"],
            "enabled": v["enabled"],
            "description": v["description"],
        }


BackendFormDep = Annotated[BackendForm, Depends()]


def parse_model_map(text: str) -> dict[str, Any]:
    """``role = model`` lines, or a JSON object for entries with request params."""
    text = text.strip()
    if text.startswith("{"):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValidationError(
                f"model_map is not valid JSON: {exc.msg} (line {exc.lineno})", field="model_map"
            ) from None
        if not isinstance(value, dict):
            raise ValidationError("model_map must be a JSON object", field="model_map")
        return value
    out: dict[str, Any] = {}
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        role, sep, model = line.partition("=")
        if not sep or not role.strip() or not model.strip():
            raise ValidationError(
                f"model_map line {n}: write `role = model` (or a JSON object)", field="model_map"
            )
        out[role.strip()] = model.strip()
    return out


def model_map_text(model_map: dict[str, Any]) -> str:
    if all(isinstance(v, str) for v in model_map.values()):
        return "\n".join(f"{role} = {model}" for role, model in model_map.items())
    return json.dumps(model_map, indent=2, ensure_ascii=False)


def form_values(b: llm.Backend) -> dict[str, Any]:
    return {
        "name": b.name,
        "kind": b.kind,
        "base_url": b.base_url,
        "roles": list(b.roles),
        "model_map": model_map_text(b.model_map),
        "priority": str(b.priority),
        "trust": b.trust,
        "secret": b.secret or "",
        "enabled": b.enabled,
        "description": b.description,
    }


def newly_seen(old: str, new: str) -> list[str]:
    """The sensitivities a backend at trust ``new`` sees that one at ``old`` did not."""
    return [s for s in SEES.get(new, []) if s not in SEES.get(old, [])]


def backend_rows(app: App) -> list[dict[str, Any]]:
    cooldowns = app.backends.cooldowns()
    with app.connection() as conn:
        rows = llm.list_backends(conn)
        day = llm.log_summary(conn)
    out = []
    for b in rows:
        mine = [r for r in day if r["backend"] == b.name]
        out.append(
            {
                **b.as_json(),
                "model_map_text": model_map_text(b.model_map),
                "cooldown": cooldowns.get(b.name),
                "calls": sum(int(r["calls"]) for r in mine),
                "failures": sum(int(r["failures"]) for r in mine),
            }
        )
    return out


def list_page(
    request: Request, app: App, *, saved: str = "", tested: dict[str, Any] | None = None
) -> HTMLResponse:
    rows = backend_rows(app)
    return render(
        request,
        "admin/backends.html",
        {
            "backends": rows,
            # only a name that exists: a crafted link cannot announce a save that never was
            "saved": saved if saved in {r["name"] for r in rows} else "",
            "tested": tested or {},
        },
    )


def form_page(
    request: Request,
    app: App,
    values: dict[str, Any],
    *,
    editing: str | None = None,
    error: str | None = None,
    field: str | None = None,
    elevation: list[str] | None = None,
    status: int = 200,
) -> HTMLResponse:
    with app.connection() as conn:
        secrets = [s["name"] for s in access.list_secrets(conn)]
    return render(
        request,
        "admin/backend_form.html",
        {
            "v": values,
            "editing": editing,
            "error": error,
            "field": field,
            "elevation": elevation,
            "kinds": llm.installed_kinds(app),
            "roles": llm.ROLES,
            "trusts": [(t, SEES[t]) for t in llm.TRUST_LEVELS],
            "secrets": secrets,
        },
        status=status,
    )


@router.get("/admin/backends", name="web-admin-backends")
def backends_list(
    request: Request, app: WebAppDep, _: AdminUserDep, saved: str = ""
) -> HTMLResponse:
    return list_page(request, app, saved=saved[:64])


@router.get("/admin/backends/new", name="web-admin-backends-new")
def backends_new(request: Request, app: WebAppDep, _: AdminUserDep) -> HTMLResponse:
    names = [k["name"] for k in llm.installed_kinds(app)]
    values = {**BackendForm().values, "enabled": True}
    values["kind"] = "openai" if "openai" in names else next(iter(names), "")
    return form_page(request, app, values)


def refused_elevation(form: BackendForm, old_trust: str) -> list[str] | None:
    """What the backend would newly see, when that has not been confirmed; else None."""
    seen = newly_seen(old_trust, form.values["trust"])
    if seen and form.elevate != form.values["trust"]:
        return seen
    return None


@router.post("/admin/backends", name="web-admin-backends-create")
def backends_create(
    request: Request, app: WebAppDep, who: AdminUserDep, form: BackendFormDep
) -> Response:
    name = form.values["name"]
    try:
        data = form.fields()
        elevation = refused_elevation(form, "public")  # a new row starts from the least trust
        if elevation is not None:
            return form_page(request, app, form.values, elevation=elevation, status=422)
        if not data["secret"]:
            data.pop("secret")
        app.backends.create(name, data, by=f"web:{who.name}")
    except (ValidationError, Conflict) as exc:
        return form_page(
            request, app, form.values, error=exc.message, field=exc.field, status=exc.status_code
        )
    return done(request, f"/admin/backends?saved={name}")


@router.get("/admin/backends/{backend}/edit", name="web-admin-backends-edit")
def backends_edit(request: Request, backend: str, app: WebAppDep, _: AdminUserDep) -> HTMLResponse:
    with app.connection() as conn:
        row = llm.get_backend(conn, backend)
    return form_page(request, app, form_values(row), editing=backend)


@router.post("/admin/backends/{backend}/edit", name="web-admin-backends-update")
def backends_update(
    request: Request, backend: str, app: WebAppDep, who: AdminUserDep, form: BackendFormDep
) -> Response:
    with app.connection() as conn:
        current = llm.get_backend(conn, backend)
    form.values["name"] = backend
    try:
        data = form.fields()
        elevation = refused_elevation(form, current.trust)
        if elevation is not None:
            return form_page(
                request, app, form.values, editing=backend, elevation=elevation, status=422
            )
        app.backends.update(backend, data, by=f"web:{who.name}")
    except ValidationError as exc:
        return form_page(
            request,
            app,
            form.values,
            editing=backend,
            error=exc.message,
            field=exc.field,
            status=422,
        )
    return done(request, f"/admin/backends?saved={backend}")


@router.post("/admin/backends/{backend}/delete", name="web-admin-backends-delete")
def backends_delete(
    request: Request,
    backend: str,
    app: WebAppDep,
    _: AdminUserDep,
    confirm: Annotated[str, Form()] = "",
) -> Response:
    with app.connection() as conn:
        llm.get_backend(conn, backend)  # 404 page for an unknown backend, before asking
    if not confirmed(confirm):
        return confirm_page(
            request,
            title=f"Delete backend {backend}?",
            message=f"ctx stops sending model calls to {backend}. Its log rows stay.",
            action=f"/admin/backends/{backend}/delete",
            button="Delete backend",
            back="/admin/backends",
        )
    app.backends.delete(backend)
    return done(request, "/admin/backends")


@router.post("/admin/backends/{backend}/test", name="web-admin-backends-test")
def backends_test(request: Request, backend: str, app: WebAppDep, _: AdminUserDep) -> Response:
    """One real request per role of the backend (as ``ctx backends test``); a failure is a
    result shown in the page, not an error status."""
    with app.connection() as conn:
        row = llm.get_backend(conn, backend)
    results = llm.probe_backend(app, row)
    if is_htmx(request):
        return render(request, "admin/_backend_test.html", {"results": results, "name": backend})
    return list_page(request, app, tested={backend: results})
