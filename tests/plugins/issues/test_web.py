"""The issue tracker's workbench pages, in process: the list with filters, the board, one issue
with comments, history and Dream links, the create form with duplicate suggestions, the forms
with and without htmx and CSRF, scope isolation and escaping of untrusted text."""

from __future__ import annotations

import re
from collections.abc import Callable
from html.parser import HTMLParser

import pytest
from web_kit import Browser

from ctx.core import App, Principal, StoreRequest, access, blocks, graph

Web = Callable[..., Browser]


class Issues:
    """Issues filed through the pages' own form, for one signed-in browser."""

    def __init__(self, browser: Browser) -> None:
        self.b = browser

    def create(self, title: str, body: str = "", labels: str = "", assignees: str = "") -> str:
        data = {"title": title, "body": body, "labels": labels, "assignees": assignees}
        r = self.b.post("/issues/new", data)
        assert r.status_code == 303, r.text
        return str(r.headers["location"])


@pytest.fixture
def alice(web: Web) -> Browser:
    return web("repo-a")


@pytest.fixture
def filed(alice: Browser) -> Issues:
    return Issues(alice)


class Markup(HTMLParser):
    """What the page rules need: headings, unlabelled fields, inline script or style."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.headings: list[int] = []
        self.fields: list[dict[str, str]] = []
        self.labels: set[str] = set()
        self.inline: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if "style" in a or any(k.startswith("on") for k in a) or tag == "style":
            self.inline.append(tag)
        if tag == "script" and "src" not in a:
            self.inline.append("script")
        if re.fullmatch(r"h[1-6]", tag):
            self.headings.append(int(tag[1]))
        if tag == "label" and a.get("for"):
            self.labels.add(a["for"])
        if tag in ("input", "select", "textarea") and a.get("type") not in ("hidden", "submit"):
            self.fields.append(a)

    def check(self) -> None:
        assert self.headings.count(1) == 1, self.headings
        assert not [f for f in self.fields if f.get("id") not in self.labels], self.fields
        assert not self.inline, self.inline


def _page_and_fragment(b: Browser, url: str) -> str:
    full = b.get(url)
    assert full.status_code == 200, (url, full.text[:500])
    assert full.text.lstrip().lower().startswith("<!doctype html>")
    Markup(full.text).check()
    fragment = b.get(url, htmx=True)
    assert fragment.status_code == 200, url
    assert "<!doctype" not in fragment.text.lower() and "<main" not in fragment.text
    assert "<title>" in fragment.text
    return str(full.text)


# -- pages -------------------------------------------------------------------------------------


def test_every_issue_page_plain_and_as_fragment(alice: Browser, filed: Issues) -> None:
    url = filed.create("Crash on start", body="It **crashes**.", labels="bug")
    assert url == "/issues/repo-a/1"
    for page in ("/issues", "/issues?state=all", "/issues/board", "/issues/board?by=label",
                 "/issues/new", url):  # fmt: skip
        _page_and_fragment(alice, page)
    assert 'href="/issues"' in alice.get("/").text  # the nav entry


def test_the_list_filters_by_state_label_assignee_text_and_scope(
    alice: Browser, filed: Issues, web: Web
) -> None:
    filed.create("Crash on start", labels="bug", assignees="ann")
    filed.create("Dark mode colours", labels="ui")
    filed.create("Slow search", labels="bug, perf", assignees="bo")
    assert alice.post("/issues/repo-a/2/close", {"reason": "completed"}).status_code == 303

    def titles(query: str, b: Browser = alice) -> list[str]:
        page = b.get("/issues" + query)
        assert page.status_code == 200, page.text
        return re.findall(r'<a href="/issues/[^"]+/\d+">([^<]+)</a>', page.text)

    assert titles("") == ["Slow search", "Crash on start"]  # open by default, newest first
    assert titles("?state=closed") == ["Dark mode colours"]
    assert len(titles("?state=all")) == 3
    assert titles("?label=perf") == ["Slow search"]
    assert titles("?assignee=ann") == ["Crash on start"]
    assert titles("?text=search") == ["Slow search"]
    assert titles("?scope=repo-a&state=all&label=ui") == ["Dark mode colours"]
    reader = web("repo-b", ["repo-a"])
    assert titles("?scope=repo-b", reader) == []
    assert titles("?scope=repo-a", reader) == ["Slow search", "Crash on start"]


def test_the_list_answers_htmx_with_the_list_alone(alice: Browser, filed: Issues) -> None:
    filed.create("Crash on start", labels="bug")
    part = alice.get("/issues?label=bug", htmx=True, headers={"HX-Target": "issue-list"})
    assert part.status_code == 200
    assert part.text.startswith('<section id="issue-list"') and "<h1>" not in part.text
    assert "Crash on start" in part.text


def test_bad_filters_give_the_form_again_with_a_message(alice: Browser) -> None:
    bad = alice.get("/issues?state=maybe")
    assert bad.status_code == 422 and "state must be open, closed or all" in bad.text
    assert 'id="i-state"' in bad.text
    too_long = alice.get("/issues?text=" + "x" * 300)
    assert too_long.status_code == 422 and 'role="alert"' in too_long.text
    unreadable = alice.get("/issues?scope=repo-z")
    assert unreadable.status_code == 403 and "cannot read scope" in unreadable.text
    assert alice.get("/issues/board?by=colour").status_code == 422


def test_the_board_by_state_and_by_label(alice: Browser, filed: Issues) -> None:
    filed.create("Crash on start", labels="bug")
    filed.create("Dark mode colours", labels="ui, bug")
    filed.create("Write the docs")
    alice.post("/issues/repo-a/1/close", {"reason": "completed"})

    def columns(url: str) -> dict[str, list[str]]:
        page = alice.get(url)
        assert page.status_code == 200, page.text
        out = {}
        for section in re.findall(r'<section class="card".*?</section>', page.text, re.S):
            head = re.search(r"<h2[^>]*>([^<]+?) <span", section)
            assert head
            out[head.group(1)] = re.findall(r"#\d+ ([^<]+)</a>", section)
        return out

    assert columns("/issues/board") == {
        "open": ["Write the docs", "Dark mode colours"],
        "closed": ["Crash on start"],
    }
    assert columns("/issues/board?by=label") == {
        "bug": ["Dark mode colours", "Crash on start"],
        "ui": ["Dark mode colours"],
        "no label": ["Write the docs"],
    }


def _who(app: App, b: Browser) -> Principal:
    with app.connection() as conn:
        return access.authenticate(conn, b.key)


def test_the_detail_shows_comments_history_and_dream_links(
    app: App, alice: Browser, filed: Issues
) -> None:
    url = filed.create("Crash on start", body="# Steps\n\nRun it.", labels="bug", assignees="ann")
    assert alice.post(url + "/comment", {"body": "Seen on *arm64* too."}).status_code == 303
    note = blocks.store_block(
        app, _who(app, alice), StoreRequest(title="Runbook: start-up", content="How we start.")
    )
    with app.connection() as conn:
        row = conn.execute(
            "SELECT id::text AS id FROM context_blocks WHERE block_type = 'issue'"
        ).fetchone()
        assert row is not None
        assert graph.write_link(conn, row["id"], note["id"], "causal", 0.9) is not None
    page = alice.get(url)
    assert page.status_code == 200
    text = page.text
    assert "<h1>Crash on start <small>#1</small></h1>" in text
    assert "<h2>Steps</h2>" in text  # the description's heading sits below the page's h1
    assert "Seen on <em>arm64</em> too." in text
    assert f'href="/blocks/{note["id"]}">Runbook: start-up</a>' in text
    assert "<strong>created</strong>" in text and "<strong>commented</strong>" in text
    assert "ann" in text and ">bug</a>" in text


def test_comment_close_reopen_and_edit_through_the_forms(alice: Browser, filed: Issues) -> None:
    url = filed.create("Crash on start")
    r = alice.post(url + "/comment", {"body": "A first note."})
    assert r.status_code == 303 and r.headers["location"] == url + "?done=commented"
    assert "Comment added." in alice.get(r.headers["location"]).text
    r = alice.post(url + "/close", {"reason": "not_planned"})
    assert r.status_code == 303
    page = alice.get(url).text
    assert ">closed</span>" in page and "not planned" in page and "Reopen issue" in page
    again = alice.post(url + "/close", {"reason": "completed"})
    assert again.status_code == 409 and "already closed" in again.text
    r = alice.post(url + "/reopen", htmx=True)
    assert r.status_code == 200 and "Issue reopened." in r.text
    assert "<!doctype" not in r.text.lower() and "Close issue" in r.text
    r = alice.post(url + "/edit", {"labels": "bug, ui, bug", "assignees": "ann"}, htmx=True)
    assert r.status_code == 200 and "Labels and assignees saved." in r.text
    assert 'value="bug, ui"' in r.text and 'value="ann"' in r.text
    page = alice.get(url).text
    for kind in ("commented", "closed", "reopened", "edited"):
        assert f"<strong>{kind}</strong>" in page


def test_bad_form_input_comes_back_with_a_message(alice: Browser, filed: Issues) -> None:
    url = filed.create("Crash on start")
    empty = alice.post(url + "/comment", {"body": "   "})
    assert empty.status_code == 422 and 'role="alert"' in empty.text and "body" in empty.text
    odd = alice.post(url + "/close", {"reason": "bored"})
    assert odd.status_code == 422 and 'role="alert"' in odd.text
    no_title = alice.post("/issues/new", {"title": "", "body": "text"})
    assert no_title.status_code == 422 and 'id="n-title"' in no_title.text
    assert 'role="alert"' in no_title.text
    two_lines = alice.post("/issues/new", {"title": "a\nb"})
    assert two_lines.status_code == 422
    assert alice.get("/issues/repo-a/99").status_code == 404
    assert alice.get("/issues/repo-a/0").status_code == 422
    assert alice.post("/issues/repo-a/99/comment", {"body": "x"}).status_code == 404


def test_posts_without_the_csrf_token_are_refused(alice: Browser, filed: Issues) -> None:
    url = filed.create("Crash on start")
    for path, data in ((url + "/comment", {"body": "x"}), (url + "/close", {}),
                       (url + "/edit", {"labels": "x"}), ("/issues/new", {"title": "Other"})):  # fmt: skip
        r = alice.post(path, data, csrf=False)
        assert r.status_code == 403, path
        assert "security token" in r.text
    page = alice.get(url).text
    assert "No comments yet." in page and ">open</span>" in page
    assert "Other" not in alice.get("/issues").text


def test_create_with_suggestions_showing_a_near_duplicate(
    app: App, alice: Browser, filed: Issues
) -> None:
    filed.create(
        "Login fails with expired password token",
        body="Signing in with an expired password reset token shows a server error page.",
    )
    filed.create("Dark mode colours", body="The sidebar is too bright in dark mode.")
    blocks.store_block(
        app,
        _who(app, alice),
        StoreRequest(title="Password reset tokens", content="Reset tokens expire after an hour."),
    )
    draft = {"title": "Expired password token breaks login", "body": "server error on sign in"}
    part = alice.post("/issues/suggest", draft, htmx=True)
    assert part.status_code == 200
    assert part.text.startswith('<section id="suggestions"')
    first = re.search(r'<a href="([^"]+)">([^<]+)</a>', part.text)
    assert first and first.groups() == (
        "/issues/repo-a/1",
        "Login fails with expired password token",
    )
    assert "Password reset tokens" in part.text
    check = alice.post("/issues/new", {**draft, "action": "check"})  # without JavaScript
    assert check.status_code == 200
    assert "Likely duplicates" in check.text and 'href="/issues/repo-a/1"' in check.text
    assert 'value="Expired password token breaks login"' in check.text
    assert alice.post("/issues/suggest", {"title": ""}).text.count("<li>") == 0
    done = alice.post("/issues/new", {**draft, "labels": "auth"}, htmx=True)
    assert done.status_code == 200 and done.headers["HX-Push-Url"] == "/issues/repo-a/3"
    assert "Issue filed." in done.text and "<!doctype" not in done.text.lower()


def test_another_scope_neither_sees_nor_changes_the_issue(
    alice: Browser, filed: Issues, web: Web
) -> None:
    url = filed.create("Secret crash", body="Only repo-a knows.")
    bob = web("repo-b")
    assert bob.get(url).status_code == 403
    assert "Secret crash" not in bob.get("/issues?state=all").text
    assert "Secret crash" not in bob.get("/issues/board").text
    assert bob.post(url + "/comment", {"body": "sneaky"}).status_code == 403
    bob_url = Issues(bob).create("Bob's own")
    assert bob_url == "/issues/repo-b/1"
    assert "Secret crash" in alice.get(url).text  # bob's number 1 is another issue
    reader = web("repo-c", ["repo-a"])
    page = reader.get(url)
    assert page.status_code == 200 and "Read-only" in page.text and "/comment" not in page.text
    refused = reader.post(url + "/close", {"reason": "completed"})
    assert refused.status_code == 403 and "home scope" in refused.text
    assert ">open</span>" in alice.get(url).text


def test_untrusted_title_and_body_are_escaped_and_sanitised(alice: Browser, filed: Issues) -> None:
    url = filed.create(
        '<script>alert("t")</script>',
        body="<img src=x onerror=alert(1)> [x](javascript:alert(2)) **ok**",
        labels="<b>l</b>",
    )
    alice.post(url + "/comment", {"body": "<script>alert(3)</script>"})
    for page in (alice.get(url).text, alice.get("/issues").text, alice.get("/issues/board").text):
        assert "<script>alert" not in page
        assert "<b>l</b>" not in page
    detail = alice.get(url).text
    assert "&lt;script&gt;alert(&#34;t&#34;)&lt;/script&gt;" in detail
    assert "<img" not in detail and "&lt;img src=x" in detail
    assert 'href="javascript:' not in detail
    assert "<strong>ok</strong>" in detail


def _set_url(app: App, url: str) -> None:
    with app.connection() as conn:
        conn.execute(
            "UPDATE context_blocks SET metadata = metadata || jsonb_build_object('url', %s::text) "
            "WHERE block_type = 'issue'",
            (url,),
        )


def test_the_forge_link_is_shown_when_it_is_a_web_address(
    app: App, alice: Browser, filed: Issues
) -> None:
    url = filed.create("Synced from the forge")
    assert "On the forge" not in alice.get(url).text
    _set_url(app, "https://git.example/acme/app/issues/7")
    assert 'href="https://git.example/acme/app/issues/7"' in alice.get(url).text
    _set_url(app, "javascript:alert(1)")
    page = alice.get(url).text
    assert "On the forge" not in page and "javascript:" not in page
