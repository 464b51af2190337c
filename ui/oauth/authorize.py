"""``/authorize``: the sign-in form where the user hands a client their ctx API key.

GET checks the request and shows the form; POST spends the form's single-use token and, for a
valid key, redirects to the client's registered redirect URI with a code and the unchanged
``state``. An unknown client or unregistered redirect URI gets an error page, never a redirect,
and so does any bad request of a client that registered itself (it could have registered any
address: redirecting it before the user acted would make this an open redirector).

CSRF: the form token is also set as a ``SameSite=Lax`` cookie, and a post counts only when both
agree, so a page elsewhere cannot post the form for the user. The page's CSP adds the redirect
URI's origin to ``form-action``: browsers apply it to the redirect that follows the post.

Wrong keys count per client address, as on the workbench's sign-in: over
``limits.key_guesses_per_minute`` the form comes back with 429 and Retry-After, for every key,
until the rate falls (``ctx.core.access.check_guesses``).
"""

from __future__ import annotations

import hashlib
import hmac
import re
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.concurrency import run_in_threadpool

from ctx.core import App, RateLimited
from ctx.core.access import (
    AuthorizationRequest,
    AuthorizeError,
    OAuthError,
    SignIn,
    cancel_form,
    check_authorization_request,
    check_guesses,
    count_guess,
    open_form,
    redirect_location,
    submit_form,
)
from ctx.ui.api.limits import client_address
from ctx.ui.oauth.common import NO_STORE, STATIC, STATIC_URL, ctx_app, issuer, read_form

router = APIRouter(tags=["oauth"], include_in_schema=False)
TEMPLATES = Environment(
    loader=FileSystemLoader(STATIC.parent / "templates"),
    autoescape=select_autoescape(["html"]),
    auto_reload=False,
)
COOKIE = "ctx_oauth_form"


def _cookie(token: str) -> str:
    """One cookie per open form, so two sign-ins at once (two tabs, two connectors) do not
    overwrite each other's token."""
    return f"{COOKIE}_{hashlib.sha256(token.encode()).hexdigest()[:16]}"


FORM_CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self' {redirect}"
)
WRONG_KEY = "That API key was not accepted (unknown or revoked). Check it and try again."
NO_COOKIE = (
    "This sign-in form was not opened in this browser, or cookies are blocked for this site."
)
#: What would end a CSP source, a directive or the policy, or start a keyword.
_CSP_BREAKERS = re.compile(r"[;,'\"\s]")


def _csp_source(uri: str) -> str:
    """The redirect URI's origin as a CSP source; an IPv6 literal cannot be written as a host
    source, so it falls back to its scheme (only loopback may use http). Registration admits
    only real hosts, but a URI that would inject into the header gives no source at all (the
    redirect after the post is then blocked, which fails closed)."""
    try:
        parts = urlsplit(uri)
        host, port = parts.hostname or "", parts.port
    except ValueError:
        return ""
    if parts.scheme not in ("http", "https"):
        return ""
    if ":" in host:
        return f"{parts.scheme}:"
    source = f"{parts.scheme}://{host}" + (f":{port}" if port else "")
    return "" if not host or _CSP_BREAKERS.search(source) else source


def _page(
    request: Request, template: str, status: int, headers: dict[str, str], **values: Any
) -> HTMLResponse:
    html = TEMPLATES.get_template(template).render(
        stylesheet=f"{issuer(request)}{STATIC_URL}/oauth.css", **values
    )
    return HTMLResponse(html, status_code=status, headers={**NO_STORE, **headers})


def _error_page(request: Request, message: str) -> HTMLResponse:
    return _page(request, "error.html", 400, {}, message=message)


