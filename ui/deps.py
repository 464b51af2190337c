"""Request dependencies: the App, the authenticated principal, the admin gate."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from ctx.core import auth
from ctx.core.app import App
from ctx.core.auth import Principal
from ctx.core.errors import Unauthorized


def get_app(request: Request) -> App:
    app: App = request.app.state.ctx
    return app


def token_from(request: Request) -> str | None:
    key = request.headers.get("x-context-key")
    if key:
        return key.strip()
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return None


def get_principal(request: Request, app: Annotated[App, Depends(get_app)]) -> Principal:
    token = token_from(request)
    if not token:
        raise Unauthorized("missing or invalid API key")
    with app.connection() as conn:
        who = auth.authenticate(conn, token)
    request.state.key_id = who.key_id
    return who


def get_admin(who: Annotated[Principal, Depends(get_principal)]) -> Principal:
    who.require_admin()
    return who


AppDep = Annotated[App, Depends(get_app)]
PrincipalDep = Annotated[Principal, Depends(get_principal)]
AdminDep = Annotated[Principal, Depends(get_admin)]
