"""The issue pages in real headless Chromium: file an issue with duplicate suggestions shown as
it is typed, then comment on it and close it, all without a full page load."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_kit import CHROMIUM, Watched, chromium, sign_in
from live import live_server
from playwright.sync_api import expect
from web_kit import make_key

from ctx.core import App, access
from ctx.core.runtime import drain
from ctx.plugins.issues import service
from ctx.plugins.issues.schemas import IssueCreate

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="needs Chromium (.ci/run installs Debian's chromium)"
)


@pytest.fixture
def page(app: App) -> Iterator[tuple[Watched, str]]:
    with chromium() as browser, live_server(app) as site:
        context = browser.new_context(viewport={"width": 1280, "height": 860})
        watched = Watched(context.new_page())
        try:
            yield watched, site
        finally:
            context.close()
        assert not watched.problems, watched.problems


def test_file_an_issue_seeing_its_duplicate_then_comment_and_close(
    app: App, page: tuple[Watched, str]
) -> None:
    watched, site = page
    p: Any = watched.page
    key = make_key(app, "repo-a")
    with app.connection() as conn:
        who = access.authenticate(conn, key)
    service.create(
        app, who, IssueCreate(title="Login fails with an expired token", body="Shows a 500.")
    )
    drain(app, "embed")
    sign_in(p, site, key)
    p.get_by_role("navigation").get_by_role("link", name="Issues", exact=True).click()
    expect(p.get_by_role("heading", level=1)).to_have_text("Issues")
    p.get_by_role("link", name="New issue").click()
    p.get_by_label("Title").fill("Login fails when the token expired")
    p.get_by_label("Title").press("Space")  # a keyup: the suggestions follow the draft
    duplicate = p.get_by_role("link", name="Login fails with an expired token")
    expect(duplicate.first).to_be_visible(timeout=15000)
    p.get_by_label("Description").fill("Also on staging.")
    p.get_by_role("button", name="File issue").click()
    expect(p.get_by_role("heading", level=1)).to_contain_text("Login fails when the token expired")
    assert p.url.endswith("/issues/repo-a/2")
    p.get_by_label("Comment").fill("Reproduced **twice**.")
    p.get_by_role("button", name="Comment").click()
    expect(p.locator(".markdown strong", has_text="twice")).to_be_visible()
    p.get_by_role("button", name="Close issue").click()
    expect(p.get_by_role("button", name="Reopen issue")).to_be_visible()
    assert service.show(app, who, 2)["state"] == "closed"
