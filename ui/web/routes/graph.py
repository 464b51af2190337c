"""Workbench pages: the graph. A block's ego network and the cluster overview.

The page itself is a list of the focus block's neighbours and links and of the clusters, so it
reads without JavaScript (and by screen readers); graph.js draws the same data with sigma.js
from the JSON under ``/graph/data/``, which calls the same core functions as the REST API's
``/api/graph/ego`` and ``/api/graph/overview``. Titles only, never content, and only blocks in
the key's read scopes (the core functions see to both).

The data endpoints are page paths (the session cookie signs them in), where errors would come
back as HTML pages; a script wants JSON, so they answer their own errors as ``{error, message}``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.encoders import jsonable_encoder
from fastapi.responses import HTMLResponse, JSONResponse
from starlette.concurrency import run_in_threadpool

from ctx.core import CtxError, Principal, ValidationError, graph
from ctx.ui.api.marks import charges
from ctx.ui.web.deps import SignInRequired, UserDep, WebAppDep, checked_user, current_user
from ctx.ui.web.render import render

router = APIRouter(include_in_schema=False)

MAX_DEPTH = 3
MAX_CAP = 1000  # the core's own ceiling for one neighbourhood
DEFAULT_CAP = 200
MAX_CLUSTERS = 500
MAX_TITLES = 20


def _int(raw: object, name: str, default: int, low: int, high: int) -> int:
    if raw is None or raw == "":
        return default
    try:
        value = int(str(raw))
    except ValueError:
        raise ValidationError(f"{name} must be a whole number", field=name) from None
    if not low <= value <= high:
        raise ValidationError(f"{name} must be {low} to {high}", field=name)
    return value


def _focus(raw: object) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise ValidationError("focus must be a block id or prefix", field="focus")
    return raw.strip()[:36]


def _json_error(exc: CtxError | SignInRequired) -> JSONResponse:
    if isinstance(exc, SignInRequired):
        body = {"error": "unauthorized", "message": "your session ended: sign in again"}
        return JSONResponse(body, status_code=401)
    body = {"error": exc.code, "message": exc.message}
    if exc.field:
        body["field"] = exc.field
    return JSONResponse(body, status_code=exc.status_code)


def _json(data: dict[str, Any]) -> JSONResponse:
    return JSONResponse(jsonable_encoder(data), headers={"cache-control": "no-store"})


def _links(ego: dict[str, Any]) -> list[dict[str, Any]]:
    """The ego network's edges with both ends' titles, for the textual list."""
    titles = {n["id"]: n["title"] for n in ego["nodes"]}
    return [
        {**e, "source_title": titles[e["source"]], "target_title": titles[e["target"]]}
        for e in ego["edges"]
    ]


@router.get("/graph", name="web-graph")
def graph_page(
    request: Request,
    app: WebAppDep,
    who: UserDep,
    focus: Annotated[str | None, Query(max_length=36)] = None,
    depth: Annotated[int, Query(ge=1, le=MAX_DEPTH)] = 1,
    cap: Annotated[int, Query(ge=1, le=MAX_CAP)] = DEFAULT_CAP,
) -> HTMLResponse:
    """The focus block's neighbourhood (when a focus is given) and the clusters."""
    ego = None
    if focus is not None and focus.strip():
        ego = graph.ego(app, who, focus.strip(), depth=depth, limit=cap)  # unknown: a 404 page
    overview = graph.overview(app, who, max_clusters=50, titles_per_cluster=5)
    focused = next((n for n in ego["nodes"] if n["id"] == ego["focus"]), None) if ego else None
    return render(
        request,
        "graph/index.html",
        {
            "ego": ego,
            "focused": focused,
            "links": _links(ego) if ego else [],
            "overview": overview,
            "depth": depth,
            "cap": cap,
        },
    )


@router.get("/graph/data/ego", name="web-graph-ego")
def graph_ego_data(request: Request, app: WebAppDep) -> JSONResponse:
    """The neighbourhood of ``focus`` as JSON (``depth`` 1-3 hops, at most ``cap`` nodes)."""
    q = request.query_params
    try:
        who = current_user(request)
        cap = _int(q.get("cap"), "cap", DEFAULT_CAP, 1, MAX_CAP)
        depth = _int(q.get("depth"), "depth", 1, 1, MAX_DEPTH)
        out = graph.ego(app, who, _focus(q.get("focus")), depth=depth, limit=cap)
    except (CtxError, SignInRequired) as exc:
        return _json_error(exc)
    return _json({**out, "cap": cap, "evicted": []})


def _grow(app: Any, who: Principal, body: object) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise ValidationError("send a JSON object: {focus, depth, cap, keep}", field="body")
    keep = body.get("keep") or []
    if not isinstance(keep, list) or not all(isinstance(k, str) for k in keep):
        raise ValidationError("keep must be a list of block ids", field="keep")
    return graph.explore(
        app,
        who,
        _focus(body.get("focus")),
        keep,
        depth=_int(body.get("depth"), "depth", 1, 1, MAX_DEPTH),
        cap=_int(body.get("cap"), "cap", DEFAULT_CAP, 1, MAX_CAP),
    )


@router.post("/graph/data/ego", name="web-graph-grow")
@charges("read")
async def graph_grow_data(request: Request, app: WebAppDep) -> JSONResponse:
    """A new focus grown onto the blocks shown now (``keep``): JSON ``{focus, depth, cap,
    keep}`` in, the merged neighbourhood out, the farthest and most weakly linked nodes evicted
    past ``cap``. A read, but with a body too long for a query string; the CSRF token comes in
    the ``X-CSRF-Token`` header."""
    try:
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":  # a form's body would be read by the CSRF check first
            raise ValidationError(
                "send the body as JSON (Content-Type: application/json)", field="body"
            )
        who = await checked_user(request, await run_in_threadpool(current_user, request))
        try:
            body = await request.json()
        except ValueError:
            raise ValidationError("the body must be JSON", field="body") from None
        out = await run_in_threadpool(_grow, app, who, body)
    except (CtxError, SignInRequired) as exc:
        return _json_error(exc)
    return _json(out)


@router.get("/graph/data/overview", name="web-graph-overview")
def graph_overview_data(request: Request, app: WebAppDep) -> JSONResponse:
    """The clusters of the key's read scopes and the links between them, as JSON."""
    q = request.query_params
    try:
        who = current_user(request)
        out = graph.overview(
            app,
            who,
            max_clusters=_int(q.get("clusters"), "clusters", 50, 1, MAX_CLUSTERS),
            titles_per_cluster=_int(q.get("titles"), "titles", 5, 0, MAX_TITLES),
        )
    except (CtxError, SignInRequired) as exc:
        return _json_error(exc)
    return _json(out)
