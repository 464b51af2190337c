"""The graph and review pages: the ego network and the clusters (pages and their JSON), the node
cap's eviction, the Guard's flagged pairs and Dream's links with their actions, scopes kept."""

from __future__ import annotations

import re
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_kit import CHROMIUM, Watched, chromium, shot, sign_in
from fastapi.testclient import TestClient
from live import live_server
from web_kit import Browser, make_key

from ctx.core import App, Principal, StoreRequest, access, blocks, graph, guard
from ctx.core.runtime import drain
from ctx.ui import create_app

STATIC = Path(__file__).resolve().parents[3] / "ui" / "web" / "static" / "js"
BACKUP = "The nightly Postgres backup runs at 02:00 on db-2 and keeps 14 days of WAL archives."
NODE_KEYS = {"id", "title", "category", "block_type", "depth"}


def _who(app: App, home: str, allowed: list[str] | None = None) -> Principal:
    with app.connection() as conn:
        return access.authenticate(conn, make_key(app, home, allowed))


def _store(app: App, who: Principal, title: str, content: str | None = None, **kw: Any) -> str:
    body = {"title": title, "content": content or f"Secret body of {title}.", **kw}
    return str(blocks.store_block(app, who, StoreRequest.model_validate(body))["id"])


def _link(app: App, a: str, b: str, confidence: float = 0.8, kind: str = "topical") -> int:
    with app.connection() as conn:
        link = graph.write_link(conn, a, b, kind, confidence)
    assert link is not None
    return link


def _refresh_overview(app: App) -> None:
    with app.connection() as conn:
        graph.queue_overview(conn)
    assert drain(app, "graph.overview") == 1


@pytest.fixture
def team(app: App) -> Principal:
    return _who(app, "team")


@pytest.fixture
def chain(app: App, team: Principal) -> dict[str, str]:
    """Team blocks a - b - c, a shared block linked to a, and another scope's block linked to
    a (a person's link across scopes) that the browser must never see."""
    ids = {name: _store(app, team, f"Team {name}") for name in ("a", "b", "c")}
    _link(app, ids["a"], ids["b"], 0.9)
    _link(app, ids["b"], ids["c"], 0.7, "causal")
    ids["shared"] = _store(app, _who(app, "shared"), "Shared notes")
    _link(app, ids["shared"], ids["a"], 0.6)
    ids["hidden"] = _store(app, _who(app, "other"), "Hidden plan")
    _link(app, ids["a"], ids["hidden"], 0.95)
    return ids


# --- graph pages ------------------------------------------------------------------------------


def test_graph_page_lists_the_neighbourhood_with_and_without_htmx(
    browser: Browser, chain: dict[str, str]
) -> None:
    page = browser.get(f"/graph?focus={chain['a']}&depth=2")
    assert page.status_code == 200, page.text
    assert "<html" in page.text and "Graph around “Team a”" in page.text
    for title in ("Team b", "Team c", "Shared notes"):
        assert title in page.text
    assert f'href="/blocks/{chain["b"]}"' in page.text
    assert f'data-graph-focus="{chain["c"]}"' in page.text
    assert 'id="graph-canvas"' in page.text and 'aria-label="Drawing of the blocks' in page.text
    assert "js/graph.js" in page.text and "css/graph.css" in page.text
    assert "Hidden plan" not in page.text and chain["hidden"] not in page.text
    assert "Secret body" not in page.text  # titles only
    assert "<script>" not in page.text and "style=" not in page.text
    fragment = browser.get(f"/graph?focus={chain['a'][:8]}", htmx=True)
    assert fragment.status_code == 200
    assert "<html" not in fragment.text and "<title>Graph: Team a" in fragment.text
    ego = fragment.text.split('aria-labelledby="graph-clusters-h"')[0]  # the clusters below
    assert "Team b" in ego and "Team c" not in ego  # depth 1 by default


def test_graph_overview_page_lists_the_clusters(app: App, browser: Browser) -> None:
    empty = browser.get("/graph")
    assert empty.status_code == 200 and "No clusters yet" in empty.text
    team = _who(app, "team")
    a, b = _store(app, team, "Team a"), _store(app, team, "Team b")
    _link(app, a, b, 0.9)
    # no refresh job has run: the page shows the links that exist (it said "No clusters yet"
    # until the sweep, minutes later, queued one)
    for htmx in (False, True):
        page = browser.get("/graph", htmx=htmx)
        assert page.status_code == 200
        assert ("<html" in page.text) is not htmx
        assert 'data-mode="overview"' in page.text
        assert "Team a" in page.text and f'href="/graph?focus={a}"' in page.text
        assert "No clusters yet" not in page.text


