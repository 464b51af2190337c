"""Request dependencies: the App, the authenticated principal, the admin gate.

Plugin routes use these too (``from ctx.ui import AppDep, PrincipalDep, AdminDep``), so every
route fails closed the same way.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from ctx.core import App, Principal, Unauthorized
from ctx.core.access import authenticate, token_from_headers


def get_app(request: Request) -> App:
    app: App = request.app.state.ctx
    return app


def get_principal(request: Request, app: Annotated[App, Depends(get_app)]) -> Principal:
    token = token_from_headers(request.headers)
    if not token:
        raise Unauthorized("missing or invalid API key")
    with app.connection() as conn:
        who = authenticate(conn, token)
    request.state.key_id = who.key_id
    return who


def get_admin(who: Annotated[Principal, Depends(get_principal)]) -> Principal:
    who.require_admin()
    return who


AppDep = Annotated[App, Depends(get_app)]
PrincipalDep = Annotated[Principal, Depends(get_principal)]
AdminDep = Annotated[Principal, Depends(get_admin)]
