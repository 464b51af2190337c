"""``ctx tenants`` and ``ctx keys create --tenant`` against a real server: the commands an
operator and a tenant owner type, their output and their refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest
from live import live_server

from ctx.core import App
from ctx.ui.cli import run


def test_an_operator_and_an_owner_run_their_tenants_from_the_cli(
    app: App, keys: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    admin = keys.make("ops", admin=True)
    with live_server(app) as url:
        monkeypatch.setenv("CTX_URL", url)
        monkeypatch.setenv("CTX_API_KEY", admin)
        assert run(["tenants", "create", "acme", "--display-name", "Acme Corp"], app) == 0
        assert run(["tenants", "create", "globex"], app) == 0
        capsys.readouterr()
        assert run(["tenants", "add-key", "acme", "--home-scope", "acme", "--role", "owner",
                    "--json"], app) == 0  # fmt: skip
        owner = json.loads(capsys.readouterr().out)["api_key"]
        monkeypatch.setenv("CTX_API_KEY", owner)
        assert run(["tenants", "add-scope", "acme", "acme-research"], app) == 0
        assert run(["tenants", "grant", "globex", "--scope", "acme-research"], app) == 0
        capsys.readouterr()
        assert run(["tenants", "show", "acme", "--json"], app) == 0
        shown = json.loads(capsys.readouterr().out)
        assert shown["scopes"] == ["acme", "acme-research"]
        assert shown["grants"]["scopes_shared"] == [{"scope": "acme-research", "tenant": "globex"}]
        assert run(["tenants", "list", "--json"], app) == 0
        assert [t["name"] for t in json.loads(capsys.readouterr().out)] == ["acme"]
        # an owner cannot reach another tenant, nor create tenants
        assert run(["tenants", "show", "globex"], app) == 2
        assert "no tenant 'globex'" in capsys.readouterr().err
        assert run(["tenants", "create", "initech"], app) == 2
        assert run(["tenants", "grant", "globex"], app) == 2  # neither --scope nor --block
        capsys.readouterr()
        assert run(["tenants", "revoke", "globex", "--scope", "acme-research"], app) == 0

        monkeypatch.setenv("CTX_API_KEY", admin)
        assert run(["tenants", "delete", "acme"], app) == 2  # it still has an active key
        assert "active key" in capsys.readouterr().err
        assert run(["tenants", "create", "initech"], app) == 0
        assert run(["tenants", "delete", "initech"], app) == 0
        # keys on the database, as `ctx keys` always works (last: it closes the app)
        assert run(["keys", "create", "--tenant", "globex", "--home-scope", "globex",
                    "--json"], app) == 0  # fmt: skip
        capsys.readouterr()
        assert run(["keys", "create", "--tenant", "globex", "--home-scope", "acme"], app) == 2
        assert "of tenant 'acme'" in capsys.readouterr().err
