"""Signing in and out of the workbench: the session cookie, CSRF, redirects and error pages."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import click
import typer
from fastapi.testclient import TestClient
from web_kit import SIGNIN_RE, Browser, make_key

from ctx.core import App, access
from ctx.core.runtime import set_setting
from ctx.ui import create_app
from ctx.ui.cli import build_cli

UI = Path(__file__).resolve().parents[3] / "ui"
PLUGINS = UI.parent / "plugins"


def test_a_page_without_a_session_redirects_to_sign_in(server: TestClient) -> None:
    answer = server.get("/dashboard/queues?q=x", follow_redirects=False)
    assert answer.status_code == 303
    assert answer.headers["location"] == "/signin?next=/dashboard/queues%3Fq%3Dx"
    # htmx asks for a client-side redirect instead of swapping the sign-in page into a panel
    hx = server.get("/", headers={"HX-Request": "true"}, follow_redirects=False)
    assert hx.status_code == 200 and hx.headers["hx-redirect"] == "/signin"


def test_sign_in_sets_a_hardened_cookie_and_never_stores_the_key(
    app: App, server: TestClient
) -> None:
    key = make_key(app, "team")
    b = Browser(server, key)
    answer = b.sign_in()
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith("ctx_session=")
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/" in cookie
    assert key not in cookie
    with app.connection() as conn:
        rows = conn.execute("SELECT token_hash FROM context_web_sessions").fetchall()
    assert len(rows) == 1 and key not in rows[0]["token_hash"]
    home = b.get("/")
    assert home.status_code == 200 and "<h1>Dashboard</h1>" in home.text
    assert "web-team" in home.text


def test_a_wrong_key_shows_the_form_again_with_a_message(server: TestClient) -> None:
    page = server.get("/signin")
    token = SIGNIN_RE.search(page.text)
    assert token
    answer = server.post(
        "/signin",
        data={"api_key": "ctx_nope", "signin_token": token.group(1)},
        follow_redirects=False,
    )
    assert answer.status_code == 401
    assert "unknown or revoked" in answer.text
    assert "ctx_session" not in answer.headers.get("set-cookie", "")


def _try_key(client: TestClient, key: str) -> Any:
    page = client.get("/signin")
    token = SIGNIN_RE.search(page.text)
    assert token, page.text
    return client.post(
        "/signin", data={"api_key": key, "signin_token": token.group(1)}, follow_redirects=False
    )


def test_wrong_keys_are_throttled_per_address_without_locking_out_the_user(
    app: App, server: TestClient
) -> None:
    set_setting(app, "limits.key_guesses_per_minute", 3)
    key = make_key(app, "team")
    assert [_try_key(server, "ctx_wrong").status_code for _ in range(3)] == [401] * 3
    # over the limit: every key from this address is refused, the right one too, on the form
    refused = _try_key(server, key)
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
    assert "Too many wrong API keys" in refused.text and 'name="api_key"' in refused.text
    assert "ctx_session" not in refused.headers.get("set-cookie", "")
    # another address is not held back by this one's guesses
    with TestClient(create_app(app), client=("192.0.2.7", 50000)) as other:
        assert _try_key(other, key).status_code == 303
    # once the minute has passed (the counts moved back), the right key works here again
    with app.connection() as conn:
        conn.execute(
            "UPDATE context_rate_counts SET window_start = window_start - interval '2 minutes'"
        )
    assert _try_key(server, key).status_code == 303


def test_the_sign_in_form_needs_its_own_token(app: App, server: TestClient) -> None:
    key = make_key(app, "team")
    server.cookies.clear()
    answer = server.post("/signin", data={"api_key": key, "signin_token": "forged"},
                         follow_redirects=False)  # fmt: skip
    assert answer.status_code == 400 and "expired" in answer.text


def test_next_never_leaves_the_server(app: App, server: TestClient) -> None:
    key = make_key(app, "team")
    for target, expected in [
        ("https://evil.example/", "/"),
        ("//evil.example/x", "/"),
        ("/\\evil.example", "/"),
        ("/blocks?q=1", "/blocks?q=1"),
    ]:
        server.cookies.clear()
        page = server.get("/signin")
        token = SIGNIN_RE.search(page.text)
        assert token
        answer = server.post(
            "/signin",
            data={"api_key": key, "signin_token": token.group(1), "next": target},
            follow_redirects=False,
        )
        assert answer.status_code == 303
        assert answer.headers["location"] == expected, target


def test_a_forged_cookie_is_refused(server: TestClient) -> None:
    server.cookies.set("ctx_session", "abc.def")
    assert server.get("/", follow_redirects=False).status_code == 303


def test_state_changes_need_the_csrf_token(browser: Browser) -> None:
    refused = browser.post("/signout", csrf=False)
    assert refused.status_code == 403 and "security token" in refused.text
    wrong = browser.post("/signout", {"csrf_token": "0" * 43})
    assert wrong.status_code == 403
    other_site = browser.post("/signout", headers={"Origin": "https://evil.example"})
    assert other_site.status_code == 403 and "another site" in other_site.text
    # the header htmx sends works as well as the form field
    ok = browser.post("/signout", csrf=False, headers={"X-CSRF-Token": browser.csrf})
    assert ok.status_code == 303 and ok.headers["location"] == "/signin"


def test_sign_out_ends_the_session_on_the_server(app: App, browser: Browser) -> None:
    cookie = browser.client.cookies.get("ctx_session")
    assert browser.post("/signout").status_code == 303
    browser.client.cookies.set("ctx_session", cookie)  # a copy kept elsewhere is dead too
    assert browser.get("/", follow_redirects=False).status_code == 303


def test_revoking_the_key_ends_its_sessions(app: App, browser: Browser) -> None:
    with app.connection() as conn:
        access.revoke_key(conn, _key_id(app))
    assert browser.get("/", follow_redirects=False).status_code == 303


def _key_id(app: App) -> str:
    with app.connection() as conn:
        row = conn.execute("SELECT key_id FROM context_web_sessions").fetchone()
    return str(row["key_id"])


def test_unknown_pages_are_html_and_unknown_api_paths_json(browser: Browser) -> None:
    page = browser.get("/no-such-page")
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "there is no page at /no-such-page" in page.text
    api = browser.get("/api/no-such-thing", headers={"X-Context-Key": browser.key})
    assert api.status_code == 404 and api.json()["error"] == "not_found"
    wrong_method = browser.client.put("/health")
    assert wrong_method.status_code == 405 and wrong_method.json()["error"] == "method_not_allowed"


def test_every_page_answers_with_the_strict_csp(browser: Browser) -> None:
    page = browser.get("/")
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert page.headers["cache-control"] == "no-store"
    assert page.headers["vary"] == "HX-Request"
    assert "<script>" not in page.text and " style=" not in page.text


def test_htmx_requests_get_the_fragment_and_plain_ones_the_layout(browser: Browser) -> None:
    full = browser.get("/")
    assert full.text.startswith("<!doctype html>") and '<main id="main"' in full.text
    part = browser.get("/", htmx=True)
    assert "<!doctype" not in part.text and "<main" not in part.text
    assert "<h1>Dashboard</h1>" in part.text
    assert 'hx-swap-oob="true"' in part.text  # the navigation follows along
    restore = browser.get("/", htmx=True, headers={"HX-History-Restore-Request": "true"})
    assert restore.text.startswith("<!doctype html>")


def test_the_dashboard_counts_only_readable_scopes(app: App, browser: Browser, admin: Any) -> None:
    from ctx.core import StoreRequest, blocks

    who_team = _principal(app, "team")
    who_secret = _principal(app, "secret")
    blocks.store_block(app, who_team, StoreRequest(title="Team note", content="alpha beta"))
    blocks.store_block(app, who_secret, StoreRequest(title="Hidden plan", content="gamma"))
    page = browser.get("/")
    assert "Team note" in page.text and "Hidden plan" not in page.text
    assert "secret" not in page.text
    assert "Job queues" not in page.text  # admins only
    assert "Job queues" in admin.get("/").text


def _principal(app: App, home: str) -> Any:
    with app.connection() as conn:
        return access.authenticate(conn, make_key(app, home))


def _command(words: list[str]) -> click.Command | None:
    """The command ``ctx WORDS...`` runs (options and arguments after it ignored), or None."""
    command: click.Command | None = typer.main.get_command(build_cli())
    for word in words:
        if not isinstance(command, click.Group) or word.startswith("-"):
            break
        command = command.get_command(click.Context(command), word)
        if command is None:
            return None
    return None if isinstance(command, click.Group) else command


def test_the_commands_the_pages_name_exist(server: TestClient) -> None:
    """The sign-in page said `ctx key create`, a command that does not exist (it is `ctx keys
    create`). Every command a page names in <code> is one the command line has."""
    page = server.get("/signin").text
    assert "<code>ctx keys create</code> makes one" in page
    roots = [UI / "web" / "templates", UI / "oauth" / "templates", PLUGINS / "issues" / "templates"]
    named = {
        code
        for root in roots
        for path in root.rglob("*.html")
        for code in re.findall(r"<code>ctx ([^<{]+)</code>", path.read_text())
    }
    assert "keys create" in named and "keys revoke" in named
    for code in sorted(named):
        assert _command(code.split()) is not None, f"a page names `ctx {code}`, no such command"
