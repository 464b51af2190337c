"""Workbench pages: blocks. Search and browse with facets, a detail panel, and the forms that
create, edit, archive and delete, all over the same core calls as ``/api/store``, ``/api/search``
and ``/api/manage``.

htmx swaps only what changed: a search or a page of results answers with ``_results.html`` when
it targets ``#results``, a block opened from the list answers with ``_detail.html`` when it
targets ``#detail``; any other request (a plain link, a reload, a history restore) gets the page.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ctx.core import App, CtxError, Forbidden, NotFound, Principal, ValidationError, blocks, graph
from ctx.core.blocks import (
    SENSITIVITIES,
    BlockChanges,
    BrowseRequest,
    ManageRequest,
    SearchRequest,
    StoreRequest,
    VersionsRequest,
)
from ctx.ui.web.deps import UserDep, WebAppDep
from ctx.ui.web.render import render, swaps_region
from ctx.ui.web.routes.blocks_view import (
    GUARD_BADGES,
    BlockForm,
    Filters,
    FormDep,
    content_html,
    highlighted,
    past_versions,
    valid,
    writable_types,
)

router = APIRouter(include_in_schema=False)

PAGE_SIZE = 20
SEARCH_LIMIT = 50
VERSIONS = 20  # the current one and the newest past ones the page shows
ID_CHARS = frozenset("0123456789abcdefABCDEF-")
CHANGED = "blocksChanged"  # the event that makes the result list refresh itself


# -- helpers ---------------------------------------------------------------------------------------


def _go(request: Request, url: str) -> Response:
    """After a change: a redirect, or for htmx a client-side navigation of the main area."""
    if request.headers.get("hx-request") == "true":
        location = json.dumps({"path": url, "target": "#main"})
        return Response(status_code=200, headers={"HX-Location": location})
    return RedirectResponse(url, status_code=303)


def _block(app: App, who: Principal, ident: str) -> dict[str, Any]:
    """A readable block by id or unique prefix; anything else is a 404 page."""
    if not 4 <= len(ident) <= 36 or not set(ident) <= ID_CHARS:
        raise NotFound(f"there is no block {ident!r}")
    block: dict[str, Any] = blocks.manage(app, who, ManageRequest(action="get", id=ident))["block"]
    return block


def _editable(who: Principal, block: dict[str, Any]) -> bool:
    return bool(block["scope"] == who.home_scope)


# -- browsing --------------------------------------------------------------------------------------


def _search(app: App, who: Principal, f: Filters) -> dict[str, Any]:
    """Full-text hits (best first) with the facets applied, shown with the listing's columns."""
    req = valid(
        SearchRequest,
        {
            "query": f.q,
            # the type facet is applied to the hits, so ask for more when it is set
            "limit": 100 if f.type else SEARCH_LIMIT,
            "category": f.category or None,
            "tags": [f.tag] if f.tag else [],
            "scopes": [f.scope] if f.scope else None,
        },
    )
    hits = blocks.search_blocks(app, who, req)
    rows = blocks.block_summaries(app, who, [h["id"] for h in hits])
    found = []
    for hit in hits:
        row = rows.get(hit["id"])
        if row is None or (f.type and row["block_type"] != f.type):
            continue
        snippet = highlighted(hit["snippet"], f.q)
        found.append({**row, "snippet": snippet, "score": hit["score"]})
    return {"rows": found[:SEARCH_LIMIT], "older": None, "newer": None}


def _browse(app: App, who: Principal, f: Filters) -> dict[str, Any]:
    req = valid(
        BrowseRequest,
        {
            "limit": PAGE_SIZE,
            "before": f.before or None,
            "after": f.after or None,
            "category": f.category or None,
            "tag": f.tag or None,
            "scope": f.scope or None,
            "block_type": f.type or None,
            "archived": f.archived,
        },
    )
    page = blocks.browse_blocks(app, who, req)
    return {"rows": page["blocks"], "older": page["older"], "newer": page["newer"]}


def _results(app: App, who: Principal, f: Filters) -> tuple[dict[str, Any], int]:
    """The result region's context and status (422 with a message for a query it cannot run)."""
    context: dict[str, Any] = {"f": f, "guard_badges": GUARD_BADGES, "search_limit": SEARCH_LIMIT}
    try:
        found = _search(app, who, f) if f.q else _browse(app, who, f)
    except ValidationError as exc:
        empty: dict[str, Any] = {"rows": [], "older": None, "newer": None}
        return {**context, **empty, "error": exc.message}, 422
    return {**context, **found, "error": None}, 200


def _facets(app: App, who: Principal, f: Filters) -> dict[str, Any]:
    """The facet options; a value the URL names but no count lists (a thread's category, say)
    stays selectable so the form shows what the list shows."""
    facets = blocks.block_facets(app, who, archived=f.archived)
    for key, chosen in (("categories", f.category), ("types", f.type), ("tags", f.tag)):
        if chosen and all(o["value"] != chosen for o in facets[key]):
            facets[key] = [{"value": chosen, "n": None}, *facets[key]]
    return facets


