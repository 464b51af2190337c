"""The JSON endpoints of the flow: ``/token`` (the code for the key) and ``/register`` (RFC 7591
dynamic client registration). Every failure is an RFC 6749 error body, never a 500."""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any
from urllib.parse import unquote

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from ctx.core import App
from ctx.core.access import (
    OAuthError,
    authenticate_client,
    has_control_characters,
    redeem_code,
    register_dynamic,
)
from ctx.ui.api.limits import client_address
from ctx.ui.oauth.common import (
    CORS,
    NO_STORE,
    ctx_app,
    media_type,
    oauth_error,
    preflight,
    read_form,
)

router = APIRouter(tags=["oauth"], include_in_schema=False)
BASIC_CHALLENGE = {"www-authenticate": 'Basic realm="ctx"'}


def _basic_credentials(header: str | None) -> tuple[str, str] | None:
    """``client_secret_basic``: id and secret, each form-encoded (RFC 6749 section 2.3.1)."""
    scheme, _, value = (header or "").partition(" ")
    if scheme.lower() != "basic":
        return None
    refused = OAuthError("invalid_client", "the Basic credentials are not valid", 401)
    try:
        decoded = base64.b64decode(value.strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        raise refused from None
    client_id, sep, secret = decoded.partition(":")
    if not sep:
        raise refused
    credentials = unquote(client_id.replace("+", " ")), unquote(secret.replace("+", " "))
    if any(has_control_characters(part) for part in credentials):
        raise refused  # a NUL would reach PostgreSQL, which refuses it
    return credentials


def _exchange(app: App, form: dict[str, str], basic: tuple[str, str] | None) -> str:
    grant = form.get("grant_type")
    if not grant:
        raise OAuthError("invalid_request", "grant_type is required")
    if grant != "authorization_code":
        raise OAuthError(
            "unsupported_grant_type", "only authorization_code is supported (no refresh tokens)"
        )
    client_id, secret = form.get("client_id"), form.get("client_secret")
    if basic is not None:
        if secret is not None or (client_id is not None and client_id != basic[0]):
            raise OAuthError("invalid_request", "send the client credentials one way only")
        client_id, secret = basic
    if not client_id:
        raise OAuthError("invalid_client", "client_id is required", 401)
    with app.connection() as conn:
        client = authenticate_client(conn, client_id, secret)
        return redeem_code(
            conn,
            client=client,
            code=form.get("code"),
            redirect_uri=form.get("redirect_uri"),
            code_verifier=form.get("code_verifier"),
        )


@router.post("/token", name="oauth-token")
async def token(request: Request) -> JSONResponse:
    basic: tuple[str, str] | None = None
    try:
        basic = _basic_credentials(request.headers.get("authorization"))
        form = await read_form(request)
        key = await run_in_threadpool(_exchange, ctx_app(request), form, basic)
    except OAuthError as exc:
        challenge = BASIC_CHALLENGE if exc.status_code == 401 and basic is not None else None
        return oauth_error(exc, challenge)
    # The token is the API key itself: it does not expire, so there is no expires_in and no
    # refresh token; revoking the key (ctx keys revoke) ends it.
    return JSONResponse({"access_token": key, "token_type": "Bearer"}, headers={**NO_STORE, **CORS})


async def _metadata(request: Request) -> Any:
    if media_type(request) != "application/json":
        raise OAuthError("invalid_client_metadata", "send the metadata as application/json")
    try:
        return json.loads(await request.body())
    except (ValueError, RecursionError):
        raise OAuthError("invalid_client_metadata", "the body is not valid JSON") from None


def _register(app: App, metadata: Any, remote_addr: str) -> dict[str, Any]:
    with app.connection() as conn:
        return register_dynamic(
            conn,
            metadata,
            remote_addr=remote_addr,
            per_hour=int(app.settings["oauth.registrations_per_hour"]),
        )


@router.post("/register", name="oauth-register")
async def register(request: Request) -> JSONResponse:
    app = ctx_app(request)
    if not app.settings["oauth.dynamic_registration"]:
        return oauth_error(
            OAuthError(
                "access_denied",
                "dynamic client registration is turned off here; ask the operator to add the "
                "client with `ctx mcp add`",
                403,
            )
        )
    remote_addr = client_address(request)
    try:
        metadata = await _metadata(request)
        body = await run_in_threadpool(_register, app, metadata, remote_addr)
    except OAuthError as exc:
        retry = {"retry-after": "3600"} if exc.status_code == 429 else None
        return oauth_error(exc, retry)
    return JSONResponse(body, status_code=201, headers={**NO_STORE, **CORS})


router.add_api_route("/token", preflight, methods=["OPTIONS"])
router.add_api_route("/register", preflight, methods=["OPTIONS"])
