"""The access operations of an admin key (API keys, sealed secrets, OAuth clients) and the
calling key's own description."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ctx.core.access import keys, oauth_clients
from ctx.core.access import secrets as sealed

if TYPE_CHECKING:
    from ctx.core.access.principals import Principal
    from ctx.core.access.schemas import ClientId, KeyCreate, KeyId, SecretName, SecretSet
    from ctx.core.app import App


def whoami(app: App, who: Principal, _: None) -> dict[str, Any]:
    return who.as_dict()


def list_keys(app: App, who: Principal, _: None) -> dict[str, Any]:
    with app.connection() as conn:
        return {"keys": keys.list_keys(conn)}


def create_key(app: App, who: Principal, given: KeyCreate) -> dict[str, Any]:
    with app.connection() as conn:
        key_id, token = keys.create_key(
            conn,
            name=given.name,
            home_scope=given.home_scope,
            allowed_scopes=given.allowed_scopes,
            is_admin=given.is_admin,
            tenant=given.tenant,
            role=given.role,
            who=who,
        )
    return {"id": key_id, "api_key": token}


def revoke_key(app: App, who: Principal, given: KeyId) -> dict[str, Any]:
    with app.connection() as conn:
        keys.revoke_key(conn, given.key_id)
    return {"id": given.key_id, "revoked": True}


def list_secrets(app: App, who: Principal, _: None) -> dict[str, Any]:
    with app.connection() as conn:
        return {"secrets": sealed.listed_secrets(conn)}


def set_secret(app: App, who: Principal, given: SecretSet) -> dict[str, Any]:
    with app.connection() as conn:
        return sealed.set_secret(conn, app.seal_key, given.name, given.value, by=f"api:{who.name}")


def delete_secret(app: App, who: Principal, given: SecretName) -> dict[str, Any]:
    with app.connection() as conn:
        return sealed.delete_secret(conn, given.name)


def list_clients(app: App, who: Principal, _: None) -> dict[str, Any]:
    with app.connection() as conn:
        return {"clients": oauth_clients.list_clients(conn)}


def remove_client(app: App, who: Principal, given: ClientId) -> dict[str, Any]:
    with app.connection() as conn:
        oauth_clients.remove_client(conn, given.client_id)
    return {"client_id": given.client_id, "removed": True}
