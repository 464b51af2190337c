"""``ctx health``: is ctxd up, and which version (no key needed for the first)."""

from __future__ import annotations

from typing import Any

import typer

from ctx.core.client import Client
from ctx.core.errors import CtxError
from ctx.core.runtime import HEALTH, SERVER_VERSION
from ctx.ui.cli.common import JsonOpt, console, dump_json
from ctx.ui.cli.present import presents


def server_check(client: Client) -> dict[str, Any]:
    try:
        # HEALTH takes no key, and its 503 answer is a status to show rather than an error
        health = client.health()
    except CtxError as exc:
        return {"name": "server", "ok": False, "detail": exc.message}
    ok = health.get("status") in ("ok", "warming")  # warming: it answers, queries wait a moment
    version = "?"
    if client.key:
        try:
            version = str(client.call(SERVER_VERSION).get("version", "?"))
        except CtxError:
            version = "? (the key was refused)"
    detail = f"ctx {version} at {client.url}: {health.get('status')}"
    return {"name": "server", "ok": ok, "detail": detail}


@presents(HEALTH, SERVER_VERSION)
def health(as_json: JsonOpt = False) -> None:
    """Is the server up (at CTX_URL, or this machine's server.host/server.port), and which
    version."""
    client = Client()
    check = server_check(client)
    if as_json:
        dump_json({"url": client.url, **check})
    else:
        console.print(check["detail"])
    if not check["ok"]:
        raise typer.Exit(1)


def register(cli: typer.Typer) -> None:
    cli.command()(health)
