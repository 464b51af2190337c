"""Operator commands that work on the database directly: init, migrate, doctor, keys, settings,
types, plugins."""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

from ctx.core import access, blocks, runtime
from ctx.core.client import Client, server_url
from ctx.core.errors import ValidationError
from ctx.ui.cli.common import (
    JsonOpt,
    comma_list,
    console,
    dump_json,
    table,
)
from ctx.ui.cli.operator.app import current_app, opened_app
from ctx.ui.cli.present import local
from ctx.ui.cli.server import server_check

if TYPE_CHECKING:
    from ctx.core.app import App

INIT_KEY_NAME = "admin (ctx init)"
INIT_SCOPE = "default"


@local
def init(as_json: JsonOpt = False) -> None:
    """Create $CTX_HOME and the database, apply migrations and, the first time, an admin key."""
    with opened_app() as app:
        memory = runtime.size_embedded(app)
        token, earlier = first_admin_key(app)
        url = server_url(app)
        if as_json:
            dump_json({"url": url, "database": runtime.redact(app.db.url), "api_key": token})
            return
        show_init(app, url, token, earlier, memory)


def welcome(app: App, url: str, memory: str | None) -> None:
    """``ctx init``'s admin key (the first time) and its words, for ``ctx serve --init``."""
    show_init(app, url, *first_admin_key(app), memory)


def first_admin_key(app: App) -> tuple[str | None, datetime | None]:
    """Create the admin key of ``ctx init`` the first time: ``(token, None)``, the token shown
    once; later ``(None, when it was made)``."""
    with app.connection() as conn:
        earlier = conn.execute(
            "SELECT created_at FROM context_api_keys WHERE name = %s ORDER BY created_at LIMIT 1",
            (INIT_KEY_NAME,),
        ).fetchone()
        if earlier is not None:
            return None, earlier["created_at"]
        _, token = access.create_key(conn, name=INIT_KEY_NAME, home_scope=INIT_SCOPE, is_admin=True)
    return token, None


def show_init(
    app: App, url: str, token: str | None, earlier: datetime | None, memory: str | None
) -> None:
    """What ``ctx init`` (and ``ctx serve --init``, once its port is bound) tells the user;
    ``memory`` is what sizing the embedded cluster did (None for an external database)."""
    console.print(f"ctx home: {app.home}")
    console.print(f"database: {runtime.redact(app.db.url)} ({app.db.kind})")
    if memory:
        console.print(memory, highlight=False)
    if token:
        console.print("\nAdmin API key (shown once, store it now):")
        console.print(Text("  " + token, style="bold"))
        console.print(f"\nUse it:  export CTX_URL={url} CTX_API_KEY={token}")
        console.print(f"Or open {url}/ in a browser and sign in with it (the workbench).")
    else:
        assert earlier is not None
        console.print(
            f"\nThe admin key was shown when ctx was first initialised "
            f"({earlier:%Y-%m-%d %H:%M}) and is not stored in readable form."
        )
        console.print(f"Make another: ctx keys create --home-scope {INIT_SCOPE} --admin --name me")


@local
def migrate() -> None:
    """Apply pending database migrations."""
    app = current_app()
    app.db.start()
    try:
        applied = runtime.apply_migrations(app.db.url, app.host)
    finally:
        app.db.stop()
    for name in applied:
        console.print(f"applied {name}")
    console.print(f"{len(applied)} migration(s) applied" if applied else "database is up to date")


@local
def doctor(as_json: JsonOpt = False) -> None:
    """Check the database (server version, extensions, text search, migrations) and the server."""
    app = current_app()
    report = runtime.diagnose(app)
    server = server_check(Client())
    report["checks"].append(server)
    report["ok"] = report["ok"] and server["ok"]
    if as_json:
        dump_json(report)
    else:
        for check in report["checks"]:
            mark = (
                Text("missing", style="red")
                if not check["ok"]
                else Text("warning", style="yellow")
                if check.get("warning")
                else Text("ok     ", style="green")
            )
            console.print(mark, f" {check['name']}: {check['detail']}")
        failed = [c["name"] for c in report["checks"] if not c["ok"]]
        console.print("all good" if not failed else "not ok: " + ", ".join(failed))
    if not report["ok"]:
        raise typer.Exit(1)


keys_app = typer.Typer(help="Create, list and revoke API keys.", no_args_is_help=True)