def test_unknown_or_unreadable_focus_is_a_404_page(browser: Browser, chain: dict[str, str]) -> None:
    for focus in (str(uuid.uuid4()), chain["hidden"]):
        page = browser.get(f"/graph?focus={focus}")
        assert page.status_code == 404 and "<h1>Not found" in page.text
        assert page.headers["content-type"].startswith("text/html")
    assert browser.get("/graph?focus=abc&depth=9").status_code == 422


# --- graph data -------------------------------------------------------------------------------


def test_ego_data_has_only_readable_titles_and_never_content(
    browser: Browser, chain: dict[str, str]
) -> None:
    r = browser.get(f"/graph/data/ego?focus={chain['a']}&depth=3")
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["focus"] == chain["a"] and data["cap"] == 200 and not data["truncated"]
    depths = {n["title"]: n["depth"] for n in data["nodes"]}
    assert depths == {"Team a": 0, "Team b": 1, "Shared notes": 1, "Team c": 2}
    assert all(set(n) == NODE_KEYS for n in data["nodes"])
    assert {(e["source"], e["target"], e["type"]) for e in data["edges"]} == {
        (chain["a"], chain["b"], "topical"),
        (chain["b"], chain["c"], "causal"),
        (chain["shared"], chain["a"], "topical"),
    }
    assert "Secret body" not in r.text and "Hidden" not in r.text and chain["hidden"] not in r.text
    assert r.headers["cache-control"] == "no-store"


def test_overview_data_shows_clusters_of_readable_scopes_only(
    app: App, browser: Browser, chain: dict[str, str]
) -> None:
    _refresh_overview(app)
    r = browser.get("/graph/data/overview?titles=20")
    assert r.status_code == 200, r.text
    data = r.json()
    assert {c["scope"] for c in data["clusters"]} == {"team"}  # links across scopes do not count
    titles = {t["title"] for c in data["clusters"] for t in c["titles"]}
    assert titles == {"Team a", "Team b", "Team c"}
    assert all(set(t) == {"id", "title", "degree"} for c in data["clusters"] for t in c["titles"])
    assert "Secret body" not in r.text and "Hidden" not in r.text
    assert data["refreshed_at"] is not None


def test_cap_keeps_the_nearest_and_growing_evicts_the_farthest_then_weakest(
    app: App, browser: Browser, team: Principal
) -> None:
    ids = {n: _store(app, team, f"Node {n}") for n in ("focus", "mid", "strong", "weak", "alone")}
    _link(app, ids["focus"], ids["mid"], 0.8)
    _link(app, ids["mid"], ids["strong"], 0.9)
    _link(app, ids["mid"], ids["weak"], 0.3)
    hidden = _store(app, _who(app, "other"), "Other scope")
    capped = browser.get(f"/graph/data/ego?focus={ids['mid']}&cap=2").json()
    assert [n["title"] for n in capped["nodes"]] == ["Node mid", "Node strong"]
    assert capped["truncated"]
    # the drawing shows mid's neighbourhood (and a lone block); the person clicks "focus"
    shown = [ids["mid"], ids["strong"], ids["weak"], ids["alone"], hidden]

    def grow(cap: int) -> dict[str, Any]:
        r = browser.client.post(
            "/graph/data/ego",
            json={"focus": ids["focus"], "depth": 1, "cap": cap, "keep": shown},
            headers={"X-CSRF-Token": browser.csrf},
        )
        assert r.status_code == 200, r.text
        return dict(r.json())

    roomy = grow(10)
    got = {n["title"]: n["depth"] for n in roomy["nodes"]}
    assert got == {"Node focus": 0, "Node mid": 1, "Node strong": 2, "Node weak": 2,
                   "Node alone": None}  # fmt: skip
    assert roomy["evicted"] == [] and not roomy["truncated"]
    assert len(roomy["edges"]) == 3 and "Other scope" not in str(roomy)
    tight = grow(3)  # the unconnected block goes first, then the weakest of the farthest
    assert [n["title"] for n in tight["nodes"]] == ["Node focus", "Node mid", "Node strong"]
    assert sorted(tight["evicted"]) == sorted([ids["weak"], ids["alone"]])
    assert tight["truncated"] and hidden not in str(tight)
    assert {(e["source"], e["target"]) for e in tight["edges"]} == {
        (ids["focus"], ids["mid"]),
        (ids["mid"], ids["strong"]),
    }


