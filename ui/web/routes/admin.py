"""Administration pages (admin keys only): the index, plugins and the model call log here; the
sections with forms live in ``admin_*`` modules whose routers this one includes."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse

from ctx.core import App, access, llm
from ctx.core.blocks import load_types
from ctx.ui.web.deps import AdminUserDep, WebAppDep
from ctx.ui.web.render import render
from ctx.ui.web.routes import (
    admin_backends,
    admin_keys,
    admin_secrets,
    admin_settings,
    admin_types,
)

router = APIRouter(include_in_schema=False)
for section in (admin_settings, admin_backends, admin_secrets, admin_types, admin_keys):
    router.include_router(section.router)

LOG_PAGE = 50


def summary(app: App) -> dict[str, Any]:
    """The figures the index shows beside each section."""
    described = app.settings.describe()
    with app.connection() as conn:
        secrets = access.list_secrets(conn)
        keys = access.list_keys(conn)
        types = load_types(conn)
        calls = llm.log_summary(conn)
    return {
        "settings": len(described),
        "stored": sum(1 for s in described if s["source"] == "database"),
        "backends": len(app.backends.backends()),
        "secrets": len(secrets),
        "types": len(types),
        "api_keys": len(keys),
        "admins": sum(1 for k in keys if k["is_admin"]),
        "plugins": len(app.host.infos()),
        "calls": sum(int(r["calls"]) for r in calls),
        "failures": sum(int(r["failures"]) for r in calls),
    }


@router.get("/admin", name="web-admin")
def admin_index(request: Request, app: WebAppDep, _: AdminUserDep) -> HTMLResponse:
    return render(request, "admin/index.html", {"n": summary(app)})


@router.get("/admin/plugins", name="web-admin-plugins")
def plugins(request: Request, app: WebAppDep, _: AdminUserDep) -> HTMLResponse:
    infos = sorted(app.host.infos(), key=lambda p: (p.source != "core", p.name))
    return render(request, "admin/plugins.html", {"plugins": infos})


@router.get("/admin/llmlog", name="web-admin-llmlog")
def llmlog(
    request: Request,
    app: WebAppDep,
    _: AdminUserDep,
    role: Annotated[str, Query(max_length=32)] = "",
    backend: Annotated[str, Query(max_length=64)] = "",
    outcome: Annotated[str, Query(max_length=16)] = "",
    before: Annotated[int | None, Query(ge=1)] = None,
) -> HTMLResponse:
    """The calls newest first, ``before`` paging to older ones (by id), and the last 24 hours
    per backend and role. Request and answer text are there only while ``llm.log_content`` was
    on when the call was made (``record_call`` decides)."""
    llm.check_log_filters(role or None, outcome or None)
    with app.connection() as conn:
        calls = llm.read_log(
            conn,
            limit=LOG_PAGE + 1,  # one more tells whether an older page exists
            role=role or None,
            backend=backend or None,
            outcome=outcome or None,
            before=before,
        )
        per_backend = llm.log_summary(conn)
    more = len(calls) > LOG_PAGE
    calls = calls[:LOG_PAGE]
    for call in calls:  # the request as readable JSON (the page escapes it like any text)
        if "request" in call:
            call["request_text"] = json.dumps(
                call["request"], indent=2, ensure_ascii=False, default=str
            )
    filters = {"role": role, "backend": backend, "outcome": outcome}
    return render(
        request,
        "admin/llmlog.html",
        {
            "calls": calls,
            "summary": per_backend,
            "filters": filters,
            "query": {k: v for k, v in filters.items() if v},
            "before": before,
            "older": calls[-1]["id"] if more and calls else None,
            "roles": llm.ROLES,
            "outcomes": llm.OUTCOMES,
            "backends": sorted({b.name for b in app.backends.backends()} | ({backend} - {""})),
            "log_content": bool(app.settings["llm.log_content"]),
        },
    )
