"""The workbench shows sync conflicts and resolves them; an issue page says where its sync stands."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sync_kit import SCOPE, Synced
from web_kit import Browser, make_key

from ctx.ui import create_app


@pytest.fixture
def conflicted(synced: Synced) -> tuple[Synced, int, int]:
    gh, repo = synced.gh, synced.repo
    n = gh.add_issue(repo, "Shared", "Base <b>body</b>")
    synced.sync()
    number = synced.local(n)["number"]
    synced.api("PATCH", f"/{number}", json={"body": "Ours <script>alert(1)</script>"})
    gh.edit_issue(repo, n, body="Theirs")
    assert synced.sync()["conflicts"] == 1
    return synced, n, number


def _browser(synced: Synced, home: str, allowed: list[str] | None = None) -> Iterator[Browser]:
    with TestClient(create_app(synced.app), raise_server_exceptions=False) as client:
        b = Browser(client, make_key(synced.app, home, allowed))
        b.sign_in()
        yield b


def test_the_conflicts_page_shows_both_versions_and_takes_a_side(
    conflicted: tuple[Synced, int, int],
) -> None:
    synced, n, number = conflicted
    for b in _browser(synced, SCOPE):
        page = b.get("/issues/conflicts")
        assert page.status_code == 200
        html = page.text
        assert "Base &lt;b&gt;body&lt;/b&gt;" in html and "Theirs" in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>alert" not in html
        assert b.get("/issues/conflicts", htmx=True).text.count("<html") == 0
        issue_page = b.get(f"/issues/{SCOPE}/{number}").text
        assert "pick a side" in issue_page
        (conflict,) = synced.conflicts()
        url = f"/issues/conflicts/{conflict['id']}/resolve"
        assert b.post(url, {"take": "remote"}, csrf=False).status_code == 403
        assert b.post(url, {"take": "sideways"}).status_code == 422
        done = b.post(url, {"take": "remote"})
        assert done.status_code == 303
        assert "No open conflicts" in b.get(done.headers["location"]).text
        again = b.post(url, {"take": "local"}, htmx=True)
        assert again.status_code == 409 and "already resolved" in again.text
    synced.drain()
    assert synced.local(n)["body"] == "Theirs"
    for b in _browser(synced, SCOPE):
        assert "in sync" in b.get(f"/issues/{SCOPE}/{number}").text


def test_a_reader_of_another_scope_sees_it_read_only_and_a_stranger_not_at_all(
    conflicted: tuple[Synced, int, int],
) -> None:
    synced, _, _ = conflicted
    (conflict,) = synced.conflicts()
    for b in _browser(synced, "watcher", [SCOPE]):
        page = b.get("/issues/conflicts").text
        assert f"Conflict {conflict['id']}" in page and "Read-only here" in page
        refused = b.post(f"/issues/conflicts/{conflict['id']}/resolve", {"take": "local"})
        assert refused.status_code == 403
    for b in _browser(synced, "stranger"):
        page = b.get("/issues/conflicts").text
        assert "No open conflicts" in page and "Shared" not in page
        missing = b.post(f"/issues/conflicts/{conflict['id']}/resolve", {"take": "local"})
        assert missing.status_code == 404
    assert len(synced.conflicts()) == 1