def test_data_endpoints_answer_bad_input_with_json_4xx(
    browser: Browser, chain: dict[str, str]
) -> None:
    a = chain["a"]
    cases = [
        (f"/graph/data/ego?focus={a}&depth=9", 422, "depth"),
        (f"/graph/data/ego?focus={a}&depth=two", 422, "depth"),
        (f"/graph/data/ego?focus={a}&cap=0", 422, "cap"),
        (f"/graph/data/ego?focus={a}&cap=5000", 422, "cap"),
        ("/graph/data/ego", 422, "focus"),
        ("/graph/data/ego?focus=no!", 422, "id"),
        (f"/graph/data/ego?focus={uuid.uuid4()}", 404, None),
        (f"/graph/data/ego?focus={chain['hidden']}", 404, None),
        ("/graph/data/overview?clusters=0", 422, "clusters"),
        ("/graph/data/overview?titles=x", 422, "titles"),
    ]
    for url, status, field in cases:
        r = browser.get(url)
        assert r.status_code == status, (url, r.text)
        assert r.headers["content-type"].startswith("application/json"), url
        assert r.json()["error"] and r.json()["message"], url
        assert r.json().get("field") == field, (url, r.json())
    # growing takes JSON: a form post (whose body the CSRF check reads) is a 422, not a 500
    r = browser.post("/graph/data/ego", {"focus": a})
    assert r.status_code == 422 and "JSON" in r.json()["message"], r.text
    token = {"X-CSRF-Token": browser.csrf}
    for body, field in [
        ({"focus": a, "keep": "all"}, "keep"),
        ({"focus": a, "keep": ["not-an-id"]}, "keep"),
        ({"focus": a, "cap": 1.5}, "cap"),
        ([a], "body"),
    ]:
        r = browser.client.post("/graph/data/ego", json=body, headers=token)
        assert r.status_code == 422 and r.json()["field"] == field, (body, r.text)
    r = browser.client.post("/graph/data/ego", content=b"{not json", headers=token)
    assert r.status_code == 422 and r.json()["field"] == "body"
    r = browser.client.post("/graph/data/ego", json={"focus": a})  # no CSRF token
    assert r.status_code == 403 and r.json()["error"] == "forbidden"
    browser.client.cookies.clear()
    r = browser.get(f"/graph/data/ego?focus={a}", follow_redirects=False)
    assert r.status_code == 401 and r.json()["error"] == "unauthorized"


# --- review: Guard --------------------------------------------------------------------------


@pytest.fixture
def flagged(app: App, team: Principal) -> dict[str, str]:
    """A note and a newer one that differs in one fact: the Guard flags the pair for review."""
    ids = {
        "first": _store(app, team, "Backup plan", BACKUP, category="ops"),
        "changed": _store(
            app, team, "Backup plan v2", BACKUP.replace("02:00", "04:00"), category="ops"
        ),
    }
    drain(app, "embed")
    drain(app, "guard")
    flags = {f["block_id"]: f for f in guard.list_flags(app, team)}
    assert flags[ids["changed"]]["decision"] == "needs_review"
    return ids


def _flag_state(app: App, block_id: str) -> dict[str, Any]:
    with app.connection() as conn:
        row = conn.execute(
            "SELECT m.resolution, b.is_archived, b.guard_status, b.content "
            "FROM context_guard_matches m JOIN context_blocks b ON b.id = m.block_id "
            "WHERE m.block_id = %s",
            (block_id,),
        ).fetchone()
    assert row is not None
    return dict(row)


def _archived(app: App, block_id: str) -> bool:
    with app.connection() as conn:
        row = conn.execute(
            "SELECT is_archived FROM context_blocks WHERE id = %s", (block_id,)
        ).fetchone()
    assert row is not None
    return bool(row["is_archived"])


