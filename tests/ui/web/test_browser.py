"""The workbench end to end in real headless Chromium: what a person does, clicked through.

Each test serves a fresh store on a loopback port and drives Debian's Chromium through
Playwright. Console errors and CSP violations fail the test (tests/support/browser_kit.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_kit import CHROMIUM, Watched, chromium, sign_in
from live import live_server
from web_kit import make_key

from ctx.core import App

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="needs Chromium (.ci/run installs Debian's chromium)"
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.fixture
def site(app: App) -> Iterator[str]:
    with live_server(app) as base:
        yield base


@pytest.fixture
def page(browser: Any) -> Iterator[Watched]:
    context = browser.new_context(color_scheme="light", viewport={"width": 1280, "height": 860})
    watched = Watched(context.new_page())
    try:
        yield watched
    finally:
        context.close()
    assert not watched.problems, watched.problems


def test_sign_in_lands_on_the_dashboard_and_sign_out_leaves(app: App, site: str, page: Watched) -> None:
    p = page.page
    p.goto(f"{site}/")
    assert p.url.startswith(f"{site}/signin")
    p.get_by_label("API key").fill("ctx_wrong")
    p.get_by_role("button", name="Sign in").click()
    assert p.get_by_role("alert").inner_text() == "That key is unknown or revoked."
    sign_in(p, site, make_key(app, "team"))
    assert p.get_by_role("heading", level=1).inner_text() == "Dashboard"
    cookies = p.context.cookies()
    session = next(c for c in cookies if c["name"] == "ctx_session")
    assert session["httpOnly"] and session["sameSite"] == "Strict"
    assert p.evaluate("document.cookie") == ""  # scripts cannot read it
    p.get_by_role("button", name="Sign out").click()
    p.wait_for_url(f"{site}/signin")


def test_navigation_swaps_the_main_area_without_a_full_reload(
    app: App, site: str, page: Watched
) -> None:
    p = page.page
    sign_in(p, site, make_key(app, "team"))
    p.evaluate("window.__still_here = true")  # lost on a full page load
    p.get_by_role("link", name="Dashboard", exact=True).click()
    p.wait_for_load_state("networkidle")
    assert p.evaluate("window.__still_here") is True
    assert p.title() == "Dashboard · ctx"
