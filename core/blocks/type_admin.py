"""The block-type operations (an admin's): list, show, change. A change reloads this server's
types at once."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ctx.core.blocks.types import get_type, load_types, update_type

if TYPE_CHECKING:
    import psycopg

    from ctx.core.app import App
    from ctx.core.blocks.type_schemas import TypeEdit, TypeName


def type_rows(conn: psycopg.Connection[Any]) -> list[dict[str, Any]]:
    """Every block type row, by name."""
    return [vars(t) for t in sorted(load_types(conn).values(), key=lambda t: t.name)]


def list_types(app: App, who: Any, _: None) -> dict[str, Any]:
    with app.connection() as conn:
        return {"types": type_rows(conn)}


def show_type(app: App, who: Any, given: TypeName) -> dict[str, Any]:
    with app.connection() as conn:
        return vars(get_type(conn, given.name))


def set_type(app: App, who: Any, given: TypeEdit) -> dict[str, Any]:
    changes = given.model_dump(exclude_unset=True, exclude={"name"})
    with app.connection() as conn:
        spec = update_type(conn, given.name, changes)
    app.reload()
    return vars(spec)
