"""Admin-only endpoints: settings, block types, API keys."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import Field

from ctx.core import access
from ctx.core.blocks import get_type, load_types, update_type
from ctx.core.runtime import set_setting, unset_setting
from ctx.core.validation import Strict
from ctx.ui.api.deps import AdminDep, AppDep
from ctx.ui.api.errors import BY_ID_RESPONSES, ERROR_RESPONSES

router = APIRouter(prefix="/api", tags=["admin"], responses={**ERROR_RESPONSES, **BY_ID_RESPONSES})
meta = APIRouter(
    tags=["admin"], responses={**ERROR_RESPONSES, **BY_ID_RESPONSES}
)  # datasette-style /-/ paths for introspection


class SettingValue(Strict):
    value: Any


class KeyCreate(Strict):
    name: str = Field(min_length=1, max_length=200)
    home_scope: str
    allowed_scopes: list[str] = Field(default_factory=list)
    is_admin: bool = False
    tenant: str | None = Field(default=None, description="The key's tenant (default: the root).")
    role: str | None = Field(default=None, description="owner, admin or member.")


@router.get("/settings", name="settings-list")
def settings_list(app: AppDep, _: AdminDep) -> dict[str, Any]:
    return {"settings": app.settings.describe()}


@router.get("/settings/{key}", name="settings-get")
def settings_get(key: str, app: AppDep, _: AdminDep) -> dict[str, Any]:
    app.registry.get(key)
    return next(s for s in app.settings.describe() if s["key"] == key)


@router.put("/settings/{key}", name="settings-set")
def settings_set(key: str, body: SettingValue, app: AppDep, _: AdminDep) -> dict[str, Any]:
    set_setting(app, key, body.value)
    return next(s for s in app.settings.describe() if s["key"] == key)


@router.delete("/settings/{key}", name="settings-unset")
def settings_unset(key: str, app: AppDep, _: AdminDep) -> dict[str, Any]:
    unset_setting(app, key)
    return next(s for s in app.settings.describe() if s["key"] == key)


@router.get("/types", name="types-list")
def types_list(app: AppDep, _: AdminDep) -> dict[str, Any]:
    with app.connection() as conn:
        types = load_types(conn)
    return {"types": [vars(t) for t in sorted(types.values(), key=lambda t: t.name)]}


@router.get("/types/{name}", name="types-show")
def types_show(name: str, app: AppDep, _: AdminDep) -> dict[str, Any]:
    with app.connection() as conn:
        return vars(get_type(conn, name))


@router.patch("/types/{name}", name="types-set")
def types_set(name: str, changes: dict[str, Any], app: AppDep, _: AdminDep) -> dict[str, Any]:
    with app.connection() as conn:
        spec = update_type(conn, name, changes)
    app.reload()
    return vars(spec)


@router.get("/keys", name="keys-list")
def keys_list(app: AppDep, _: AdminDep) -> dict[str, Any]:
    with app.connection() as conn:
        return {"keys": access.list_keys(conn)}


@router.post("/keys", name="keys-create", status_code=201)
def keys_create(body: KeyCreate, app: AppDep, who: AdminDep) -> dict[str, Any]:
    with app.connection() as conn:
        key_id, token = access.create_key(
            conn,
            name=body.name,
            home_scope=body.home_scope,
            allowed_scopes=body.allowed_scopes,
            is_admin=body.is_admin,
            tenant=body.tenant,
            role=body.role,
            who=who,
        )
    return {"id": key_id, "api_key": token}


@router.delete("/keys/{key_id}", name="keys-revoke")
def keys_revoke(key_id: str, app: AppDep, _: AdminDep) -> dict[str, Any]:
    with app.connection() as conn:
        access.revoke_key(conn, key_id)
    return {"id": key_id, "revoked": True}


@router.get("/plugins", name="plugins-list")
def plugins_list(app: AppDep, _: AdminDep) -> dict[str, Any]:
    return {"plugins": [vars(p) for p in app.host.infos()]}


@meta.get("/-/plugins", name="plugins-meta")
def plugins_meta(app: AppDep, _: AdminDep) -> dict[str, Any]:
    return plugins_list(app, _)


class SecretValue(Strict):
    value: str = Field(min_length=1, description="The value to seal; it is never returned.")


@router.get("/secrets", name="secrets-list")
def secrets_list(app: AppDep, _: AdminDep) -> dict[str, Any]:
    """Sealed secrets: names, the key that sealed each, when and by whom, and the backends
    that use each (``references``); never a value."""
    with app.connection() as conn:
        rows = access.list_secrets(conn)
        used = access.secret_users(conn)
    return {"secrets": [{**r, "references": used.get(r["name"], [])} for r in rows]}


@router.put("/secrets/{name}", name="secrets-set")
def secrets_set(name: str, body: SecretValue, app: AppDep, who: AdminDep) -> dict[str, Any]:
    """Seal a value under ``name`` (replacing an earlier one); write-only."""
    with app.connection() as conn:
        return access.set_secret(conn, app.seal_key, name, body.value, by=f"api:{who.name}")


@router.delete("/secrets/{name}", name="secrets-delete")
def secrets_delete(name: str, app: AppDep, _: AdminDep) -> dict[str, Any]:
    """Delete a sealed secret."""
    with app.connection() as conn:
        return access.delete_secret(conn, name)
