"""Workbench pages: ask. A question runs the query path with ``explain`` (and an answer whenever
a synthesis backend exists), the same call as ``POST /api/query``; the page shows the answer with
its citations linked to their blocks, the confidence class, the time the question resolved to,
and each source's channel ranks with the stages' timings.

``GET /ask?q=`` is the plain form (bookmarkable, no JavaScript needed); ``POST /ask`` takes the
same field; an htmx request aimed at ``#ask-result`` gets the result region alone.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import HTMLResponse
from markupsafe import Markup
from pydantic import ValidationError as PydanticError

from ctx.core import App, Principal, QueryRequest, llm, query
from ctx.core.access import charge_limits
from ctx.core.retrieval import CHANNELS, asks_model
from ctx.core.temporal import resolved_window
from ctx.core.validation import error_message
from ctx.ui.api.marks import charges
from ctx.ui.web.deps import UserDep, WebAppDep
from ctx.ui.web.markdown import to_html
from ctx.ui.web.render import render

router = APIRouter(include_in_schema=False)

RESULT_TARGET = "ask-result"
CHANNEL_NAMES = tuple(c.name for c in CHANNELS)
#: code spans and fenced blocks: citation markers inside them stay as they are
CODE_RE = re.compile(r"(```.*?```|~~~.*?~~~|`[^`\n]*`)", re.DOTALL)
NUMBER_RE = re.compile(r"\[(\d{1,3})\](?![(\[])")

Resolve = Callable[[str], str | None]


def cited_html(text: str | None, pattern: re.Pattern[str], resolve: Resolve) -> Markup:
    """Markdown ``text`` as safe HTML, each citation marker that ``resolve`` maps to a block id
    turned into a link to that block (``[1]`` → ``/blocks/<id>``). The link is Markdown too, so
    the sanitiser sees it like any other."""
    if not text:
        return Markup("")

    def link(m: re.Match[str]) -> str:
        block_id = resolve(m.group(1))
        if block_id is None:
            return m.group(0)
        return f"[\\[{m.group(1)}\\]](/blocks/{block_id})"

    parts = CODE_RE.split(text)
    for i in range(0, len(parts), 2):  # odd parts are the code the split kept
        parts[i] = pattern.sub(link, parts[i])
    return to_html("".join(parts))


def answer_html(text: str | None, citations: list[dict[str, Any]] | None) -> Markup:
    """A synthesised answer with its ``[n]`` markers linked to the cited blocks."""
    numbered = {str(c["n"]): str(c["id"]) for c in citations or []}
    return cited_html(text, NUMBER_RE, numbered.get)


def _channels(source: dict[str, Any]) -> dict[str, Any]:
    """A source's explain entry split into channel ranks and the factors after fusion."""
    raw = source.get("channels") or {}
    ranks = {name: raw.get(name) or {} for name in CHANNEL_NAMES}
    factors = {k: v for k, v in raw.items() if k not in CHANNEL_NAMES}
    return {"ranks": ranks, "factors": factors}


def _notes(stage: dict[str, Any]) -> str:
    """A stage's notes on one line (``key=value; ...``), values as compact JSON."""
    notes = stage.get("notes") or {}
    return "; ".join(
        f"{k}={json.dumps(v, default=str, ensure_ascii=False, separators=(',', ':'))}"
        for k, v in notes.items()
    )


def ask(app: App, who: Principal, q: str) -> dict[str, Any]:
    """The page's context for question ``q``: the result, or the form's problem."""
    context: dict[str, Any] = {"q": q, "result": None, "error": None}
    if not q.strip():
        return context
    try:
        req = QueryRequest.model_validate({"query": q, "explain": True, "synthesize": "auto"})
    except PydanticError as exc:
        context["error"] = f"The question {error_message(dict(exc.errors()[0]))}."
        return context
    if asks_model(app, req):
        charge_limits(app, who, "model")
    result = query(app, who, req)
    synthesis = result.get("synthesis") or {}
    context.update(
        result=result,
        answer=answer_html(result.get("answer"), result.get("citations")),
        # "auto" asks for no answer when no backend exists: say why there is none
        skipped=synthesis.get("skipped")
        or (None if "answer" in result else llm.available(app, "synthesis")),
        failed=synthesis.get("failed"),
        when=resolved_window(result.get("temporal") or {}),
        explained=[(s, _channels(s)) for s in result["sources"]],
        channel_names=CHANNEL_NAMES,
        stages=[(st, _notes(st)) for st in result.get("stages") or []],
    )
    return context


def _page(request: Request, app: App, who: Principal, q: str) -> HTMLResponse:
    context = ask(app, who, q)
    status = 422 if context["error"] else 200
    partial = (
        request.headers.get("hx-target") == RESULT_TARGET
        and request.headers.get("hx-history-restore-request") != "true"
    )
    name = "ask/_result.html" if partial else "ask/index.html"
    return render(request, name, context, status=status)


@router.get("/ask", name="web-ask")
def ask_page(
    request: Request,
    app: WebAppDep,
    who: UserDep,
    q: Annotated[str, Query(max_length=4000)] = "",
) -> HTMLResponse:
    return _page(request, app, who, q)


@router.post("/ask", name="web-ask-post")
@charges("read")  # and a model call when it answers (charged where the answer is asked)
def ask_post(
    request: Request,
    app: WebAppDep,
    who: UserDep,
    q: Annotated[str, Form(max_length=4000)] = "",
) -> HTMLResponse:
    return _page(request, app, who, q)