@router.get("/blocks", name="web-blocks")
def blocks_index(
    request: Request,
    app: WebAppDep,
    who: UserDep,
    q: str = "",
    category: str = "",
    tag: str = "",
    scope: str = "",
    block_type: Annotated[str, Query(alias="type")] = "",
    archived: str = "",
    before: str = "",
    after: str = "",
) -> HTMLResponse:
    f = Filters(
        q=q.strip(),
        category=category.strip(),
        tag=tag.strip(),
        scope=scope.strip(),
        type=block_type.strip(),
        archived=archived in ("1", "on", "true"),
        before=before,
        after=after,
    )
    if f.scope and not who.can_read(f.scope):
        raise Forbidden(f"this key cannot read scope {f.scope!r}")
    context, status = _results(app, who, f)
    if swaps_region(request, "results"):
        return render(request, "blocks/_results.html", context, status=status)
    context["facets"] = _facets(app, who, f)
    return render(request, "blocks/index.html", context, status=status)


# -- one block -------------------------------------------------------------------------------------


def _detail(app: App, who: Principal, ident: str) -> dict[str, Any]:
    block = _block(app, who, ident)
    extra = blocks.block_context(app, who, block["id"])
    links = graph.list_links(app, who, block_id=block["id"], limit=100)
    me = block["id"]
    return {
        "block": block,
        "dates": extra["dates"],
        "guard": extra["guard"],
        "guard_badges": GUARD_BADGES,
        "meta_json": json.dumps(block["metadata"], indent=2, ensure_ascii=False, default=str),
        "links_out": [k for k in links if k["source_id"] == me and k["link_type"] != "supersedes"],
        "links_in": [k for k in links if k["target_id"] == me and k["link_type"] != "supersedes"],
        # supersedes reads source -> target: the source is the newer block
        "superseded_by": [
            k for k in links if k["link_type"] == "supersedes" and k["target_id"] == me
        ],
        "supersedes": [k for k in links if k["link_type"] == "supersedes" and k["source_id"] == me],
        "editable": _editable(who, block),
        "versions": _versions(app, who, block["id"]),
        "message": None,
    }


def _versions(app: App, who: Principal, block_id: str) -> list[dict[str, Any]]:
    """The block's past versions with their diffs; none for a block only granted to the
    caller's tenant (its versions stay with its owners, as its history does)."""
    try:
        listing = blocks.block_versions(app, who, VersionsRequest(id=block_id, limit=VERSIONS))
    except NotFound:
        return []
    return past_versions(listing["versions"])


def _detail_view(
    request: Request, context: dict[str, Any], *, panel: bool, partial: bool
) -> HTMLResponse:
    """The detail as the list's side panel (headings one level down) or as its own page; as a
    ``partial`` the article alone, for a swap."""
    levels = {"level": "h2", "sub": "h3"} if panel else {"level": "h1", "sub": "h2"}
    content = content_html(context["block"]["content"], 2 if panel else 1)
    context = {**context, **levels, "view": "panel" if panel else "page", "content": content}
    name = "blocks/_detail.html" if partial else "blocks/detail.html"
    return render(request, name, context)


def _form_page(
    request: Request,
    app: App,
    who: Principal,
    form: BlockForm,
    block: dict[str, Any] | None,
    *,
    error: str | None = None,
    warn_lower: bool = False,
    warn_replace: str | None = None,
    status: int = 200,
) -> HTMLResponse:
    action = f"/blocks/{block['id']}" if block else "/blocks"
    return render(
        request,
        "blocks/form.html",
        {
            "form": form,
            "block": block,
            "action": action,
            "types": writable_types(app, block["block_type"] if block else None),
            "sensitivities": SENSITIVITIES,
            "home": who.home_scope,
            "error": error,
            "warn_lower": warn_lower,
            "warn_replace": warn_replace,
        },
        status=status,
    )


def _check_type(app: App, form: BlockForm, current: str | None) -> None:
    names = [s.name for s in writable_types(app, current)]
    if form.block_type not in names:
        raise ValidationError(
            f"block type {form.block_type!r} is not one you can pick here: choose one of "
            + ", ".join(names),
            field="block_type",
        )


def _refused(exc: CtxError) -> int:
    return exc.status_code if 400 <= exc.status_code < 500 else 422


@router.get("/blocks/new", name="web-block-new")
def new_block(request: Request, app: WebAppDep, who: UserDep) -> HTMLResponse:
    return _form_page(request, app, who, BlockForm(), None)