@keys_app.command("create")
@local
def keys_create(
    home_scope: Annotated[str, typer.Option("--home-scope", help="The only scope it writes.")],
    allowed_scopes: Annotated[
        str, typer.Option("--allowed-scopes", help="Extra readable scopes, comma-separated.")
    ] = "",
    admin: Annotated[bool, typer.Option("--admin", help="Grant the admin tier.")] = False,
    name: Annotated[str | None, typer.Option("--name", help="A label for lists.")] = None,
    tenant: Annotated[
        str | None, typer.Option("--tenant", help="The key's tenant (default: the root).")
    ] = None,
    role: Annotated[
        str | None, typer.Option("--role", help="owner, admin or member in its tenant.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Create a key; the token is printed once and never stored in readable form."""
    allowed = comma_list(allowed_scopes)
    with opened_app() as app, app.connection() as conn:
        key_id, token = access.create_key(
            conn,
            name=name or f"key for {home_scope}",
            home_scope=home_scope,
            allowed_scopes=allowed,
            is_admin=admin,
            tenant=tenant,
            role=role,
        )
    if as_json:
        dump_json({"id": key_id, "api_key": token})
    else:
        console.print(f"key {key_id} created; token (shown once):\n  {token}")


@keys_app.command("list")
@local
def keys_list(
    all_keys: Annotated[bool, typer.Option("--all", help="Include revoked keys.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """List keys (never their tokens)."""
    with opened_app() as app, app.connection() as conn:
        rows = access.list_keys(conn, include_revoked=all_keys)
    if as_json:
        dump_json(rows)
    else:
        table(
            rows,
            [
                "key_prefix",
                "name",
                "tenant",
                "tenant_role",
                "home_scope",
                "allowed_scopes",
                "is_admin",
                "last_used_at",
            ]
            + (["revoked_at"] if all_keys else []),
        )


@keys_app.command("revoke")
@local
def keys_revoke(
    key_id: Annotated[str, typer.Argument(help="Key id (or its prefix shown in lists).")],
) -> None:
    """Revoke a key; requests with it get 401 from now on."""
    with opened_app() as app, app.connection() as conn:
        access.revoke_key(conn, key_id)
    console.print(f"revoked {key_id}")


settings_app = typer.Typer(
    help="Show and change settings (default < env < database).", no_args_is_help=True
)


@settings_app.command("list")
@local
def settings_list(as_json: JsonOpt = False) -> None:
    """Every setting with its value and where the value comes from."""
    with opened_app() as app:
        rows = app.settings.describe()
    if as_json:
        dump_json(rows)
    else:
        shown = [{**r, "value": _shown(r)} for r in rows]
        table(shown, ["key", "value", "source", "type", "hot", "env"])


def _shown(row: dict[str, Any]) -> str:
    """A value as a person reads it; a secret only as set or unset."""
    if row.get("secret"):
        return "(set)" if row.get("is_set") else "(unset)"
    return json.dumps(row["value"], ensure_ascii=False)


@settings_app.command("get")
@local
def settings_get(key: str, as_json: JsonOpt = False) -> None:
    """One setting, with its source."""
    with opened_app() as app:
        row = runtime.setting_row(app, key)
    if as_json:
        dump_json(row)
    else:
        console.print(f"{key} = {_shown(row)}  ({row['source']})", markup=False)
        console.print(f"  {row['help']}")


@settings_app.command("set", context_settings={"ignore_unknown_options": True})
@local
def settings_set(key: str, value: str) -> None:
    """Store a value in the database layer (hot keys apply to running servers at once)."""
    with opened_app() as app:
        setting = app.registry.get(key)
        parsed: Any = value
        if setting.type is list and value.startswith("["):
            parsed = json.loads(value)
        stored = runtime.set_setting(app, key, parsed)
        note = "" if setting.hot else " (takes effect at the next start)"
    console.print(f"{key} = {json.dumps(stored)}{note}")


@settings_app.command("unset")
@local
def settings_unset(key: str) -> None:
    """Remove the database value so the environment or the default applies again."""
    with opened_app() as app:
        runtime.unset_setting(app, key)
        value, source = app.settings.resolve(key)
        secret = app.registry.get(key).secret
    shown = ("(set)" if value else "(unset)") if secret else json.dumps(value)
    console.print(f"{key} = {shown}  ({source})")


types_app = typer.Typer(
    help="Block types: policy rows that say how blocks are treated.", no_args_is_help=True
)
TYPE_TABLE = [
    "name",
    "retrieval_policy",
    "retrieval_factor",
    "guard_dedup",
    "dream_linkable",
    "embed",
    "temporal_extract",
    "default_sensitivity",
    "workflow",
]


@types_app.command("list")
@local
def types_list(as_json: JsonOpt = False) -> None:
    """All block types."""
    with opened_app() as app, app.connection() as conn:
        rows = blocks.type_rows(conn)
    if as_json:
        dump_json(rows)
    else:
        table(rows, TYPE_TABLE)


@types_app.command("show")
@local
def types_show(name: str, as_json: JsonOpt = False) -> None:
    """Every field of one block type."""
    with opened_app() as app, app.connection() as conn:
        row = vars(blocks.get_type(conn, name))
    if as_json:
        dump_json(row)
    else:
        for k, v in row.items():
            console.print(f"{k}: {v}")


@types_app.command("set")
@local
def types_set(
    name: str,
    assignments: Annotated[list[str], typer.Argument(help="field=value pairs.")],
) -> None:
    """Change fields of a block type, e.g. `ctx types set audit-trail retrieval_factor=0.3`."""
    changes: dict[str, Any] = {}
    for item in assignments:
        field, sep, value = item.partition("=")
        if not sep or not field:
            raise ValidationError(f"expected field=value, got {item!r}")
        changes[field.strip()] = value
    with opened_app() as app, app.connection() as conn:
        spec = blocks.update_type(conn, name, changes)
    console.print(f"updated {spec.name}: " + ", ".join(f"{k}={v}" for k, v in changes.items()))


@local
def plugins(as_json: JsonOpt = False) -> None:
    """Loaded plugins with version, source and the hooks they implement."""
    rows = runtime.plugin_rows(current_app())
    if as_json:
        dump_json(rows)
    else:
        table(rows, ["name", "source", "version", "hooks"])


def register(cli: typer.Typer) -> None:
    cli.command()(init)
    cli.command()(migrate)
    cli.command()(doctor)
    cli.command()(plugins)
    cli.add_typer(keys_app, name="keys")
    cli.add_typer(settings_app, name="settings")
    cli.add_typer(types_app, name="types")
