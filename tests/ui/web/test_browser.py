"""The workbench end to end in real headless Chromium: what a person does, clicked through.

Each test serves a fresh store on a loopback port and drives Debian's Chromium through
Playwright. Console errors and CSP violations fail the test (tests/support/browser_kit.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from backend_kit import add_backend
from browser_kit import CHROMIUM, Watched, chromium, shot, sign_in
from live import live_server
from openai_server import ToolCallReply
from playwright.sync_api import expect
from web_kit import make_key

from ctx.core import App, SearchRequest, StoreRequest, access, blocks

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="needs Chromium (.ci/run installs Debian's chromium)"
)


SAMPLE = [
    ("Database choice", "decisions", "We keep everything in PostgreSQL: ACID, joins, vectors."),
    ("Release checklist", "procedures", "1. Tag the release\n2. Run `make test`\n3. Publish"),
    ("Deploys on Fridays", "lessons", "Friday deploys caused two incidents; deploy Tue-Thu."),
    ("Postgres upgrade to 18", "decisions", "Upgrade planned for next quarter, after the audit."),
    ("On-call rota", "team", "Alice this week, Bob next week."),
]


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


def test_sign_in_lands_on_the_dashboard_and_sign_out_leaves(
    app: App, site: str, page: Watched
) -> None:
    p = page.page
    p.goto(f"{site}/")
    assert p.url.startswith(f"{site}/signin")
    shot(p, "signin")
    p.get_by_label("API key").fill("ctx_wrong")
    p.get_by_role("button", name="Sign in").click()
    assert p.get_by_role("alert").inner_text() == "That key is unknown or revoked."
    key = make_key(app, "team", admin=True)
    with app.connection() as conn:
        who = access.authenticate(conn, key)
    for title, category, content in SAMPLE:
        blocks.store_block(app, who, StoreRequest(title=title, content=content, category=category))
    sign_in(p, site, key)
    assert p.get_by_role("heading", level=1).inner_text() == "Dashboard"
    assert p.get_by_role("link", name=SAMPLE[0][0]).count() == 1  # recent writes
    shot(p, "dashboard")
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


def test_an_admin_changes_a_hot_setting_in_place(app: App, site: str, page: Watched) -> None:
    p = page.page
    sign_in(p, site, make_key(app, "ops", admin=True))
    p.get_by_role("link", name="Admin").click()
    p.get_by_role("link", name="Settings").first.click()
    p.wait_for_url(f"{site}/admin/settings")
    field = p.get_by_label("query.default_limit", exact=True)
    row = p.locator(".setting", has=field)
    field.fill("12")
    row.get_by_role("button", name="Save").click()
    saved = p.locator(".setting", has=p.get_by_label("query.default_limit", exact=True))
    saved.get_by_role("status").wait_for()
    shot(p, "admin-settings")
    assert saved.locator(".badge").first.inner_text() == "database"
    assert app.settings["query.default_limit"] == 12  # in effect at once, no restart
    field = p.get_by_label("query.default_limit", exact=True)
    field.fill("100000")  # out of range: the browser holds the form back (min/max on the input)
    p.locator(".setting", has=field).get_by_role("button", name="Save").click()
    assert field.evaluate("el => el.validity.rangeOverflow") is True
    assert app.settings["query.default_limit"] == 12


def test_search_open_a_block_and_edit_it(app: App, site: str, page: Watched) -> None:
    key = make_key(app, "team")
    with app.connection() as conn:
        who = access.authenticate(conn, key)
    for i in range(23):
        blocks.store_block(app, who, StoreRequest(title=f"Note {i:02d}", content=f"note {i}"))
    blocks.store_block(
        app,
        who,
        StoreRequest(
            title="Deploy notes",
            content="# Big\n\nWe **deploy** on Fridays.",
            category="ops",
            sensitivity="personal",
        ),
    )
    p = page.page
    sign_in(p, site, key)
    p.get_by_role("link", name="Blocks", exact=True).click()
    p.wait_for_selector("#results")
    p.evaluate("window.__still_here = true")
    p.get_by_role("link", name="Older →").click()
    p.wait_for_url("**before=**")
    expect(p.locator("#results .block-title")).to_have_count(4)
    p.get_by_label("Search").fill("deploy")
    p.wait_for_url("**q=deploy**")
    expect(p.locator("#results .block-title")).to_have_count(1)
    shot(p, "blocks-search")
    p.locator("#results .block-title").first.click()
    p.wait_for_selector("#detail h2.detail-title")
    assert p.locator("#detail strong").inner_text() == "deploy"  # Markdown rendered
    shot(p, "block-detail")
    p.locator("#detail").get_by_role("link", name="Edit").click()
    p.wait_for_selector("form.block-form")
    p.get_by_label("Sensitivity").select_option("public")
    p.get_by_role("button", name="Save changes").click()
    p.wait_for_selector("text=This lowers the sensitivity")  # asked before it is saved
    p.get_by_label("Yes, lower the sensitivity to public").check()
    p.get_by_role("button", name="Save changes").click()
    p.wait_for_selector("h1.detail-title")
    assert "public" in p.locator(".badges").inner_text()
    assert p.evaluate("window.__still_here") is True  # all of it without a full page load
    stored = blocks.search_blocks(app, who, SearchRequest(query="deploy"))
    assert len(stored) == 1
    with app.connection() as conn:
        row = conn.execute("SELECT sensitivity FROM context_blocks WHERE title = 'Deploy notes'")
        assert row.fetchone()["sensitivity"] == "public"


def test_ask_a_question_and_follow_a_citation(app: App, srv: Any, site: str, page: Watched) -> None:
    key = make_key(app, "team")
    with app.connection() as conn:
        who = access.authenticate(conn, key)
    stored = blocks.store_block(app, who, StoreRequest(
        title="Harbour location", content="The harbour lies north of the old mill."))  # fmt: skip
    add_backend(app, srv, ["synthesis"])
    srv.chat_default = "The harbour lies **north** of the old mill [1]."
    p = page.page
    sign_in(p, site, key)
    p.get_by_role("link", name="Ask", exact=True).click()
    p.get_by_label("Question").fill("Where is the harbour?")
    p.get_by_role("button", name="Ask").click()
    p.wait_for_url("**/ask?q=Where*harbour*")  # the question is in the address: shareable
    answer = p.locator("#ask-result")
    answer.locator("strong", has_text="north").wait_for()
    shot(p, "ask")
    cite = answer.locator(f'a[href="/blocks/{stored["id"]}"]').first
    cite.click()
    p.wait_for_url(f"{site}/blocks/{stored['id']}")
    assert p.get_by_role("heading", level=1).inner_text() == "Harbour location"


def test_a_streamed_chat_answer_arrives_with_its_tool_card(
    app: App, srv: Any, site: str, page: Watched
) -> None:
    key = make_key(app, "team")
    with app.connection() as conn:
        who = access.authenticate(conn, key)
    stored = blocks.store_block(app, who, StoreRequest(
        title="Harbour location", content="The harbour lies north of the old mill."))  # fmt: skip
    add_backend(app, srv, ["chat"])
    srv.stream_delay = 0.1
    words = " ".join(f"word{i}" for i in range(20))
    srv.chat_replies = [
        ToolCallReply([("search", {"query": "harbour"})]),
        f"The harbour lies north of the old mill [{stored['id'][:8]}]. {words}",
    ]
    p = page.page
    sign_in(p, site, key)
    p.get_by_role("link", name="Chat", exact=True).click()
    p.get_by_label("Message").fill("Where is the harbour?")
    p.get_by_role("button", name="Send").click()
    # the text grows while the model writes: seen before the finished answer replaces it
    p.wait_for_function(
        "() => { const s = document.querySelector('#chat-log .msg.assistant p.streaming');"
        " return s && s.textContent.includes('word3') && !s.textContent.includes('word19'); }"
    )
    meta = p.locator("#chat-log .msg.assistant .chat-meta")
    meta.filter(has_text="peer").wait_for()
    card = p.locator("#chat-log .tool-card")
    assert card.locator(".badge").inner_text() == "search"
    link = p.locator(f'#chat-log .msg.assistant a[href="/blocks/{stored["id"]}"]')
    assert link.count() == 1
    shot(p, "chat")
    p.reload()  # the session was stored: the turn is still there
    p.locator("#chat-log .msg.assistant", has_text="north of the old mill").first.wait_for()
