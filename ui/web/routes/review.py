"""Workbench pages: review. The Guard's flagged pairs and Dream's recent links, each with its
actions, through the same core functions as ``POST /api/guard/resolve`` and
``POST /api/dream/links/{id}``; those see to it that only items whose both blocks the key reads
are listed or touched.

Each item is a partial (``review/_flag.html``, ``review/_link.html``) that htmx swaps alone with
the outcome; without JavaScript a post comes back to ``/review`` (303) with the outcome named
there. Archiving, merging and deleting a link cannot be taken back from this page, so they ask
first: htmx through ``hx-confirm`` (sending ``confirm=yes``), a plain form through a
confirmation page.
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Form, Path, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ctx.core import App, CtxError, NotFound, Principal, ValidationError, blocks, graph, guard
from ctx.ui.web.deps import UserDep, WebAppDep
from ctx.ui.web.render import render

router = APIRouter(include_in_schema=False)

FLAGS_SHOWN = 25
LINKS_SHOWN = 50
SNIPPET = 400
#: The buttons of a flag: (resolution, which) for ``guard.resolve_flag``.
ACTIONS = {
    "keep_both": ("keep_both", "block"),
    "archive_block": ("archive", "block"),
    "archive_match": ("archive", "match"),
    "merge_into_block": ("merge", "block"),
    "merge_into_match": ("merge", "match"),
    "unlink": ("unlink", "block"),
}
#: Actions that change nothing that cannot be set again: no confirmation asked.
UNASKED = ("keep_both", "unlink")
LINK_ACTIONS = ("confirm", "delete")


def _htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def _snippet(app: App, who: Principal, block_id: str) -> str:
    """The start of a block's content (plain text, escaped by the template)."""
    try:
        content = str(blocks.get_block(app, who, block_id)["content"])
    except CtxError:
        return ""
    return content if len(content) <= SNIPPET else content[:SNIPPET].rstrip() + "…"


def _with_snippets(app: App, who: Principal, flag: dict[str, Any]) -> dict[str, Any]:
    return {
        **flag,
        "snippet": _snippet(app, who, flag["block_id"]),
        "match_snippet": _snippet(app, who, flag["match_id"]),
    }


def _find_flag(app: App, who: Principal, block_id: str) -> dict[str, Any]:
    """The open flag of ``block_id`` among those the key may see."""
    for flag in guard.list_flags(app, who, limit=200):
        if flag["block_id"] == block_id:
            return flag
    raise NotFound("this Guard flag is not open any more (or not in your scopes)")


def _find_link(app: App, who: Principal, link_id: int) -> dict[str, Any] | None:
    return next((x for x in graph.list_links(app, who, limit=200) if x["id"] == link_id), None)


def _outcome(flag: dict[str, Any], action: str) -> str:
    """What a resolution did, in words, with the titles of the blocks."""
    block, match = f"“{flag['title']}”", f"“{flag['match_title']}”"
    return {
        "keep_both": "Kept both blocks.",
        "archive_block": f"Archived {block} (the flagged block); {match} stays.",
        "archive_match": f"Archived {match}; {block} stays.",
        "merge_into_block": f"Merged {match} into {block} and archived it.",
        "merge_into_match": f"Merged {block} into {match} and archived it.",
        "unlink": f"Unlinked {block} from {match}; both stay, neither replaces the other.",
    }[action]


NOTICES = {
    "keep_both": "Kept both blocks.",
    "archive_block": "Archived the flagged block.",
    "archive_match": "Archived the block it resembled.",
    "merge_into_block": "Merged the pair into the flagged block.",
    "merge_into_match": "Merged the pair into the block it resembled.",
    "unlink": "Undid the update: both blocks stay, unlinked.",
    "confirm": "Confirmed the link.",
    "delete": "Deleted the link; Dream will not make it again.",
}


