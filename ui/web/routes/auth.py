"""Signing in with an API key and out again.

The sign-in form carries a double-submit token (a cookie and a field that must agree), so a
page elsewhere cannot sign the browser in under its own key. A good key opens a session
(ctx.core.access) whose signed token goes into an HttpOnly, SameSite=Strict cookie; the key
itself is never stored in the browser. Wrong keys count per client address: over
``limits.key_guesses_per_minute`` the form answers 429 with Retry-After, for every key, until
the rate falls (``ctx.core.access.check_guesses``).
"""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import RedirectResponse, Response

from ctx.core import RateLimited, Unauthorized
from ctx.core.access import (
    check_guesses,
    close_session,
    count_guess,
    open_session,
    session_principal,
)
from ctx.ui.api.limits import client_address
from ctx.ui.web.deps import UserDep, WebAppDep
from ctx.ui.web.render import render
from ctx.ui.web.session import (
    SESSION_COOKIE,
    SIGNIN_COOKIE,
    new_signin_token,
    safe_next,
    secure_request,
    sign,
    unsign,
)

router = APIRouter(include_in_schema=False)


def _form(
    request: Request,
    next_url: str,
    error: str | None = None,
    status: int = 200,
    headers: dict[str, str] | None = None,
) -> Response:
    token = new_signin_token()
    response = render(
        request,
        "auth/signin.html",
        {"signin_token": token, "next": safe_next(next_url), "error": error},
        status=status,
        headers=headers,
    )
    response.set_cookie(
        SIGNIN_COOKIE,
        token,
        max_age=1800,
        httponly=True,
        samesite="strict",
        secure=secure_request(request),
        path="/signin",
    )
    return response


@router.get("/signin", name="web-signin")
def signin_page(request: Request, app: WebAppDep, next: str = "/") -> Response:
    token = unsign(app, request.cookies.get(SESSION_COOKIE))
    if token is not None:  # already signed in: straight on
        try:
            with app.connection() as conn:
                session_principal(conn, token)
            return RedirectResponse(safe_next(next), status_code=303)
        except Unauthorized:
            pass  # the session ended: sign in again
    return _form(request, next)


@router.post("/signin", name="web-signin-submit")
def signin(
    request: Request,
    app: WebAppDep,
    api_key: Annotated[str, Form(max_length=200)] = "",
    signin_token: Annotated[str, Form(max_length=100)] = "",
    next: Annotated[str, Form(max_length=2000)] = "/",
) -> Response:
    expected = request.cookies.get(SIGNIN_COOKIE, "")
    if not expected or not hmac.compare_digest(expected, signin_token):
        return _form(request, next, "The sign-in form expired; please try again.", status=400)
    key = api_key.strip()
    if not key:
        return _form(request, next, "Enter an API key.", status=422)
    address = client_address(request)
    try:
        check_guesses(app, address)
    except RateLimited as exc:
        wait = {"retry-after": str(exc.retry_after)}
        return _form(request, next, f"{exc.message[:1].upper()}{exc.message[1:]}.", 429, wait)
    try:
        with app.connection() as conn:
            token, _ = open_session(
                conn,
                key,
                hours=float(app.settings["web.session_hours"]),
                user_agent=request.headers.get("user-agent", ""),
            )
    except Unauthorized:
        count_guess(app, address)
        return _form(request, next, "That key is unknown or revoked.", status=401)
    response = RedirectResponse(safe_next(next), status_code=303)
    response.set_cookie(
        SESSION_COOKIE,
        sign(app, token),
        max_age=int(float(app.settings["web.session_hours"]) * 3600),
        httponly=True,
        samesite="strict",
        secure=secure_request(request),
        path="/",
    )
    response.delete_cookie(SIGNIN_COOKIE, path="/signin")
    return response


@router.post("/signout", name="web-signout")
def signout(request: Request, app: WebAppDep, _: UserDep) -> Response:
    with app.connection() as conn:
        close_session(conn, request.state.session_token)
    response: Response = RedirectResponse("/signin", status_code=303)
    if request.headers.get("hx-request") == "true":
        response = Response(status_code=200, headers={"HX-Redirect": "/signin"})
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response
