"""Writing the database layer of settings: validated, stored, applied here and (NOTIFY) elsewhere."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from psycopg.types.json import Jsonb

from ctx.core.errors import ValidationError
from ctx.core.runtime.settings import secret_reference

if TYPE_CHECKING:
    from ctx.core.app import App


def set_setting(app: App, key: str, value: Any) -> Any:
    """Validate and store a database-layer setting; hot keys apply at once (here and via NOTIFY)."""
    coerced = app.settings.validate_change(key, value)
    with app.connection() as conn:
        name = secret_reference(coerced) if app.registry.get(key).secret else None
        if name is not None:
            found = conn.execute("SELECT 1 FROM context_secrets WHERE name = %s", (name,))
            if found.fetchone() is None:
                raise ValidationError(
                    f"{key}: no secret named {name!r}; seal it first with `ctx secrets set {name}`",
                    field=key,
                )
        conn.execute(
            "INSERT INTO context_settings (key, value) VALUES (%s, %s) "
            "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()",
            (key, Jsonb(coerced)),
        )
    app.reload()
    return coerced


def unset_setting(app: App, key: str) -> None:
    """Drop the database layer of a setting so env or default applies again."""
    app.settings.validate_change(key, None)
    with app.connection() as conn:
        conn.execute("DELETE FROM context_settings WHERE key = %s", (key,))
    app.reload()