@router.get("/review", name="web-review")
def review_page(
    request: Request, app: WebAppDep, who: UserDep, done: str | None = None
) -> HTMLResponse:
    """The open Guard flags and Dream's live links, newest first."""
    flags = [_with_snippets(app, who, f) for f in guard.list_flags(app, who, limit=FLAGS_SHOWN)]
    links = graph.list_links(app, who, limit=LINKS_SHOWN)
    return render(
        request,
        "review/index.html",
        {"flags": flags, "links": links, "notice": NOTICES.get(done or "")},
    )


def _confirm_page(request: Request, context: dict[str, Any]) -> HTMLResponse:
    """The no-JavaScript confirmation step (htmx asks with ``hx-confirm`` instead; should an
    htmx post come without ``confirm``, the page replaces the main area)."""
    headers = {"HX-Retarget": "#main", "HX-Reswap": "innerHTML"} if _htmx(request) else None
    context = {"flag": None, "link": None, **context}
    return render(request, "review/confirm.html", context, headers=headers)


def _flag_item(
    request: Request,
    flag_id: str,
    flag: dict[str, Any] | None,
    *,
    outcome: str | None = None,
    error: str | None = None,
    status: int = 200,
) -> HTMLResponse:
    """The flag's partial, for htmx to swap in place of the item."""
    context = {"flag_id": flag_id, "flag": flag, "outcome": outcome, "error": error}
    return render(request, "review/_flag.html", context, status=status)


@router.post("/review/guard/resolve", name="web-review-resolve")
def resolve(
    request: Request,
    app: WebAppDep,
    who: UserDep,
    id: Annotated[str, Form(min_length=36, max_length=36)],
    action: Annotated[str, Form(max_length=20)],
    confirm: Annotated[str, Form(max_length=10)] = "",
) -> Response:
    """Keep both, archive one, merge one into the other, or unlink an update."""
    if action not in ACTIONS:
        raise ValidationError(f"action must be one of {', '.join(ACTIONS)}", field="action")
    try:
        flag = _with_snippets(app, who, _find_flag(app, who, id))
    except CtxError as exc:
        if not _htmx(request):
            raise
        return _flag_item(request, id, None, error=exc.message, status=exc.status_code)
    if action not in UNASKED and confirm != "yes":
        return _confirm_page(request, {"flag": flag, "action": action,
                                       "outcome": _outcome(flag, action)})  # fmt: skip
    resolution, which = ACTIONS[action]
    try:
        guard.resolve_flag(app, who, id, resolution, which)
    except CtxError as exc:
        if not _htmx(request):
            raise
        return _flag_item(request, id, flag, error=exc.message, status=exc.status_code)
    if not _htmx(request):
        return RedirectResponse("/review?" + urlencode({"done": action}), status_code=303)
    return _flag_item(request, id, flag, outcome=_outcome(flag, action))


@router.post("/review/dream/{link_id}", name="web-review-link")
def review_link(
    request: Request,
    app: WebAppDep,
    who: UserDep,
    link_id: Annotated[int, Path(ge=1, le=2**63 - 1)],
    action: Annotated[str, Form(max_length=10)],
    confirm: Annotated[str, Form(max_length=10)] = "",
) -> Response:
    """Confirm a link, or delete it (kept as rejected, so Dream does not make it again)."""
    if action not in LINK_ACTIONS:
        raise ValidationError("action must be confirm or delete", field="action")
    link = _find_link(app, who, link_id)
    if action == "delete" and confirm != "yes":
        if link is None:
            raise NotFound(f"no link {link_id} in your scopes")
        return _confirm_page(request, {"link": link, "action": action})
    try:
        result = graph.review_link(app, who, link_id, action)
    except CtxError as exc:
        if not _htmx(request) or link is None:
            raise
        return render(request, "review/_link.html", {"link": link, "outcome": None,
                      "error": exc.message}, status=exc.status_code)  # fmt: skip
    if not _htmx(request):
        return RedirectResponse("/review?" + urlencode({"done": action}) + "#dream", 303)
    shown = {**(link or {"id": link_id}), "status": result["status"]}
    said = "Confirmed." if action == "confirm" else "Deleted: Dream will not make it again."
    return render(request, "review/_link.html", {"link": shown, "outcome": said, "error": None})
