"""What the administration pages share: reading forms, answering a finished write, confirmations.

A plain form post that worked answers with a redirect (post/redirect/get); the same post from
htmx answers with ``HX-Location``, so htmx loads the next page into ``#main`` and pushes its URL.
Destructive actions need ``confirm=yes``: without it the answer is a confirmation page, which is
the no-JavaScript path (htmx sends the field itself after ``hx-confirm``).
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ctx.core.validation import check_input
from ctx.ui.web.render import render


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def done(request: Request, url: str) -> Response:
    """After a write that worked: show ``url`` next."""
    if is_htmx(request):
        location = json.dumps({"path": url, "target": "#main"})
        return Response(status_code=200, headers={"HX-Location": location})
    return RedirectResponse(url, status_code=303)


def last(values: list[str] | None, default: str = "") -> str:
    """The last value sent for a field: a hidden ``false`` followed by a ticked checkbox's
    ``true`` is ``true``, the hidden one alone is ``false``."""
    return values[-1] if values else default


def ticked(values: list[str] | None) -> bool:
    return last(values).strip().lower() in ("true", "on", "1", "yes")


def storable(values: dict[str, Any]) -> None:
    """The rule every value entering ctx obeys (no NUL, no lone surrogate), for form fields:
    the API checks its JSON bodies the same way."""
    check_input(values)


def confirmed(confirm: str) -> bool:
    return confirm == "yes"


def confirm_page(
    request: Request,
    *,
    title: str,
    message: str,
    action: str,
    button: str,
    back: str,
    warning: str | None = None,
) -> HTMLResponse:
    """The confirmation step of a destructive action, for browsers without JavaScript."""
    return render(
        request,
        "admin/confirm.html",
        {
            "title": title,
            "message": message,
            "warning": warning,
            "action": action,
            "button": button,
            "back": back,
        },
    )
