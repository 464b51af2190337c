"""The admin's view of OAuth clients: ``GET /api/oauth/clients``, ``DELETE …/{client_id}``."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from ctx.core import access
from ctx.ui.api.deps import AdminDep, AppDep
from ctx.ui.api.errors import BY_ID_RESPONSES, ERROR_RESPONSES

router = APIRouter(
    prefix="/api/oauth", tags=["admin"], responses={**ERROR_RESPONSES, **BY_ID_RESPONSES}
)


@router.get("/clients", name="oauth-clients-list")
def clients_list(app: AppDep, _: AdminDep) -> dict[str, Any]:
    """Every OAuth client, from `ctx mcp add` and dynamic registration (never a secret)."""
    with app.connection() as conn:
        return {"clients": access.list_clients(conn)}


@router.delete("/clients/{client_id}", name="oauth-clients-remove")
def clients_remove(client_id: str, app: AppDep, _: AdminDep) -> dict[str, Any]:
    """Remove a client; keys it obtained stay valid until revoked."""
    with app.connection() as conn:
        access.remove_client(conn, client_id)
    return {"client_id": client_id, "removed": True}
