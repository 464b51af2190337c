"""Workbench pages: eval. The marks of the scopes the key reads (each can be removed), a form that
replays them with the current settings and, when given, a candidate set of retrieval settings,
and the figures side by side; the same calls as ``GET /api/eval/marks``, ``POST /api/eval`` and
``DELETE /api/eval/marks/{id}``. The Ask page's buttons post a mark here (``/eval/mark``).

``GET /eval`` is the page; with ``run=1`` it replays (bookmarkable, no JavaScript needed) and an
htmx request aimed at ``#eval-figures`` gets the figures alone. Without JavaScript a post comes
back with a redirect (303).
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Form, Path, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import ValidationError as PydanticError

from ctx.core import App, CtxError, Principal, evaluation
from ctx.core.validation import error_message
from ctx.ui.web.deps import UserDep, WebAppDep
from ctx.ui.web.render import render

router = APIRouter(include_in_schema=False)

FIGURES_TARGET = "eval-figures"
MARKS_SHOWN = 200
METRICS = ("r@1", "r@5", "r@10", "mrr")


def _htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def _problem(exc: PydanticError) -> str:
    first = dict(exc.errors()[0])
    where = ".".join(str(p) for p in exc.errors()[0]["loc"])
    return f"{where}: {error_message(first)}" if where else error_message(first)


def figures(app: App, who: Principal, scope: str, settings: str) -> dict[str, Any]:
    """The replay's context: its result, or the form's problem."""
    context: dict[str, Any] = {"result": None, "error": None, "metrics": METRICS}
    try:
        pairs = evaluation.setting_pairs(settings.splitlines())
        req = evaluation.EvalRequest.model_validate({"scope": scope or None, "settings": pairs})
        context["result"] = evaluation.evaluate(app, who, req)
    except PydanticError as exc:
        context["error"] = _problem(exc)
    except CtxError as exc:
        context["error"] = exc.message
    return context


@router.get("/eval", name="web-eval")
def eval_page(
    request: Request,
    app: WebAppDep,
    who: UserDep,
    run: Annotated[bool, Query()] = False,
    scope: Annotated[str, Query(max_length=50)] = "",
    settings: Annotated[str, Query(max_length=4000)] = "",
    done: Annotated[str, Query(max_length=20)] = "",
) -> HTMLResponse:
    """The marks, the form and (with ``run``) the figures."""
    context: dict[str, Any] = {"result": None, "error": None, "metrics": METRICS}
    if run:
        context = figures(app, who, scope, settings)
    status = 422 if context["error"] else 200
    if request.headers.get("hx-target") == FIGURES_TARGET:
        return render(request, "eval/_figures.html", context, status=status)
    listed = evaluation.marks(app, who, evaluation.MarksRequest(limit=MARKS_SHOWN))
    context.update(
        marks=listed,
        scope=scope,
        settings=settings,
        scopes=list(who.read_scopes),
        most=evaluation.MAX_QUESTIONS,
        notice={"deleted": "Mark removed.", "marked": "Mark saved."}.get(done),
    )
    return render(request, "eval/index.html", context, status=status)


@router.post("/eval/mark", name="web-eval-mark")
def mark(
    request: Request,
    app: WebAppDep,
    who: UserDep,
    question: Annotated[str, Form(max_length=4000)],
    id: Annotated[str, Form(max_length=36)],
    verdict: Annotated[str, Form(max_length=20)] = "answered",
) -> Response:
    """Mark a source of the Ask page as answering its question, or not."""
    context: dict[str, Any] = {"source_id": id, "question": question, "mark": None, "error": None}
    status = 200
    try:
        req = evaluation.MarkRequest.model_validate(
            {"question": question, "id": id, "verdict": verdict}
        )
        context["mark"] = evaluation.mark(app, who, req)
    except PydanticError as exc:
        context["error"], status = _problem(exc), 422
    except CtxError as exc:
        context["error"], status = exc.message, exc.status_code
    if not _htmx(request):
        if context["error"]:
            return render(request, "eval/_mark.html", context, status=status)
        return RedirectResponse("/ask?" + urlencode({"q": question}), status_code=303)
    return render(request, "eval/_mark.html", context, status=status)


@router.post("/eval/marks/{mark_id}/delete", name="web-eval-unmark")
def unmark(
    request: Request,
    app: WebAppDep,
    who: UserDep,
    mark_id: Annotated[int, Path(ge=1, le=2**63 - 1)],
) -> Response:
    """Remove a mark; htmx swaps its row for nothing."""
    evaluation.unmark(app, who, evaluation.UnmarkRequest(id=mark_id))
    if not _htmx(request):
        return RedirectResponse("/eval?" + urlencode({"done": "deleted"}), status_code=303)
    return HTMLResponse("")
