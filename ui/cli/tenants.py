"""``ctx tenants``: tenants, their scopes, keys and grants, through the server's tenant
operations (``/api/tenants``; so a tenant owner administers its tenant with its own key, and a
root admin every tenant)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ctx.core.access import (
    ACCEPT_TENANT_BLOCK,
    ADD_TENANT_SCOPE,
    CREATE_TENANT,
    CREATE_TENANT_KEY,
    DELETE_TENANT,
    GRANT_TO_TENANT,
    LIST_TENANTS,
    REVOKE_TENANT_GRANT,
    REVOKE_TENANT_KEY,
    SHOW_TENANT,
)
from ctx.core.client import Client, route_of
from ctx.ui.cli.common import JsonOpt, comma_list, console, dump_json, table
from ctx.ui.cli.present import presents

tenants_cli = typer.Typer(
    help="Tenants: list, create, show, delete; their scopes, keys and grants.",
    no_args_is_help=True,
)
Name = Annotated[str, typer.Argument(help="The tenant's name.")]


def _say(data: dict[str, Any], as_json: bool, text: str) -> None:
    if as_json:
        dump_json(data)
    else:
        console.print(text, markup=False)


@tenants_cli.command("list")
@presents(LIST_TENANTS)
def list_(as_json: JsonOpt = False) -> None:
    """Every tenant (root admins) or your own."""
    rows = Client().call(LIST_TENANTS)["tenants"]
    if as_json:
        dump_json(rows)
    else:
        table(rows, ["name", "display_name", "is_root", "keys", "scopes", "created_at"])


@tenants_cli.command("create")
@presents(CREATE_TENANT)
def create(
    name: Name,
    display_name: Annotated[str, typer.Option("--display-name", help="A label.")] = "",
    as_json: JsonOpt = False,
) -> None:
    """Create a tenant under the root (root admins)."""
    body = {"name": name, "display_name": display_name}
    data = Client().call(CREATE_TENANT, body)
    _say(data, as_json, f"tenant {data['name']} created")


@tenants_cli.command("show")
@presents(SHOW_TENANT)
def show(name: Name, as_json: JsonOpt = False) -> None:
    """A tenant's scopes, keys and grants."""
    data = Client().call(SHOW_TENANT, {"name": name})
    if as_json:
        dump_json(data)
        return
    console.print(f"tenant {data['name']}" + (" (root)" if data["is_root"] else ""), markup=False)
    console.print("scopes: " + (", ".join(data["scopes"]) or "none"), markup=False)
    table(data["keys"], ["key_prefix", "name", "tenant_role", "home_scope", "allowed_scopes"])
    grants = data["grants"]
    for label, key in (("shares scopes", "scopes_shared"), ("receives scopes", "scopes_received"),
                       ("shares blocks", "blocks_shared"), ("receives blocks", "blocks_received")):  # fmt: skip
        if grants[key]:
            console.print(f"{label}:", markup=False)
            for g in grants[key]:
                console.print("  " + "  ".join(str(v) for v in g.values()), markup=False)


@tenants_cli.command("delete")
@presents(DELETE_TENANT)
def delete(name: Name) -> None:
    """Remove a tenant with no active keys and no data (root admins)."""
    Client().call(DELETE_TENANT, {"name": name})
    console.print(f"tenant {name} deleted", markup=False)


@tenants_cli.command("add-scope")
@presents(ADD_TENANT_SCOPE)
def add_scope(
    name: Name,
    scope: Annotated[str, typer.Argument(help="The scope to claim.")],
    move: Annotated[bool, typer.Option("--move", help="Root admins: move a scope in use.")] = False,
) -> None:
    """Claim a free scope for the tenant."""
    Client().call(ADD_TENANT_SCOPE, {"name": name, "scope": scope, "move": move})
    console.print(f"scope {scope} belongs to tenant {name}", markup=False)


@tenants_cli.command("add-key")
@presents(CREATE_TENANT_KEY)
def add_key(
    name: Name,
    home_scope: Annotated[str, typer.Option("--home-scope", help="The only scope it writes.")],
    allowed_scopes: Annotated[
        str, typer.Option("--allowed-scopes", help="Extra readable scopes, comma-separated.")
    ] = "",
    role: Annotated[str, typer.Option("--role", help="owner, admin or member.")] = "member",
    key_name: Annotated[str | None, typer.Option("--name", help="A label for lists.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Create a key of the tenant; the token is printed once."""
    body = {
        "name": key_name or f"{name} key for {home_scope}",
        "home_scope": home_scope,
        "allowed_scopes": comma_list(allowed_scopes),
        "role": role,
    }
    # the body's "name" is the key's label, so the tenant fills the path alone
    path, _ = route_of(CREATE_TENANT_KEY, {"name": name})
    data = Client().request("POST", path, body)
    _say(
        data,
        as_json,
        f"key {data['id']} ({role} of {name}); token (shown once):\n  {data['api_key']}",
    )


@tenants_cli.command("revoke-key")
@presents(REVOKE_TENANT_KEY)
def revoke_key(
    name: Name, key_id: Annotated[str, typer.Argument(help="Key id or prefix.")]
) -> None:
    """Revoke a key of the tenant."""
    Client().call(REVOKE_TENANT_KEY, {"name": name, "key_id": key_id})
    console.print(f"key {key_id} revoked", markup=False)


def _target(scope: str | None, block: str | None) -> dict[str, Any]:
    if (scope is None) == (block is None):
        raise typer.BadParameter("give exactly one of --scope and --block")
    return {"scope": scope} if scope is not None else {"block_id": block}


ScopeOpt = Annotated[str | None, typer.Option("--scope", help="A scope to share.")]
BlockOpt = Annotated[str | None, typer.Option("--block", help="A block id to share.")]


@tenants_cli.command("grant")
@presents(GRANT_TO_TENANT)
def grant(name: Name, scope: ScopeOpt = None, block: BlockOpt = None) -> None:
    """Share a scope or offer a block to tenant NAME (read only; a block shows there once NAME
    accepts it)."""
    Client().call(GRANT_TO_TENANT, {"name": name, **_target(scope, block)})
    console.print(f"shared {scope or block} with tenant {name}", markup=False)


@tenants_cli.command("accept")
@presents(ACCEPT_TENANT_BLOCK)
def accept(
    name: Name, block: Annotated[str, typer.Option("--block", help="The offered block's id.")]
) -> None:
    """Accept a block offered to tenant NAME: its keys find it from now on."""
    Client().call(ACCEPT_TENANT_BLOCK, {"name": name, "block_id": block})
    console.print(f"block {block} accepted by tenant {name}", markup=False)


@tenants_cli.command("revoke")
@presents(REVOKE_TENANT_GRANT)
def revoke(name: Name, scope: ScopeOpt = None, block: BlockOpt = None) -> None:
    """Take back a scope or block shared with tenant NAME (or, as NAME, decline it)."""
    Client().call(REVOKE_TENANT_GRANT, {"name": name, **_target(scope, block)})
    console.print(f"{scope or block} is no longer shared with tenant {name}", markup=False)


def register(cli: typer.Typer) -> None:
    cli.add_typer(tenants_cli, name="tenants")