def test_review_page_lists_the_pair_with_and_without_htmx(
    browser: Browser, flagged: dict[str, str]
) -> None:
    for htmx in (False, True):
        page = browser.get("/review", htmx=htmx)
        assert page.status_code == 200, page.text
        assert ("<html" in page.text) is not htmx
        text = page.text
        assert "“Backup plan v2” resembles “Backup plan”" in text
        assert "needs review" in text and "similarity 0.9" in text
        assert "runs at 04:00" in text and "runs at 02:00" in text  # snippets of both
        assert f'id="flag-{flagged["changed"]}"' in text
        for action in ("keep_both", "archive_block", "archive_match", "merge_into_block",
                       "merge_into_match"):  # fmt: skip
            assert f'value="{action}"' in text
        assert text.count("hx-confirm=") == 4  # every destructive button asks first
        assert 'name="csrf_token"' in text and "css/review.css" in text


def test_keep_both_over_htmx_swaps_the_item_with_the_outcome(
    app: App, browser: Browser, flagged: dict[str, str]
) -> None:
    r = browser.post("/review/guard/resolve", {"id": flagged["changed"], "action": "keep_both"},
                     htmx=True)  # fmt: skip
    assert r.status_code == 200, r.text
    assert r.text.lstrip().startswith(
        f'<article class="review-item" id="flag-{flagged["changed"]}"'
    )
    assert "Kept both blocks." in r.text and "<form" not in r.text and "<html" not in r.text
    assert _flag_state(app, flagged["changed"])["resolution"] == "keep_both"
    again = browser.post("/review/guard/resolve",
                         {"id": flagged["changed"], "action": "keep_both"}, htmx=True)  # fmt: skip
    assert again.status_code == 404 and "not open any more" in again.text
    assert "Nothing to review" in browser.get("/review").text


def test_an_update_shows_its_change_and_undo_unlinks_it(
    app: App, browser: Browser, team: Principal
) -> None:
    """Issue 36: a re-save with a changed time is recorded as an update; the review page shows
    the change, and one click (no confirmation: nothing is lost) removes the link."""
    _store(app, team, "Backup plan", BACKUP, category="ops")
    drain(app, "embed")
    drain(app, "guard")
    newer = _store(app, team, "backup plan", BACKUP.replace("02:00", "04:00"), category="infra")
    drain(app, "embed")
    drain(app, "guard")
    for htmx in (False, True):
        text = browser.get("/review", htmx=htmx).text
        assert "“backup plan” updates “Backup plan”" in text
        assert "<del>02:00</del>" in text and "<ins>04:00</ins>" in text
        assert 'value="unlink"' in text and "Undo: not an update" in text
    r = browser.post("/review/guard/resolve", {"id": newer, "action": "unlink"}, htmx=True)
    assert r.status_code == 200, r.text
    assert "Unlinked “backup plan” from “Backup plan”" in r.text
    state = _flag_state(app, newer)
    assert (state["resolution"], state["guard_status"]) == ("unlinked", "reviewed")
    with app.connection() as conn:
        assert [row["status"] for row in conn.execute("SELECT status FROM context_links")] == [
            "rejected"
        ]


@pytest.mark.parametrize(
    ("action", "archived", "kept"),
    [
        ("archive_block", "changed", "first"),
        ("archive_match", "first", "changed"),
        ("merge_into_block", "first", "changed"),
        ("merge_into_match", "changed", "first"),
    ],
)
def test_destructive_resolutions_confirm_first_without_js(
    app: App, browser: Browser, flagged: dict[str, str], action: str, archived: str, kept: str
) -> None:
    form = {"id": flagged["changed"], "action": action}
    ask = browser.post("/review/guard/resolve", form)
    assert ask.status_code == 200 and "Resolve this Guard flag?" in ask.text
    assert 'name="confirm" value="yes"' in ask.text
    assert not _archived(app, flagged[archived])  # nothing happened yet
    done = browser.post("/review/guard/resolve", {**form, "confirm": "yes"})
    assert done.status_code == 303 and done.headers["location"] == f"/review?done={action}"
    assert _archived(app, flagged[archived]) and not _archived(app, flagged[kept])
    assert _flag_state(app, flagged["changed"])["resolution"] in ("archived", "merged")
    if action.startswith("merge"):
        with app.connection() as conn:
            row = conn.execute("SELECT content, metadata FROM context_blocks WHERE id = %s",
                               (flagged[kept],)).fetchone()  # fmt: skip
        assert row is not None and "04:00" in row["content"] and "02:00" in row["content"]
        assert row["metadata"]["merged_from"][0]["id"] == flagged[archived]
    page = browser.get(done.headers["location"])
    assert 'role="status"' in page.text and "Nothing to review" in page.text