def _form_page(
    request: Request,
    auth: AuthorizationRequest,
    token: str,
    error: str | None = None,
    status: int | None = None,
    headers: dict[str, str] | None = None,
) -> HTMLResponse:
    base = issuer(request)
    response = _page(
        request,
        "authorize.html",
        status or (400 if error else 200),
        {
            "content-security-policy": FORM_CSP.format(
                redirect=_csp_source(auth.redirect_uri)
            ).rstrip(),
            **(headers or {}),
        },
        client_name=auth.client.name,
        registered_by=auth.client.registered_by,
        redirect_origin=urlsplit(auth.redirect_uri).netloc,
        action=f"{base}/authorize",
        form_token=token,
        error=error,
    )
    response.set_cookie(
        _cookie(token),
        token,
        max_age=600,
        path=(urlsplit(base).path or "") + "/authorize",
        secure=base.startswith("https://"),
        httponly=True,
        samesite="lax",
    )
    return response


def _redirect(
    request: Request, uri: str, params: dict[str, str | None], token: str | None = None
) -> RedirectResponse:
    location = redirect_location(uri, {**params, "iss": issuer(request)})
    response = RedirectResponse(location, status_code=303, headers=NO_STORE)
    if token:
        _forget(request, response, token)
    return response


def _forget(request: Request, response: Response, token: str) -> None:
    response.delete_cookie(
        _cookie(token), path=(urlsplit(issuer(request)).path or "") + "/authorize"
    )


def _refusal(request: Request, exc: AuthorizeError) -> RedirectResponse:
    params = {"error": exc.error, "error_description": exc.message, "state": exc.state}
    return _redirect(request, exc.redirect_uri, params)


def _open(app: App, params: list[tuple[str, str]]) -> tuple[AuthorizationRequest, str]:
    with app.connection() as conn:
        auth = check_authorization_request(conn, params)
        return auth, open_form(conn, auth)


@router.get("/authorize", name="oauth-authorize")
def authorize_form(request: Request) -> Response:
    try:
        auth, token = _open(ctx_app(request), request.query_params.multi_items())
    except AuthorizeError as exc:
        return _refusal(request, exc)
    except OAuthError as exc:
        return _error_page(request, exc.message)
    return _form_page(request, auth, token)


def _decide(
    app: App, token: str, decision: str, api_key: str | None, address: str
) -> tuple[SignIn, RateLimited | None]:
    """Deny, or check the key; an address that typed too many wrong keys gets the form back
    under a fresh token, with the refusal, and its key is not looked at."""
    if decision == "deny":
        with app.connection() as conn:
            return SignIn(cancel_form(conn, token)), None
    try:
        check_guesses(app, address)
    except RateLimited as exc:
        with app.connection() as conn:
            auth = cancel_form(conn, token)  # spent like any post; the form comes back
            return SignIn(auth, retry_token=open_form(conn, auth)), exc
    with app.connection() as conn:
        outcome = submit_form(conn, token, api_key)
    if outcome.retry_token:
        count_guess(app, address)
    return outcome, None


@router.post("/authorize", name="oauth-authorize-submit")
async def authorize_submit(request: Request) -> Response:
    try:
        form = await read_form(request)
    except OAuthError as exc:
        return _error_page(request, exc.message)
    token = form.get("form_token", "")
    cookie = request.cookies.get(_cookie(token), "") if token else ""
    if not token or not hmac.compare_digest(token.encode(), cookie.encode()):
        return _error_page(request, NO_COOKIE)
    decision = form.get("decision", "allow")
    address = client_address(request)
    try:
        outcome, throttled = await run_in_threadpool(
            _decide, ctx_app(request), token, decision, form.get("api_key"), address
        )
    except OAuthError as exc:
        return _error_page(request, exc.message)
    auth = outcome.request
    if throttled is not None and outcome.retry_token:
        message = f"{throttled.message[:1].upper()}{throttled.message[1:]}."
        wait = {"retry-after": str(throttled.retry_after)}
        page = _form_page(request, auth, outcome.retry_token, message, 429, wait)
        _forget(request, page, token)
        return page
    if outcome.retry_token:
        page = _form_page(request, auth, outcome.retry_token, WRONG_KEY)
        _forget(request, page, token)
        return page
    if outcome.code is None:
        params = {"error": "access_denied", "error_description": "the user declined"}
        return _redirect(request, auth.redirect_uri, {**params, "state": auth.state}, token)
    return _redirect(request, auth.redirect_uri, {"code": outcome.code, "state": auth.state}, token)