@router.post("/blocks", name="web-block-create")
def create_block(
    request: Request,
    app: WebAppDep,
    who: UserDep,
    form: FormDep,
    replace: Annotated[str, Form()] = "",
) -> Response:
    try:
        _check_type(app, form, None)
        req = valid(StoreRequest, form.values())
        existing = blocks.block_at_key(app, who, req.category, req.title)
        if existing and replace != existing:
            return _form_page(request, app, who, form, None, warn_replace=existing, status=409)
        done = blocks.store_block(app, who, req)
    except CtxError as exc:
        return _form_page(request, app, who, form, None, error=exc.message, status=_refused(exc))
    return _go(request, f"/blocks/{done['id']}")


@router.get("/blocks/{ident}", name="web-block")
def block_page(request: Request, app: WebAppDep, who: UserDep, ident: str) -> HTMLResponse:
    panel = swaps_region(request, "detail")
    return _detail_view(request, _detail(app, who, ident), panel=panel, partial=panel)


@router.get("/blocks/{ident}/edit", name="web-block-edit")
def edit_block(request: Request, app: WebAppDep, who: UserDep, ident: str) -> HTMLResponse:
    block = _block(app, who, ident)
    if not _editable(who, block):
        raise Forbidden(f"this key edits only blocks of its home scope {who.home_scope!r}")
    return _form_page(request, app, who, BlockForm.of(block), block)


def _changes(block: dict[str, Any], form: BlockForm) -> dict[str, Any]:
    """The fields the form changes, as typed (validated as a whole first, so a mistake in an
    unchanged field cannot hide)."""
    typed = form.values()
    if typed["sensitivity"] is None:
        typed["sensitivity"] = block["sensitivity"]
    full = valid(BlockChanges, typed)
    return {k: v for k, v in typed.items() if getattr(full, k) != block[k]}


@router.post("/blocks/{ident}", name="web-block-update")
def update_block(
    request: Request,
    app: WebAppDep,
    who: UserDep,
    ident: str,
    form: FormDep,
    confirm_lower: Annotated[str, Form()] = "",
) -> Response:
    block = _block(app, who, ident)
    if not _editable(who, block):
        raise Forbidden(f"this key edits only blocks of its home scope {who.home_scope!r}")
    try:
        _check_type(app, form, block["block_type"])
        changed = _changes(block, form)
        if not changed:
            return _go(request, f"/blocks/{block['id']}")
        lower = changed.get("sensitivity")
        if (
            lower is not None
            and SENSITIVITIES.index(lower) < SENSITIVITIES.index(block["sensitivity"])
            and confirm_lower != "1"
        ):
            return _form_page(request, app, who, form, block, warn_lower=True, status=422)
        changes = valid(BlockChanges, changed)
        blocks.manage(app, who, ManageRequest(action="update", id=block["id"], changes=changes))
    except CtxError as exc:
        return _form_page(request, app, who, form, block, error=exc.message, status=_refused(exc))
    return _go(request, f"/blocks/{block['id']}")


def _set_archived(
    request: Request, app: App, who: Principal, ident: str, archive: bool, view: str
) -> Response:
    block = _block(app, who, ident)
    req = ManageRequest(action="archive" if archive else "unarchive", id=block["id"])
    blocks.manage(app, who, req)
    if request.headers.get("hx-request") != "true":
        return RedirectResponse(f"/blocks/{block['id']}", status_code=303)
    context = _detail(app, who, block["id"])
    context["message"] = (
        "Archived: it is kept but left out of every search."
        if archive
        else ("Back from the archive.")
    )
    response = _detail_view(request, context, panel=view == "panel", partial=True)
    response.headers["HX-Trigger"] = CHANGED
    return response


@router.post("/blocks/{ident}/archive", name="web-block-archive")
def archive_block(
    request: Request,
    app: WebAppDep,
    who: UserDep,
    ident: str,
    view: Annotated[str, Form()] = "page",
) -> Response:
    return _set_archived(request, app, who, ident, True, view)


@router.post("/blocks/{ident}/unarchive", name="web-block-unarchive")
def unarchive_block(
    request: Request,
    app: WebAppDep,
    who: UserDep,
    ident: str,
    view: Annotated[str, Form()] = "page",
) -> Response:
    return _set_archived(request, app, who, ident, False, view)


@router.get("/blocks/{ident}/delete", name="web-block-delete-confirm")
def confirm_delete(request: Request, app: WebAppDep, who: UserDep, ident: str) -> HTMLResponse:
    block = _block(app, who, ident)
    if not _editable(who, block):
        raise Forbidden(f"this key deletes only blocks of its home scope {who.home_scope!r}")
    return render(request, "blocks/confirm_delete.html", {"block": block})


@router.post("/blocks/{ident}/delete", name="web-block-delete")
def delete_block(request: Request, app: WebAppDep, who: UserDep, ident: str) -> Response:
    block = _block(app, who, ident)
    blocks.manage(app, who, ManageRequest(action="delete", id=block["id"]))
    return _go(request, "/blocks")
