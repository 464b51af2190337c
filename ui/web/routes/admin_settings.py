"""Settings, rendered from the registry: one row per key, grouped by prefix, edited one row at a
time.

Only hot keys are edited here, and only while their value does not come from the environment:
a key read at start-up would look changed without being so, and an environment variable is the
operator's decision on that host. Writes go through the same ``set_setting``/``unset_setting``
as ``PUT``/``DELETE /api/settings/{key}``.
"""

from __future__ import annotations

from itertools import groupby
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from ctx.core import App, ValidationError
from ctx.core.runtime import set_setting, unset_setting
from ctx.ui.web.deps import AdminUserDep, WebAppDep
from ctx.ui.web.render import render
from ctx.ui.web.routes.admin_forms import done, is_htmx, last, storable

router = APIRouter(include_in_schema=False)

GROUPS_TARGET = "settings-groups"  # the element the live filter replaces


def anchor(key: str) -> str:
    """An element id for a key (dots would need escaping in CSS selectors)."""
    return "set-" + key.replace(".", "-")


def why_read_only(row: dict[str, Any]) -> str | None:
    """Why a setting cannot be changed here, or None when it can."""
    if row["source"] == "env":
        return f"Set by {row['env']} in the server's environment: change it there and restart ctx."
    if not row["hot"] and row["secret"]:
        return (
            f"Read at start-up only: set {row['env']}, or reference a sealed secret with "
            f"`ctx settings set {row['key']} secret:NAME`, then restart ctx."
        )
    if not row["hot"]:
        return (
            f"Read at start-up only: set it with `ctx settings set {row['key']} …` or "
            f"{row['env']}, then restart ctx."
        )
    return None


def setting_rows(app: App) -> list[dict[str, Any]]:
    """``Settings.describe()`` (secret values already left out) with the registry's rules."""
    rows = []
    for row in app.settings.describe():
        s = app.registry.get(row["key"])
        row.update(
            minimum=s.minimum,
            maximum=s.maximum,
            choices=list(s.choices) if s.choices else None,
            owner=app.registry.owners.get(s.key, "core"),
            env_set=s.env in app.environ,
            anchor=anchor(s.key),
            group=s.key.split(".", 1)[0],
        )
        row["read_only"] = why_read_only(row)
        rows.append(row)
    return rows


def one_row(app: App, key: str) -> dict[str, Any]:
    app.registry.get(key)  # an unknown key is a 422 naming it
    return next(r for r in setting_rows(app) if r["key"] == key)


def matches(row: dict[str, Any], q: str) -> bool:
    q = q.strip().lower()
    return not q or q in row["key"].lower() or q in row["help"].lower()


def groups(rows: list[dict[str, Any]], q: str) -> list[tuple[str, list[dict[str, Any]]]]:
    shown = [r for r in rows if matches(r, q)]
    return [(name, list(items)) for name, items in groupby(shown, key=lambda r: r["group"])]


def settings_page(
    request: Request, app: WebAppDep, q: str, marks: dict[str, dict[str, Any]], status: int = 200
) -> HTMLResponse:
    """The page, or only its groups for the live filter; ``marks`` adds an error, the value
    typed or a saved note to some rows."""
    rows = [{**r, **marks.get(r["key"], {})} for r in setting_rows(app)]
    context = {"groups": groups(rows, q), "q": q, "total": len(rows)}
    restore = request.headers.get("hx-history-restore-request") == "true"
    if request.headers.get("hx-target") == GROUPS_TARGET and not restore:
        return render(request, "admin/_settings_groups.html", context, status=status)
    return render(request, "admin/settings.html", context, status=status)


@router.get("/admin/settings", name="web-admin-settings")
def settings_list(request: Request, app: WebAppDep, _: AdminUserDep, q: str = "") -> HTMLResponse:
    return settings_page(request, app, q[:200], {})


def answer_row(
    request: Request, app: App, key: str, mark: dict[str, Any], status: int = 200
) -> Response:
    """One row for htmx; for a plain form the page (with the row's error) or a redirect."""
    if is_htmx(request):
        row = {**one_row(app, key), **mark}
        return render(request, "admin/_setting_row.html", {"s": row}, status=status)
    if status >= 400:
        return settings_page(request, app, "", {key: mark}, status=status)
    return done(request, f"/admin/settings#{anchor(key)}")


@router.post("/admin/settings/{key}", name="web-admin-settings-set")
def settings_set(
    request: Request,
    key: str,
    app: WebAppDep,
    _: AdminUserDep,
    value: Annotated[list[str] | None, Form()] = None,
) -> Response:
    row = one_row(app, key)
    typed = last(value)
    refusal = row["read_only"]
    if refusal is None:
        try:
            storable({"value": typed})
            set_setting(app, key, typed)
        except ValidationError as exc:
            refusal = exc.message
    if refusal is not None:
        return answer_row(request, app, key, {"error": refusal, "typed": typed}, status=422)
    return answer_row(request, app, key, {"saved": "Saved: in effect now."})


@router.post("/admin/settings/{key}/reset", name="web-admin-settings-reset")
def settings_reset(request: Request, key: str, app: WebAppDep, _: AdminUserDep) -> Response:
    row = one_row(app, key)
    refusal = row["read_only"]
    if refusal is None:
        try:
            unset_setting(app, key)
        except ValidationError as exc:
            refusal = exc.message
    if refusal is not None:
        return answer_row(request, app, key, {"error": refusal}, status=422)
    return answer_row(request, app, key, {"saved": "Reset: the stored value is gone."})
