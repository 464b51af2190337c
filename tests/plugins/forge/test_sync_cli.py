"""``ctx issues link|links|sync|conflicts|resolve`` against a live server and loopback GitHub."""

from __future__ import annotations

from typing import Any

import pytest
from github_server import GitHubServer, Repo
from live import live_server
from sync_kit import SCOPE, TOKEN

from ctx.core import App
from ctx.core.access import set_secret
from ctx.core.runtime import drain
from ctx.ui.cli import run


@pytest.fixture
def url(app: App) -> Any:
    with live_server(app) as served:
        yield served


def test_link_sync_and_resolve_a_conflict_from_the_shell(
    app: App,
    keys: Any,
    url: str,
    gh: GitHubServer,
    repo: Repo,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with app.connection() as conn:
        set_secret(conn, app.seal_key, "gh-token", TOKEN)
    monkeypatch.setenv("CTX_URL", url)
    monkeypatch.setenv("CTX_API_KEY", keys.make("admin-home", admin=True))
    link = ["issues", "link", "--scope", SCOPE, "--repo", "octo-org/hello"]
    link += ["--token-secret", "gh-token", "--base-url", gh.base_url]
    assert run(link, app) == 0
    assert "linked octo-hello <-> github:octo-org/hello" in capsys.readouterr().out
    assert run([*link[:-2]], app) == 2  # linked already
    assert "already linked" in capsys.readouterr().err

    monkeypatch.setenv("CTX_API_KEY", keys.make(SCOPE))
    n = gh.add_issue(repo, "From GitHub", "remote body")
    assert run(["issues", "sync"], app) == 0
    assert "created_local 1" in capsys.readouterr().out
    assert run(["issues", "edit", "1", "--body", "local body"], app) == 0
    gh.edit_issue(repo, n, body="remote edit")
    assert run(["issues", "sync"], app) == 0
    out = capsys.readouterr().out
    assert "conflicts 1" in out and "ctx issues conflicts" in out
    assert run(["issues", "conflicts"], app) == 0
    shown = capsys.readouterr().out
    assert '"local body"' in shown and '"remote edit"' in shown and "body:" in shown
    conflict_id = shown.split("conflict ", 1)[1].split(":", 1)[0]
    assert run(["issues", "resolve", conflict_id, "--take", "sideways"], app) == 2
    assert run(["issues", "resolve", conflict_id, "--take", "remote"], app) == 0
    drain(app, "issues.sync")
    assert run(["issues", "show", "1"], app) == 0
    assert "remote edit" in capsys.readouterr().out
    assert run(["issues", "links"], app) == 0
    assert "octo-hello <-> github:octo-org/hello" in capsys.readouterr().out