def test_htmx_archive_carries_its_confirmation(
    app: App, browser: Browser, flagged: dict[str, str]
) -> None:
    form = {"id": flagged["changed"], "action": "archive_block", "confirm": "yes"}
    r = browser.post("/review/guard/resolve", form, htmx=True)
    assert r.status_code == 200 and "Archived “Backup plan v2”" in r.text
    assert _archived(app, flagged["changed"])


def test_review_posts_need_the_csrf_token(
    app: App, browser: Browser, flagged: dict[str, str]
) -> None:
    form = {"id": flagged["changed"], "action": "keep_both"}
    r = browser.post("/review/guard/resolve", form, csrf=False)
    assert r.status_code == 403
    r = browser.post("/review/guard/resolve", {**form, "csrf_token": "forged"})
    assert r.status_code == 403
    assert _flag_state(app, flagged["changed"])["resolution"] is None
    r = browser.post("/review/guard/resolve", {**form, "action": "shred"})
    assert r.status_code == 422


def test_other_scopes_see_nothing_and_readers_change_nothing(
    app: App, flagged: dict[str, str]
) -> None:
    with TestClient(create_app(app), raise_server_exceptions=False) as client:
        stranger = Browser(client, make_key(app, "elsewhere"))
        stranger.sign_in()
        page = stranger.get("/review")
        assert "Backup plan" not in page.text and "Nothing to review" in page.text
        form = {"id": flagged["changed"], "action": "archive_block", "confirm": "yes"}
        r = stranger.post("/review/guard/resolve", form)
        assert r.status_code == 404
        r = stranger.post("/review/guard/resolve", form, htmx=True)
        assert r.status_code == 404 and f'id="flag-{flagged["changed"]}"' in r.text
    with TestClient(create_app(app), raise_server_exceptions=False) as client:
        reader = Browser(client, make_key(app, "reader", ["team"]))  # reads team, writes reader
        reader.sign_in()
        assert "“Backup plan v2” resembles “Backup plan”" in reader.get("/review").text
        r = reader.post("/review/guard/resolve", form, htmx=True)
        assert r.status_code == 403 and 'role="alert"' in r.text
        assert "writes only to its home scope" in r.text and 'value="keep_both"' in r.text
    assert not _archived(app, flagged["changed"])
    assert _flag_state(app, flagged["changed"])["resolution"] is None


# --- review: Dream links ----------------------------------------------------------------------


def _link_status(app: App, link_id: int) -> str:
    with app.connection() as conn:
        row = conn.execute("SELECT status FROM context_links WHERE id = %s", (link_id,)).fetchone()
    assert row is not None
    return str(row["status"])


def test_dream_links_confirm_and_delete(app: App, browser: Browser, team: Principal) -> None:
    a, b, c = (_store(app, team, f"Runbook {n}") for n in ("a", "b", "c"))
    first = _link(app, a, b, 0.82, "causal")
    second = _link(app, b, c, 0.71)
    hidden = _link(app, _store(app, _who(app, "other"), "Elsewhere x"),
                   _store(app, _who(app, "other"), "Elsewhere y"))  # fmt: skip
    page = browser.get("/review")
    assert page.status_code == 200
    assert f'id="link-{first}"' in page.text and f'id="link-{second}"' in page.text
    assert "Runbook a" in page.text and "causal" in page.text and "0.82" in page.text
    assert f'id="link-{hidden}"' not in page.text and "Elsewhere" not in page.text
    # confirm over htmx: the item comes back with the outcome
    r = browser.post(f"/review/dream/{first}", {"action": "confirm"}, htmx=True)
    assert r.status_code == 200 and r.text.lstrip().startswith('<li class="review-item')
    assert "Confirmed." in r.text and "confirmed" in r.text
    assert _link_status(app, first) == "confirmed"
    # delete without JS: a confirmation step first, then the redirect back with the outcome
    ask = browser.post(f"/review/dream/{second}", {"action": "delete"})
    assert ask.status_code == 200 and "Delete this link?" in ask.text
    assert _link_status(app, second) == "active"
    done = browser.post(f"/review/dream/{second}", {"action": "delete", "confirm": "yes"})
    assert done.status_code == 303 and done.headers["location"] == "/review?done=delete#dream"
    assert _link_status(app, second) == "rejected"
    after = browser.get("/review?done=delete")
    assert "Deleted the link" in after.text and f'id="link-{second}"' not in after.text
    # another scope's link: not found, not touched; no token: refused
    assert browser.post(f"/review/dream/{hidden}", {"action": "confirm"}).status_code == 404
    assert browser.post(f"/review/dream/{first}", {"action": "delete", "confirm": "yes"},
                        csrf=False).status_code == 403  # fmt: skip
    assert _link_status(app, hidden) == "active" and _link_status(app, first) == "confirmed"
    assert browser.post(f"/review/dream/{first}", {"action": "nope"}).status_code == 422
    assert (
        browser.post("/review/dream/99999999999999999999", {"action": "confirm"}).status_code == 422
    )


