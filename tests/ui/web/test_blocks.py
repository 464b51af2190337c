"""The blocks pages: search and browse with facets, keyset pages, the detail panel, and the forms
that create, edit, archive and delete, each with and without htmx."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from web_kit import Browser, make_key

from ctx.core import App, Principal, StoreRequest, access, blocks, graph, temporal

LINK_RE = re.compile(r'<a class="block-title" href="/blocks/([0-9a-f-]{36})"')
OLDER_RE = re.compile(r'<a href="([^"]+)"[^>]*rel="next">')
NEWER_RE = re.compile(r'<a href="([^"]+)"[^>]*rel="prev">')


def _who(app: App, key: str) -> Principal:
    with app.connection() as conn:
        return access.authenticate(conn, key)


def _store(app: App, who: Principal, title: str, content: str = "body", **extra: Any) -> str:
    origin = extra.pop("origin", "api")
    req = StoreRequest.model_validate({"title": title, "content": content, **extra})
    return str(blocks.store_block(app, who, req, origin=origin)["id"])


def _row(app: App, block_id: str) -> dict[str, Any] | None:
    with app.connection() as conn:
        return conn.execute(
            "SELECT title, content, category, block_type, tags, sensitivity, is_archived, "
            "occurred_at FROM context_blocks WHERE id = %s",
            (block_id,),
        ).fetchone()


def _ids(page: str) -> list[str]:
    return LINK_RE.findall(page)


@pytest.fixture
def team(app: App, browser: Browser) -> Principal:
    return _who(app, browser.key)


def test_every_page_answers_with_and_without_htmx(
    app: App, browser: Browser, team: Principal
) -> None:
    block_id = _store(app, team, "Deploy notes", "We deploy on Fridays.", tags=["ops"])
    for url in [
        "/blocks",
        "/blocks?q=deploy",
        "/blocks?archived=1",
        f"/blocks/{block_id}",
        "/blocks/new",
        f"/blocks/{block_id}/edit",
        f"/blocks/{block_id}/delete",
    ]:
        full = browser.get(url)
        assert full.status_code == 200, url
        assert full.text.startswith("<!doctype html>") and '<main id="main"' in full.text, url
        assert "<script>" not in full.text and " style=" not in full.text, url
        part = browser.get(url, htmx=True)
        assert part.status_code == 200, url
        assert "<!doctype" not in part.text and "<main" not in part.text, url
        assert "<title>" in part.text and "<h1" in part.text, url  # the page, as a fragment
        # a history restore gets the whole page again
        restore = browser.get(url, htmx=True, headers={"HX-History-Restore-Request": "true"})
        assert restore.text.startswith("<!doctype html>"), url


def test_htmx_swaps_of_the_results_and_the_detail_get_the_partials(
    app: App, browser: Browser, team: Principal
) -> None:
    block_id = _store(app, team, "Deploy notes", "We deploy on Fridays.")
    results = browser.get("/blocks?q=deploy", htmx=True, headers={"HX-Target": "results"})
    assert results.status_code == 200
    assert results.text.startswith('<section id="results"')
    assert "<title>" not in results.text and "<h1" not in results.text
    assert _ids(results.text) == [block_id]
    # the list links open the detail in the panel, the plain link opens the page
    assert f'hx-get="/blocks/{block_id}" hx-target="#detail"' in results.text
    panel = browser.get(f"/blocks/{block_id}", htmx=True, headers={"HX-Target": "detail"})
    assert panel.text.startswith("<article") and "<title>" not in panel.text
    # a level below the page's h1, focused when it arrives
    assert '<h2 class="detail-title" tabindex="-1" autofocus>Deploy notes</h2>' in panel.text
    assert f'href="/blocks/{block_id}">Open as a page' in panel.text
    page = browser.get(f"/blocks/{block_id}")
    assert '<h1 class="detail-title">Deploy notes</h1>' in page.text
    # the search form swaps the results and records the URL
    index = browser.get("/blocks")
    assert 'hx-get="/blocks" hx-target="#results" hx-swap="outerHTML" hx-push-url="true"' in (
        index.text
    )


def test_search_and_listing_narrow_by_each_facet(
    app: App, browser: Browser, team: Principal
) -> None:
    shared = _who(app, make_key(app, "shared"))
    a = _store(app, team, "Deploy runbook", "deploy steps", category="ops", tags=["infra"])
    b = _store(app, team, "Deploy retro", "deploy went fine", category="notes",
               block_type="reference")  # fmt: skip
    c = _store(app, shared, "Deploy policy", "deploy rules", category="ops", tags=["infra"])
    d = _store(app, team, "Lunch menu", "pasta", category="notes")

    def found(url: str) -> set[str]:
        page = browser.get(url, htmx=True, headers={"HX-Target": "results"})
        assert page.status_code == 200, (url, page.text)
        return set(_ids(page.text))

    assert found("/blocks") == {a, b, c, d}
    assert found("/blocks?q=deploy") == {a, b, c}
    for facet, expected in [
        ("category=ops", {a, c}),
        ("tag=infra", {a, c}),
        ("scope=shared", {c}),
        ("scope=team", {a, b}),
        ("type=reference", {b}),
    ]:
        assert found(f"/blocks?q=deploy&{facet}") == expected, facet
    assert found("/blocks?category=notes") == {b, d}
    assert found("/blocks?tag=infra&scope=team") == {a}
    assert found("/blocks?type=reference") == {b}
    assert found("/blocks?q=pasta&category=ops") == set()
    # the facet selects offer what the key can read, with counts
    page = browser.get("/blocks").text
    assert '<option value="shared">shared (1)</option>' in page
    assert '<option value="ops">ops (2)</option>' in page
    assert '<option value="infra">infra (2)</option>' in page
    assert '<option value="reference">reference (1)</option>' in page
    chosen = browser.get("/blocks?category=ops&type=knowledge").text
    assert '<option value="ops" selected>' in chosen
    assert '<option value="knowledge" selected>' in chosen
    # a search hit shows its snippet, rendered safely
    hit = browser.get("/blocks?q=rules").text
    assert '<p class="snippet">deploy <mark>rules</mark></p>' in hit


def test_keyset_pages_cover_every_block_once_in_both_directions(
    app: App, browser: Browser, team: Principal
) -> None:
    ids = {_store(app, team, f"Note {i:02d}", f"small note {i}") for i in range(25)}
    # ties on updated_at are ordered by id: half the blocks share one timestamp
    with app.connection() as conn:
        conn.execute(
            "UPDATE context_blocks SET updated_at = '2026-01-01T00:00:00Z' WHERE title < 'Note 12'"
        )
        order = [
            str(r["id"])
            for r in conn.execute(
                "SELECT id FROM context_blocks ORDER BY updated_at DESC, id DESC"
            ).fetchall()
        ]
    seen: list[str] = []
    pages = []
    url: str | None = "/blocks"
    while url:
        page = browser.get(url, htmx=True, headers={"HX-Target": "results"})
        assert page.status_code == 200
        assert "OFFSET" not in url and "offset" not in url
        seen += _ids(page.text)
        pages.append(page.text)
        older = OLDER_RE.search(page.text)
        url = html.unescape(older.group(1)) if older else None
    assert len(pages) == 2
    assert seen == order and set(seen) == ids  # newest first, none twice, none missing
    assert NEWER_RE.search(pages[0]) is None  # the first page has nothing newer
    newer = NEWER_RE.search(pages[1])
    assert newer is not None
    back = browser.get(html.unescape(newer.group(1)), htmx=True, headers={"HX-Target": "results"})
    assert _ids(back.text) == order[:20]
    # the whole page works with a cursor too (a reload of a pushed URL)
    full = browser.get(html.unescape(OLDER_RE.search(pages[0]).group(1)))  # type: ignore[union-attr]
    assert full.status_code == 200 and _ids(full.text) == order[20:]


def test_another_scope_never_shows(app: App, browser: Browser, team: Principal) -> None:
    secret = _who(app, make_key(app, "secret"))
    hidden = _store(app, secret, "Hidden plan", "merger rumours", category="boardroom",
                    tags=["confidential"])  # fmt: skip
    _store(app, team, "Team plan", "rumours of lunch")
    for url in ["/blocks", "/blocks?q=rumours", "/blocks?q=merger", "/blocks?archived=1"]:
        page = browser.get(url).text
        assert "Hidden plan" not in page and hidden not in page, url
        assert "secret" not in page and "boardroom" not in page and "confidential" not in page, url
    assert browser.get(f"/blocks/{hidden}").status_code == 404
    assert browser.get(f"/blocks/{hidden[:8]}").status_code == 404
    assert browser.get(f"/blocks/{hidden}", htmx=True).status_code == 404
    assert browser.get(f"/blocks/{hidden}/edit").status_code == 404
    assert browser.post(f"/blocks/{hidden}/delete").status_code == 404
    assert browser.post(f"/blocks/{hidden}/archive").status_code == 404
    assert browser.get("/blocks?scope=secret").status_code == 403
    assert _row(app, hidden) is not None


def test_private_thread_events_are_listed_only_in_their_category(
    app: App, browser: Browser, team: Principal
) -> None:
    # a governed thread's event, as the governor writes it
    event = _store(app, team, "turn 1", "user asked about deploys", category="thread/s1",
                   block_type="event", origin="governor")  # fmt: skip
    other = _store(app, team, "Deploy notes", "deploys on Fridays")
    listing = browser.get("/blocks").text
    assert _ids(listing) == [other]
    assert "thread/s1" not in listing and '<option value="event"' not in listing
    assert event not in browser.get("/blocks?q=deploys").text
    assert event not in browser.get("/blocks?type=event").text
    named = browser.get("/blocks?category=thread/s1").text
    assert _ids(named) == [event]
    assert '<option value="thread/s1" selected>' in named


def test_create_a_block(app: App, browser: Browser) -> None:
    form = browser.get("/blocks/new").text
    assert 'name="csrf_token"' in form and '<label for="b-title">' in form
    assert '<option value="knowledge" selected>' in form
    assert '<option value="event"' not in form  # the governor writes thread events
    answer = browser.post(
        "/blocks",
        {
            "title": "Deploy notes",
            "content": "line one\r\nline two",
            "category": "ops",
            "block_type": "reference",
            "tags": "ops, deploy, ,ops",
            "sensitivity": "personal",
            "occurred_at": "2026-03-23",
        },
    )
    assert answer.status_code == 303
    block_id = answer.headers["location"].removeprefix("/blocks/")
    row = _row(app, block_id)
    assert row is not None
    assert row["title"] == "Deploy notes" and row["content"] == "line one\nline two"
    assert row["category"] == "ops" and row["block_type"] == "reference"
    assert row["tags"] == ["ops", "deploy"] and row["sensitivity"] == "personal"
    assert row["occurred_at"].isoformat().startswith("2026-03-23")
    # with htmx the answer is a client-side navigation to the new block
    hx = browser.post("/blocks", {"title": "Second", "content": "x", "block_type": "knowledge"},
                      htmx=True)  # fmt: skip
    assert hx.status_code == 200
    location = json.loads(hx.headers["hx-location"])
    assert location["target"] == "#main" and location["path"].startswith("/blocks/")


def test_create_needs_the_csrf_token(app: App, browser: Browser) -> None:
    refused = browser.post("/blocks", {"title": "Sneaky", "content": "x"}, csrf=False)
    assert refused.status_code == 403 and "security token" in refused.text
    with app.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM context_blocks").fetchone()["n"] == 0


def test_a_refused_form_comes_back_with_its_input(app: App, browser: Browser) -> None:
    typed = {
        "title": "   ",
        "content": "precious words <b>typed</b>",
        "category": "ops",
        "block_type": "knowledge",
        "tags": "a, b",
    }
    empty = browser.post("/blocks", typed)
    assert empty.status_code == 422
    assert "title must be one line, not empty" in empty.text
    assert "precious words &lt;b&gt;typed&lt;/b&gt;" in empty.text
    assert 'value="a, b"' in empty.text and 'value="ops"' in empty.text
    unknown = browser.post("/blocks", {**typed, "title": "T", "block_type": "nonsense"})
    assert unknown.status_code == 422 and "not one you can pick" in unknown.text
    bad_date = browser.post("/blocks", {**typed, "title": "T", "occurred_at": "last tuesday"})
    assert bad_date.status_code == 422 and "occurred_at" in bad_date.text
    assert 'value="last tuesday"' in bad_date.text
    bad_level = browser.post("/blocks", {**typed, "title": "T", "sensitivity": "secret"})
    assert bad_level.status_code == 422 and "sensitivity" in bad_level.text
    thread = browser.post("/blocks", {**typed, "title": "T", "category": "thread/x"})
    assert thread.status_code == 403 and "governor" in thread.text
    assert "precious words" in thread.text
    # htmx swaps 4xx answers too: the form comes back as the main area's fragment
    hx = browser.post("/blocks", typed, htmx=True)
    assert hx.status_code == 422 and "<!doctype" not in hx.text and "precious words" in hx.text
    with app.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM context_blocks").fetchone()["n"] == 0


def test_create_asks_before_replacing_a_block_with_the_same_key(
    app: App, browser: Browser, team: Principal
) -> None:
    old = _store(app, team, "Deploy notes", "old text", category="ops")
    data = {"title": "Deploy notes", "content": "new text", "category": "ops",
            "block_type": "knowledge"}  # fmt: skip
    asked = browser.post("/blocks", data)
    assert asked.status_code == 409 and "already exists" in asked.text
    assert f'name="replace" value="{old}" required' in asked.text
    assert _row(app, old)["content"] == "old text"  # type: ignore[index]
    done = browser.post("/blocks", {**data, "replace": old})
    assert done.status_code == 303 and done.headers["location"] == f"/blocks/{old}"
    assert _row(app, old)["content"] == "new text"  # type: ignore[index]


def test_edit_a_block(app: App, browser: Browser, team: Principal) -> None:
    block_id = _store(app, team, "Deploy notes", "old", category="ops", tags=["a"],
                      occurred_at="2026-03-23T10:00:00Z")  # fmt: skip
    form = browser.get(f"/blocks/{block_id}/edit").text
    assert 'value="Deploy notes"' in form and 'value="a"' in form
    assert 'value="2026-03-23T10:00:00+00:00"' in form
    assert "\nold</textarea>" in form
    changed = {
        "title": "Deploy notes v2",
        "content": "new",
        "category": "ops",
        "block_type": "knowledge",
        "tags": "a, b",
        "sensitivity": "internal",
        "occurred_at": "",
    }
    refused = browser.post(f"/blocks/{block_id}", changed, csrf=False)
    assert refused.status_code == 403
    assert _row(app, block_id)["title"] == "Deploy notes"  # type: ignore[index]
    saved = browser.post(f"/blocks/{block_id}", changed)
    assert saved.status_code == 303 and saved.headers["location"] == f"/blocks/{block_id}"
    row = _row(app, block_id)
    assert row is not None and row["title"] == "Deploy notes v2" and row["content"] == "new"
    assert row["tags"] == ["a", "b"] and row["occurred_at"] is None
    hx = browser.post(f"/blocks/{block_id}", {**changed, "content": "newer"}, htmx=True)
    assert json.loads(hx.headers["hx-location"])["path"] == f"/blocks/{block_id}"
    empty = browser.post(f"/blocks/{block_id}", {**changed, "title": ""})
    assert empty.status_code == 422 and "must not be empty" in empty.text
    assert "\nnewer</textarea>" not in empty.text and "\nnew</textarea>" in empty.text


def test_blocks_outside_the_home_scope_are_read_only(
    app: App, browser: Browser, team: Principal
) -> None:
    shared = _who(app, make_key(app, "shared"))
    block_id = _store(app, shared, "Shared notes", "read me")
    page = browser.get(f"/blocks/{block_id}").text
    assert "Read-only" in page and f"/blocks/{block_id}/edit" not in page
    assert f"/blocks/{block_id}/delete" not in page
    assert browser.get(f"/blocks/{block_id}/edit").status_code == 403
    assert browser.get(f"/blocks/{block_id}/delete").status_code == 403
    post = browser.post(f"/blocks/{block_id}", {"title": "Mine now", "content": "x",
                                                 "block_type": "knowledge"})  # fmt: skip
    assert post.status_code == 403
    assert browser.post(f"/blocks/{block_id}/archive").status_code == 403
    assert browser.post(f"/blocks/{block_id}/delete").status_code == 403
    row = _row(app, block_id)
    assert row is not None and row["title"] == "Shared notes" and not row["is_archived"]


def test_lowering_the_sensitivity_asks_first(app: App, browser: Browser, team: Principal) -> None:
    block_id = _store(app, team, "Health notes", "private", sensitivity="personal")
    fields = {"title": "Health notes", "content": "private", "category": "general",
              "block_type": "knowledge", "tags": "", "sensitivity": "public"}  # fmt: skip
    asked = browser.post(f"/blocks/{block_id}", fields)
    assert asked.status_code == 422
    assert "This lowers the sensitivity" in asked.text
    assert 'name="confirm_lower" value="1" required' in asked.text
    assert '<option value="public" selected>' in asked.text  # the choice is kept
    assert _row(app, block_id)["sensitivity"] == "personal"  # type: ignore[index]
    raised = browser.post(f"/blocks/{block_id}", {**fields, "sensitivity": "credentials"})
    assert raised.status_code == 303  # raising needs no confirmation
    assert _row(app, block_id)["sensitivity"] == "credentials"  # type: ignore[index]
    confirmed = browser.post(f"/blocks/{block_id}", {**fields, "confirm_lower": "1"})
    assert confirmed.status_code == 303
    assert _row(app, block_id)["sensitivity"] == "public"  # type: ignore[index]


def test_archive_and_unarchive(app: App, browser: Browser, team: Principal) -> None:
    block_id = _store(app, team, "Old plan", "superseded thinking")
    assert browser.post(f"/blocks/{block_id}/archive", csrf=False).status_code == 403
    done = browser.post(f"/blocks/{block_id}/archive")
    assert done.status_code == 303 and done.headers["location"] == f"/blocks/{block_id}"
    assert _row(app, block_id)["is_archived"]  # type: ignore[index]
    assert block_id not in browser.get("/blocks").text
    assert _ids(browser.get("/blocks?archived=1").text) == [block_id]
    page = browser.get(f"/blocks/{block_id}").text
    assert "archived</span>" in page and f"/blocks/{block_id}/unarchive" in page
    # from the panel with htmx: the article comes back, and the list is told to refresh
    hx = browser.post(f"/blocks/{block_id}/unarchive", {"view": "panel"}, htmx=True)
    assert hx.status_code == 200 and hx.headers["hx-trigger"] == "blocksChanged"
    assert hx.text.startswith("<article") and "Back from the archive" in hx.text
    assert '<h2 class="detail-title"' in hx.text
    assert not _row(app, block_id)["is_archived"]  # type: ignore[index]
    assert _ids(browser.get("/blocks").text) == [block_id]


def test_delete_confirms_first(app: App, browser: Browser, team: Principal) -> None:
    block_id = _store(app, team, "Scratch", "throwaway")
    page = browser.get(f"/blocks/{block_id}").text
    assert 'hx-confirm="Delete “Scratch” for good?' in page
    assert f'href="/blocks/{block_id}/delete"' in page  # the path without JavaScript
    confirm = browser.get(f"/blocks/{block_id}/delete").text
    assert "Delete “Scratch”?" in confirm and 'name="csrf_token"' in confirm
    assert browser.post(f"/blocks/{block_id}/delete", csrf=False).status_code == 403
    assert _row(app, block_id) is not None
    gone = browser.post(f"/blocks/{block_id}/delete")
    assert gone.status_code == 303 and gone.headers["location"] == "/blocks"
    assert _row(app, block_id) is None
    assert browser.get(f"/blocks/{block_id}").status_code == 404
    other = _store(app, _who(app, browser.key), "Scratch 2", "throwaway")
    hx = browser.post(f"/blocks/{other}/delete", htmx=True)
    assert json.loads(hx.headers["hx-location"]) == {"path": "/blocks", "target": "#main"}


def test_untrusted_content_is_rendered_harmless(
    app: App, browser: Browser, team: Principal
) -> None:
    block_id = _store(
        app,
        team,
        "<script>alert(2)</script> title",
        "# Heading\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1)) and "
        "[ok](https://example.org)",
        tags=['"><img src=x onerror=alert(3)>'],
    )
    for page in (
        browser.get(f"/blocks/{block_id}").text,
        browser.get(f"/blocks/{block_id}", htmx=True, headers={"HX-Target": "detail"}).text,
        browser.get("/blocks").text,
        browser.get(f"/blocks/{block_id}/edit").text,
    ):
        assert "<script>alert" not in page and 'href="javascript' not in page
        assert "javascript:" not in page.replace("[x](javascript:alert(1))", "")
        assert "<img" not in page
    detail = browser.get(f"/blocks/{block_id}").text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in detail
    assert 'href="https://example.org" rel="noopener noreferrer nofollow"' in detail
    # the content's headings sit below the page's: one h1 on the page, h3 in the panel
    assert detail.count("<h1") == 1 and "<h2>Heading</h2>" in detail
    panel = browser.get(f"/blocks/{block_id}", htmx=True, headers={"HX-Target": "detail"}).text
    assert "<h1" not in panel and "<h3>Heading</h3>" in panel


def test_bad_input_gives_4xx_pages(app: App, browser: Browser, team: Principal) -> None:
    block_id = _store(app, team, "Real", "x")
    for url, status in [
        ("/blocks/zzzz", 404),
        ("/blocks/12", 404),
        ("/blocks/" + "a" * 40, 404),
        ("/blocks/00000000-0000-0000-0000-000000000000", 404),
        ("/blocks/00000000-0000-0000-0000-000000000000/edit", 404),
        ("/blocks/not-a-block/delete", 404),
        ("/blocks?before=garbage", 422),
        ("/blocks?after=2026-01-01|nope", 422),
        ("/blocks?before=2026-01-01T00:00:00|00000000-0000-0000-0000-000000000000", 422),
        ("/blocks?scope=Bad%20Scope", 403),
        ("/blocks?q=" + "x" * 2100, 422),
    ]:
        page = browser.get(url)
        assert page.status_code == status, (url, page.status_code, page.text[:300])
        assert page.headers["content-type"].startswith("text/html"), url
    assert browser.post("/blocks/zzzz", {"title": "x"}).status_code == 404
    assert browser.post("/blocks/zzzz/archive").status_code == 404
    long_title = browser.post("/blocks", {"title": "x" * 600, "content": "y",
                                          "block_type": "knowledge"})  # fmt: skip
    assert long_title.status_code == 422 and "at most 500" in long_title.text
    assert browser.get(f"/blocks/{block_id}").status_code == 200
    # a query the search cannot run comes back with the form and a message, not a bare error
    too_long = browser.get("/blocks?q=" + "x" * 2100, htmx=True, headers={"HX-Target": "results"})
    assert too_long.status_code == 422 and 'role="alert"' in too_long.text
    assert too_long.text.startswith('<section id="results"')


def test_the_detail_shows_anchors_links_supersession_and_the_guard_flag(
    app: App, browser: Browser, team: Principal
) -> None:
    newer = _store(app, team, "Deploy day v2", "We deploy on Thursdays since 2026-03-23.",
                   occurred_at="2026-03-20T09:00:00Z")  # fmt: skip
    older = _store(app, team, "Deploy day", "We deploy on Fridays.")
    related = _store(app, team, "Release train", "Trains leave weekly.")
    secret = _store(app, _who(app, make_key(app, "secret")), "Secret twin", "hidden")
    with app.connection() as conn:
        temporal.extract_block(conn, newer)
        graph.write_link(conn, newer, older, "supersedes", 0.9)
        graph.write_link(conn, newer, related, "topical", 0.7)
        graph.write_link(conn, secret, newer, "causal", 0.8)  # its other end is unreadable
        conn.execute(
            "INSERT INTO context_guard_matches (block_id, match_id, similarity, decision, reason) "
            "VALUES (%s, %s, 0.95, 'needs_review', 'close wording')",
            (older, related),
        )
        conn.execute("UPDATE context_blocks SET guard_status = 'needs_review' WHERE id = %s",
                     (older,))  # fmt: skip
    page = browser.get(f"/blocks/{newer}").text
    assert '<time datetime="2026-03-20">' in page and "its own date" in page
    assert '<time datetime="2026-03-23">' in page and "written in the text" in page
    assert f'→ <a href="/blocks/{older}">Deploy day</a>' in page  # it supersedes the older one
    assert f'→ <a href="/blocks/{related}">Release train</a>' in page
    assert "Secret twin" not in page and secret not in page
    assert "Superseded by" not in page
    old_page = browser.get(f"/blocks/{older}").text
    assert f'Superseded by <a href="/blocks/{newer}">Deploy day v2</a>' in old_page
    assert "Needs review: close to" in old_page and "Release train" in old_page
    assert "similarity 0.950" in old_page and "Guard: needs review" in old_page


def test_the_block_page_lists_its_versions_with_a_diff(
    app: App, browser: Browser, team: Principal
) -> None:
    block_id = _store(app, team, "Backups", "Nightly at 02:00.\nOn db-2.", category="ops")
    page = browser.get(f"/blocks/{block_id}").text
    assert "Only this version" in page and 'class="diff"' not in page
    _store(app, team, "Backups", "Hourly.\nOn db-2.", category="ops", tags=["cron"])
    for htmx in (False, True):
        page = browser.get(f"/blocks/{block_id}", htmx=htmx).text
        assert "Version 1:" in page and "Only this version" not in page
        diff = page[
            page.index('<pre class="diff"') : page.index("</pre>", page.index('class="diff"'))
        ]
        assert '<span class="del">- Nightly at 02:00.</span>' in diff
        assert '<span class="add">+ Hourly.</span>' in diff
        assert '<span class="same">  On db-2.</span>' in diff
        assert "tags then: none" in page
    # the page shows what a diff holds as text, never as markup
    _store(app, team, "Backups", "<script>alert(1)</script>", category="ops")
    page = browser.get(f"/blocks/{block_id}").text
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;" in page
