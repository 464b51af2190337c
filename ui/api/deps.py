"""Request dependencies: the App, the authenticated principal, the admin gate.

Plugin routes use these too (``from ctx.ui import AppDep, PrincipalDep, AdminDep``), so every
route fails closed the same way.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request, Security
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from ctx.core import App, Principal, Unauthorized
from ctx.core.access import authenticate, token_from_headers
from ctx.ui.api.limits import charge_request


async def get_app(request: Request) -> App:  # async: no worker-thread hop for an attribute
    app: App = request.app.state.ctx
    return app


# Declared for the OpenAPI schema (securitySchemes); the key is read by token_from_headers.
_key_header = APIKeyHeader(name="X-Context-Key", auto_error=False, scheme_name="ContextKey")
_bearer = HTTPBearer(auto_error=False, scheme_name="Bearer", description="The API key as token.")


def get_principal(
    request: Request,
    app: Annotated[App, Depends(get_app)],
    _header: Annotated[str | None, Security(_key_header)] = None,
    _token: Annotated[HTTPAuthorizationCredentials | None, Security(_bearer)] = None,
) -> Principal:
    token = token_from_headers(request.headers)
    if not token:
        raise Unauthorized("missing or invalid API key")
    with app.connection() as conn:
        who = authenticate(conn, token)
        request.state.key_id = who.key_id
        request.state.principal = who  # the middleware notes a call that wrote
        charge_request(request, app, who, conn)
    return who


async def get_admin(who: Annotated[Principal, Depends(get_principal)]) -> Principal:
    who.require_admin()
    return who


AppDep = Annotated[App, Depends(get_app)]
PrincipalDep = Annotated[Principal, Depends(get_principal)]
AdminDep = Annotated[Principal, Depends(get_admin)]