# --- the scripts ------------------------------------------------------------------------------


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("name", ["graph.js", "graph-layout-worker.js"])
def test_the_graph_scripts_parse(name: str) -> None:
    done = subprocess.run(["node", "--check", str(STATIC / name)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_worker_loads_only_same_origin_vendored_files() -> None:
    worker = (STATIC / "graph-layout-worker.js").read_text()
    loaded = re.findall(r'"(\.\./vendor/[^"]+)"', worker)
    assert loaded == [
        "../vendor/graphology-0.26.0.umd.min.js",
        "../vendor/graphology-layout-forceatlas2-0.10.1.min.js",
    ]
    for path in loaded:
        assert (STATIC / path).resolve().is_file()


# --- in a real browser ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def chromium_browser() -> Iterator[Any]:
    if CHROMIUM is None:
        pytest.skip("needs Chromium (.ci/run installs Debian's chromium)")
    with chromium() as b:
        yield b


@pytest.fixture
def tab(chromium_browser: Any) -> Iterator[Watched]:
    context = chromium_browser.new_context(viewport={"width": 1280, "height": 860})
    watched = Watched(context.new_page())
    try:
        yield watched
    finally:
        context.close()
    assert not watched.problems, watched.problems  # no script error, no CSP violation


def test_the_graph_draws_and_refocuses_in_place(
    app: App, chain: dict[str, str], tab: Watched
) -> None:
    _refresh_overview(app)
    p = tab.page
    with live_server(app) as site:
        sign_in(p, site, make_key(app, "team", ["shared"]))
        p.goto(f"{site}/graph?focus={chain['a']}")
        status = p.locator("#graph-status")
        status.filter(has_text="Choose a block").wait_for()
        assert status.inner_text().startswith("3 blocks, 2 links")
        assert p.locator("#graph-canvas canvas").count() > 0  # sigma drew
        shot(p, "graph")
        p.evaluate("window.__same_document = true")
        p.locator(f'#graph-text a[data-graph-focus="{chain["b"]}"]').first.click()
        p.wait_for_url(f"{site}/graph?focus={chain['b']}")
        heading = p.get_by_role("heading", level=1)
        heading.filter(has_text="Team b").wait_for()
        status.filter(has_text="4 blocks").wait_for()  # grown: a, shared, b and now c
        assert p.evaluate("window.__same_document") is True
        p.go_back()
        p.wait_for_url(f"{site}/graph?focus={chain['a']}")
        heading.filter(has_text="Team a").wait_for()
        p.get_by_role("link", name="Clusters").click()
        p.wait_for_url(f"{site}/graph")
        status.filter(has_text="1 cluster").wait_for()
        assert "Hidden plan" not in p.content()


def test_reviewing_a_flagged_pair_in_the_browser(
    app: App, flagged: dict[str, str], tab: Watched
) -> None:
    p = tab.page
    asked: list[str] = []

    def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.accept()

    p.on("dialog", answer)
    with live_server(app) as site:
        sign_in(p, site, make_key(app, "team"))
        p.get_by_role("link", name="Review", exact=True).click()
        p.wait_for_url(f"{site}/review")
        item = p.locator(f"#flag-{flagged['changed']}")
        item.get_by_role("heading", name="“Backup plan v2” resembles “Backup plan”").wait_for()
        shot(p, "review")
        p.evaluate("window.__same_document = true")
        item.get_by_role("button", name="Archive “Backup plan v2” (flagged)").click()
        item.get_by_role("status").filter(has_text="Archived “Backup plan v2”").wait_for()
        assert asked == ["Archive “Backup plan v2” (the flagged block)?"]
        assert p.evaluate("window.__same_document") is True  # only the item was swapped
    assert _archived(app, flagged["changed"]) and not _archived(app, flagged["first"])
