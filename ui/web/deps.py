"""The workbench's request dependencies: the signed-in user, the admin gate, the CSRF check.

Pages fail closed like the API: no session means a redirect to the sign-in page (an
``HX-Redirect`` for htmx requests), a non-admin on an admin page gets a 403 page, and a
state-changing request without the session's CSRF token (form field ``csrf_token`` or header
``X-CSRF-Token``) or from another origin is refused with 403.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from ctx.core import App, Forbidden, Principal, Unauthorized
from ctx.core.access import session_principal
from ctx.ui.api.limits import charge_request
from ctx.ui.web.session import CSRF_FIELD, CSRF_HEADER, SESSION_COOKIE, csrf_ok, csrf_token, unsign

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


class SignInRequired(Exception):
    """No live session: the page handler sends the browser to /signin."""


def web_app(request: Request) -> App:
    app: App = request.app.state.ctx
    return app


def current_user(request: Request) -> Principal:
    app = web_app(request)
    token = unsign(app, request.cookies.get(SESSION_COOKIE))
    if token is None:
        raise SignInRequired()
    try:
        with app.connection() as conn:
            who = session_principal(conn, token)
    except Unauthorized:
        raise SignInRequired() from None
    request.state.user = who
    request.state.principal = who  # the middleware notes a call that wrote
    request.state.key_id = who.key_id  # the access log names the key, as for API calls
    request.state.session_token = token
    request.state.csrf = csrf_token(app, token)
    return who


def _same_origin(request: Request) -> bool:
    origin = request.headers.get("origin")
    if origin is None or origin == "null":
        # None: same-origin GETs, older browsers. "null": Chromium's same-origin form posts
        # under Referrer-Policy: no-referrer. The CSRF token decides for both.
        return True
    expected = {f"{request.url.scheme}://{request.headers.get('host', '')}"}
    public = str(web_app(request).settings["server.public_url"]).rstrip("/")
    if public:
        expected.add(public)
    return origin in expected


async def checked_user(
    request: Request, who: Annotated[Principal, Depends(current_user)]
) -> Principal:
    """The user, after the CSRF check for any state-changing method; the request counts
    against the key's rate limits like an API request (``ctx.ui.api.limits``)."""
    if request.method in SAFE_METHODS:
        charge_request(request, web_app(request), who)
        return who
    if not _same_origin(request):
        raise Forbidden("this request came from another site")
    sent = request.headers.get(CSRF_HEADER)
    if sent is None:
        kind = request.headers.get("content-type", "")
        if kind.startswith(("application/x-www-form-urlencoded", "multipart/form-data")):
            form = await request.form()
            value = form.get(CSRF_FIELD)
            sent = value if isinstance(value, str) else None
    if not csrf_ok(web_app(request), request.state.session_token, sent):
        raise Forbidden("the form's security token is missing or stale: reload the page")
    charge_request(request, web_app(request), who)
    return who


def admin_user(who: Annotated[Principal, Depends(checked_user)]) -> Principal:
    who.require_admin()
    return who


WebAppDep = Annotated[App, Depends(web_app)]
#: The signed-in user; for POST/PUT/PATCH/DELETE also CSRF-checked. Every page route uses it.
UserDep = Annotated[Principal, Depends(checked_user)]
#: An admin user (403 page otherwise), CSRF-checked like ``UserDep``.
AdminUserDep = Annotated[Principal, Depends(admin_user)]
