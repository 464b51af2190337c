"""The administration pages: admin keys only, settings edited live from the registry, backends
with the trust elevation step and a real reachability test, write-only secrets, block types, API
keys shown once, plugins and the model call log."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_kit import Browser, make_key

from ctx.core import App, Unauthorized, access, llm
from ctx.core.runtime import set_setting
from ctx.ui import create_app

PAGES = [
    "/admin",
    "/admin/settings",
    "/admin/settings?q=rerank",
    "/admin/backends",
    "/admin/backends/new",
    "/admin/secrets",
    "/admin/types",
    "/admin/types/knowledge",
    "/admin/keys",
    "/admin/plugins",
    "/admin/llmlog",
]

POSTS = [
    ("/admin/settings/query.default_limit", {"value": "7"}),
    ("/admin/settings/query.default_limit/reset", {}),
    ("/admin/backends", {"name": "peer", "kind": "openai", "base_url": "http://127.0.0.1:9/v1"}),
    ("/admin/backends/peer/edit", {"priority": "5"}),
    ("/admin/backends/peer/delete", {"confirm": "yes"}),
    ("/admin/backends/peer/test", {}),
    ("/admin/secrets", {"name": "token", "value": "hunter2"}),
    ("/admin/secrets/token/delete", {"confirm": "yes"}),
    ("/admin/types/knowledge", {"retrieval_policy": "excluded"}),
    ("/admin/keys", {"name": "sneaky", "home_scope": "team", "is_admin": "true"}),
    ("/admin/keys/00000000-0000-0000-0000-000000000000/revoke", {"confirm": "yes"}),
]

SECRET_VALUE = "sk-very-private-VALUE-7731"


def backend_form(base_url: str, **changes: Any) -> dict[str, Any]:
    form: dict[str, Any] = {
        "name": "peer",
        "kind": "openai",
        "base_url": base_url,
        "roles": ["synthesis", "chat"],
        "model_map": "default = test-model",
        "priority": "50",
        "trust": "public",
        "secret": "",
        "enabled": ["false", "true"],
        "description": "the loopback peer",
    }
    form.update(changes)
    return form


def backend(app: App, name: str = "peer") -> llm.Backend:
    with app.connection() as conn:
        return llm.get_backend(conn, name)


def stored_settings(app: App) -> dict[str, Any]:
    with app.connection() as conn:
        rows = conn.execute("SELECT key, value FROM context_settings").fetchall()
    return {r["key"]: r["value"] for r in rows}


# -- pages and the admin gate --------------------------------------------------------------------


@pytest.mark.parametrize("url", PAGES)
def test_every_admin_page_renders_with_and_without_htmx(admin: Browser, url: str) -> None:
    page = admin.get(url)
    assert page.status_code == 200, page.text
    assert page.text.lstrip().startswith("<!doctype html>")
    assert page.text.count("<h1") == 1 and "admin.css" in page.text
    assert "style=" not in page.text and "<script>" not in page.text
    assert "object at 0x" not in page.text  # no Python repr leaked into the page
    fragment = admin.get(url, htmx=True)
    assert fragment.status_code == 200, fragment.text
    assert "<html" not in fragment.text and "<title>" in fragment.text
    assert fragment.text.count("<h1") == 1 and "admin.css" in fragment.text
    assert fragment.headers["vary"] == "HX-Request"


def test_the_index_links_every_section(admin: Browser) -> None:
    page = admin.get("/admin").text
    assert "1 active key (1 admin)" in page and "0 backends" in page
    for url in PAGES[1:]:
        if "?" not in url and url.count("/") == 2:
            assert f'href="{url}"' in page, url


def test_a_plain_key_gets_403_on_every_admin_page_and_post(app: App, browser: Browser) -> None:
    for url in PAGES:
        for htmx in (False, True):
            answer = browser.get(url, htmx=htmx)
            assert answer.status_code == 403, url
            assert "needs an admin key" in answer.text
    for url, data in POSTS:
        answer = browser.post(url, data)
        assert answer.status_code == 403, url
    assert stored_settings(app) == {}
    with app.connection() as conn:
        assert llm.list_backends(conn) == [] and access.list_secrets(conn) == []
        assert "sneaky" not in [k["name"] for k in access.list_keys(conn)]
    assert app.block_types["knowledge"].retrieval_policy == "normal"


def test_a_post_without_the_csrf_token_is_refused(app: App, admin: Browser) -> None:
    url = "/admin/settings/query.default_limit"
    missing = admin.post(url, {"value": "7"}, csrf=False)
    assert missing.status_code == 403 and "security token" in missing.text
    forged = admin.post(url, {"value": "7", "csrf_token": "forged"}, csrf=False)
    assert forged.status_code == 403
    elsewhere = admin.post(url, {"value": "7"}, headers={"Origin": "https://evil.example"})
    assert elsewhere.status_code == 403
    assert app.settings["query.default_limit"] == 5 and stored_settings(app) == {}


# -- settings ------------------------------------------------------------------------------------


def test_settings_are_grouped_with_widgets_sources_and_env_names(admin: Browser) -> None:
    page = admin.get("/admin/settings").text
    assert 'id="group-query"' in page and 'id="group-server"' in page
    assert "CTX_QUERY_DEFAULT_LIMIT" in page
    # widget by type: a number with its range, a checkbox, a select with the choices
    assert re.search(
        r'id="set-query-default_limit-v" name="value" type="number" value="5" '
        r'step="1" min="1" max="20"',
        page,
    )
    assert 'id="set-query-rerank-v" name="value" type="checkbox"' in page
    assert re.search(
        r'<select id="set-query-confidence-v" name="value">\s*<option value='
        r'"evidence" selected>',
        page,
    )
    # a key read at start-up is shown, not offered for editing, and says why
    assert 'action="/admin/settings/server.port"' not in page
    assert "Read at start-up only" in page
    # a secret setting never shows a value
    assert "embed.api_key" in page and 'action="/admin/settings/embed.api_key"' not in page


def test_the_live_filter_answers_only_the_matching_groups(admin: Browser) -> None:
    headers = {"HX-Target": "settings-groups"}
    part = admin.get("/admin/settings?q=rerank", htmx=True, headers=headers)
    assert part.status_code == 200
    assert part.text.startswith('<div id="settings-groups"') and "<h1" not in part.text
    assert "query.rerank_weight" in part.text and "server.port" not in part.text
    nothing = admin.get("/admin/settings?q=no-such-thing", htmx=True, headers=headers)
    assert "No setting matches" in nothing.text
    # without htmx the same URL is the whole page, filtered
    whole = admin.get("/admin/settings?q=rerank")
    assert "<h1>Settings</h1>" in whole.text and "server.port" not in whole.text
    assert 'value="rerank"' in whole.text


def test_a_hot_setting_changes_live_and_resets(app: App, admin: Browser) -> None:
    url = "/admin/settings/query.default_limit"
    row = admin.post(url, {"value": "7"}, htmx=True)
    assert row.status_code == 200, row.text
    assert row.text.startswith('<div class="setting" id="set-query-default_limit">')
    assert "Saved" in row.text and "source-database" in row.text and 'value="7"' in row.text
    assert app.settings["query.default_limit"] == 7
    assert app.settings.resolve("query.default_limit") == (7, "database")

    plain = admin.post(url, {"value": "8"})
    assert plain.status_code == 303
    assert plain.headers["location"] == "/admin/settings#set-query-default_limit"
    assert app.settings["query.default_limit"] == 8

    # a checkbox: the hidden "false" alone turns it off, with the ticked box it is on
    flag = "/admin/settings/query.rerank"
    assert admin.post(flag, {"value": ["false", "true"]}, htmx=True).status_code == 200
    assert app.settings["query.rerank"] is True
    assert admin.post(flag, {"value": ["false"]}, htmx=True).status_code == 200
    assert app.settings["query.rerank"] is False

    reset = admin.post(url + "/reset", htmx=True)
    assert reset.status_code == 200 and "source-default" in reset.text
    assert app.settings.resolve("query.default_limit") == (5, "default")
    assert "query.default_limit" not in stored_settings(app)


def test_bad_values_come_back_in_the_row_with_the_message(app: App, admin: Browser) -> None:
    url = "/admin/settings/query.default_limit"
    high = admin.post(url, {"value": "999"}, htmx=True)
    assert high.status_code == 422
    assert "must be &lt;= 20" in high.text and 'value="999"' in high.text
    assert 'role="alert"' in high.text and "<h1" not in high.text
    word = admin.post(url, {"value": "many"}, htmx=True)
    assert word.status_code == 422 and "expected an integer" in word.text
    # without htmx: the whole page, that row marked
    page = admin.post(url, {"value": "0"})
    assert page.status_code == 422 and "<h1>Settings</h1>" in page.text
    assert "must be &gt;= 1" in page.text
    assert app.settings["query.default_limit"] == 5 and stored_settings(app) == {}


def test_a_setting_read_at_start_up_is_refused(app: App, admin: Browser) -> None:
    answer = admin.post("/admin/settings/server.port", {"value": "9999"}, htmx=True)
    assert answer.status_code == 422 and "Read at start-up only" in answer.text
    assert admin.post("/admin/settings/server.port/reset", htmx=True).status_code == 422
    assert stored_settings(app) == {} and app.settings["server.port"] == 8080
    unknown = admin.post("/admin/settings/no.such", {"value": "1"})
    assert unknown.status_code == 404 and "unknown setting" in unknown.text


@pytest.fixture
def env_admin(database_url: str, tmp_path: Path) -> Iterator[tuple[App, Browser]]:
    """An app whose environment sets a hot key, with an admin signed in."""
    environ = {**os.environ, "CTX_QUERY_DEFAULT_LIMIT": "9"}
    instance = App(
        database_url=database_url,
        home=tmp_path / "env-home",
        load_entry_points=False,
        environ=environ,
    )
    instance.open()
    try:
        with TestClient(create_app(instance), raise_server_exceptions=False) as client:
            b = Browser(client, make_key(instance, "ops", admin=True))
            b.sign_in()
            yield instance, b
    finally:
        instance.close()


def test_a_setting_from_the_environment_is_read_only(env_admin: tuple[App, Browser]) -> None:
    app, admin = env_admin
    page = admin.get("/admin/settings?q=default_limit").text
    assert "source-env" in page and "Set by CTX_QUERY_DEFAULT_LIMIT" in page
    assert 'action="/admin/settings/query.default_limit"' not in page
    answer = admin.post("/admin/settings/query.default_limit", {"value": "3"}, htmx=True)
    assert answer.status_code == 422 and "environment" in answer.text
    assert app.settings.resolve("query.default_limit") == (9, "env")
    assert stored_settings(app) == {}


# -- backends ------------------------------------------------------------------------------------


def test_backends_create_edit_test_and_delete(app: App, admin: Browser, srv: Any) -> None:
    set_setting(app, "llm.read_timeout", 2.0)
    created = admin.post("/admin/backends", backend_form(srv.base_url))
    assert created.status_code == 303, created.text
    assert created.headers["location"] == "/admin/backends?saved=peer"
    row = backend(app)
    assert row.roles == ("synthesis", "chat") and row.model_map == {"default": "test-model"}
    assert row.trust == "public" and row.enabled and row.priority == 50
    assert [b.name for b in app.backends.chain("chat")] == ["peer"]  # the pool was rebuilt

    listed = admin.get("/admin/backends?saved=peer").text
    assert "Saved backend peer." in listed and "default = test-model" in listed
    assert "Saved backend" not in admin.get("/admin/backends?saved=ghost").text
    form = admin.get("/admin/backends/peer/edit").text
    assert 'value="50"' in form and "default = test-model</textarea>" in form

    # an edit through htmx answers with where to go next
    changed = admin.post(
        "/admin/backends/peer/edit",
        backend_form(
            srv.base_url,
            priority="7",
            enabled=["false"],
            model_map='{"default": "test-model", "chat": {"model": "chat-model", '
            '"temperature": 0.1}}',
        ),
        htmx=True,
    )
    assert (
        changed.status_code == 200
        and "/admin/backends?saved=peer" in changed.headers["hx-location"]
    )
    row = backend(app)
    assert row.priority == 7 and not row.enabled
    assert row.model_map["chat"] == {"model": "chat-model", "temperature": 0.1}
    admin.post("/admin/backends/peer/edit", backend_form(srv.base_url))

    # the reachability test: one real request per role, shown inline
    tested = admin.post("/admin/backends/peer/test", htmx=True)
    assert tested.status_code == 200
    assert tested.text.count("reachable") == 2 and "test-model" in tested.text
    assert "/v1/chat/completions" in [r.path for r in srv.requests]
    srv.reset(chat="error500")
    failed = admin.post("/admin/backends/peer/test")
    assert failed.status_code == 200 and "<h1>Model backends</h1>" in failed.text
    assert "failed" in failed.text and "cooling" in failed.text

    # delete: a confirmation first (no JavaScript), then the row is gone
    asked = admin.post("/admin/backends/peer/delete")
    assert asked.status_code == 200 and "Delete backend peer?" in asked.text
    assert 'name="confirm" value="yes"' in asked.text
    assert backend(app).name == "peer"
    gone = admin.post("/admin/backends/peer/delete", {"confirm": "yes"})
    assert gone.status_code == 303
    with app.connection() as conn:
        assert llm.list_backends(conn) == []
    assert admin.get("/admin/backends/peer/edit").status_code == 404


def test_raising_trust_needs_the_explicit_confirmation(app: App, admin: Browser) -> None:
    url = "http://127.0.0.1:9/v1"
    # a new backend that would see more than public blocks: the form comes back with a warning
    asked = admin.post("/admin/backends", backend_form(url, trust="non-personal"))
    assert asked.status_code == 422
    assert "will see internal blocks" in asked.text
    assert 'name="elevate" value="non-personal" required' in asked.text
    assert 'value="the loopback peer"' in asked.text  # nothing typed is lost
    with app.connection() as conn:
        assert llm.list_backends(conn) == []
    made = admin.post(
        "/admin/backends", backend_form(url, trust="non-personal", elevate="non-personal")
    )
    assert made.status_code == 303 and backend(app).trust == "non-personal"

    edit = "/admin/backends/peer/edit"
    raised = admin.post(edit, backend_form(url, trust="full-trust"), htmx=True)
    assert raised.status_code == 422 and "<h1" in raised.text
    assert "will see personal, credentials blocks" in raised.text
    assert backend(app).trust == "non-personal"
    # a confirmation for another level does not count
    other = admin.post(edit, backend_form(url, trust="full-trust", elevate="no-credentials"))
    assert other.status_code == 422 and backend(app).trust == "non-personal"
    confirmed = admin.post(edit, backend_form(url, trust="full-trust", elevate="full-trust"))
    assert confirmed.status_code == 303 and backend(app).trust == "full-trust"
    # lowering trust takes no confirmation
    lowered = admin.post(edit, backend_form(url, trust="public"))
    assert lowered.status_code == 303 and backend(app).trust == "public"


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"model_map": "default test-model"}, "model_map line 1: write `role = model`"),
        ({"model_map": "{not json"}, "model_map is not valid JSON"),
        ({"model_map": ""}, "role &#39;synthesis&#39; has no model"),
        ({"base_url": "ftp://example.com"}, "http:// or https://"),
        ({"priority": "high"}, "priority must be a whole number"),
        ({"name": "Bad Name"}, "1-64 lowercase letters"),
        ({"kind": "telepathy"}, "unknown backend kind"),
        ({"secret": "nowhere"}, "no secret named"),
    ],
)
def test_a_bad_backend_form_comes_back_with_the_message(
    app: App, admin: Browser, change: dict[str, Any], says: str
) -> None:
    answer = admin.post("/admin/backends", {**backend_form("http://127.0.0.1:9/v1"), **change})
    assert answer.status_code == 422, answer.text
    assert says in answer.text and 'role="alert"' in answer.text
    assert 'value="the loopback peer"' in answer.text
    with app.connection() as conn:
        assert llm.list_backends(conn) == []


def test_a_taken_backend_name_is_a_conflict(admin: Browser) -> None:
    form = backend_form("http://127.0.0.1:9/v1")
    assert admin.post("/admin/backends", form).status_code == 303
    again = admin.post("/admin/backends", form)
    assert again.status_code == 409 and "&#39;peer&#39; exists" in again.text


# -- secrets -------------------------------------------------------------------------------------


def test_secrets_are_write_only_and_refused_while_in_use(app: App, admin: Browser) -> None:
    answers = []
    sealed = admin.post("/admin/secrets", {"name": "peer-key", "value": SECRET_VALUE})
    answers.append(sealed)
    assert sealed.status_code == 303
    with app.connection() as conn:
        assert access.reveal_secret(conn, app.seal_key, "peer-key") == SECRET_VALUE
    listed = admin.get("/admin/secrets")
    answers.append(listed)
    assert "peer-key" in listed.text and "nothing" in listed.text
    # a refused form keeps the name, never the value
    bad = admin.post("/admin/secrets", {"name": "Bad Name", "value": SECRET_VALUE}, htmx=True)
    answers.append(bad)
    assert bad.status_code == 422 and "secret name" in bad.text and 'value="Bad Name"' in bad.text
    empty = admin.post("/admin/secrets", {"name": "other", "value": ""})
    answers.append(empty)
    assert empty.status_code == 422 and "must not be empty" in empty.text

    # a backend uses it: listed as a user, and deleting it is refused with the reason
    form = backend_form("http://127.0.0.1:9/v1", secret="peer-key")
    answers.append(admin.post("/admin/backends", form))
    assert backend(app).secret == "peer-key"
    for url in ("/admin/secrets", "/admin/backends", "/admin/backends/peer/edit"):
        answers.append(admin.get(url))
        answers.append(admin.get(url, htmx=True))
    assert "backend peer" in answers[-6].text
    refused = admin.post("/admin/secrets/peer-key/delete", {"confirm": "yes"})
    answers.append(refused)
    assert refused.status_code == 409 and "used by backend(s) peer" in refused.text
    with app.connection() as conn:
        assert [s["name"] for s in access.list_secrets(conn)] == ["peer-key"]

    # once free it goes, after a confirmation
    answers.append(admin.post("/admin/backends/peer/delete", {"confirm": "yes"}))
    asked = admin.post("/admin/secrets/peer-key/delete")
    answers.append(asked)
    assert asked.status_code == 200 and "Delete secret peer-key?" in asked.text
    gone = admin.post("/admin/secrets/peer-key/delete", {"confirm": "yes"}, htmx=True)
    answers.append(gone)
    assert gone.status_code == 200 and gone.headers["hx-location"]
    with app.connection() as conn:
        assert access.list_secrets(conn) == []
    for answer in answers:
        assert SECRET_VALUE not in answer.text
        assert SECRET_VALUE not in str(answer.headers)


# -- block types ---------------------------------------------------------------------------------


def type_form(**changes: Any) -> dict[str, Any]:
    form: dict[str, Any] = {
        "description": "Notes worth keeping",
        "retrieval_policy": "normal",
        "retrieval_factor": "1.0",
        "guard_duplicate": "0.98",
        "guard_review": "0.92",
        "default_sensitivity": "internal",
        "workflow": "",
        "guard_dedup": ["false", "true"],
        "dream_linkable": ["false", "true"],
        "embed": ["false", "true"],
        "temporal_extract": ["false", "true"],
    }
    form.update(changes)
    return form


def test_block_types_are_edited_and_validated(app: App, admin: Browser) -> None:
    listed = admin.get("/admin/types").text
    assert 'href="/admin/types/knowledge"' in listed and "audit-trail" in listed
    saved = admin.post(
        "/admin/types/knowledge",
        type_form(retrieval_policy="damped", retrieval_factor="0.5", dream_linkable=["false"]),
    )
    assert saved.status_code == 303 and saved.headers["location"] == "/admin/types?saved=knowledge"
    spec = app.block_types["knowledge"]  # the app reloaded its types
    assert spec.retrieval_policy == "damped" and spec.retrieval_factor == 0.5
    assert spec.dream_linkable is False and spec.description == "Notes worth keeping"
    assert "damped × 0.5" in admin.get("/admin/types?saved=knowledge").text

    crossed = admin.post("/admin/types/knowledge", type_form(guard_review="0.99"), htmx=True)
    assert crossed.status_code == 422
    assert "guard_review &lt;= guard_duplicate" in crossed.text and 'value="0.99"' in crossed.text
    word = admin.post("/admin/types/knowledge", type_form(retrieval_factor="half"))
    assert word.status_code == 422 and "retrieval_factor must be a number" in word.text
    assert app.block_types["knowledge"].guard_review == 0.92
    assert admin.post("/admin/types/nope", type_form()).status_code == 404


# -- API keys ------------------------------------------------------------------------------------


def test_a_new_key_is_shown_once_and_works(app: App, admin: Browser, server: TestClient) -> None:
    created = admin.post(
        "/admin/keys",
        {
            "name": "laptop",
            "home_scope": "team",
            "allowed_scopes": "shared, docs",
            "is_admin": ["false"],
        },
    )
    assert created.status_code == 200
    assert (
        "only time it is shown" in created.text and created.headers["cache-control"] == "no-store"
    )
    found = re.search(r'id="new-token" type="text" readonly value="(ctx_[^"]+)"', created.text)
    assert found
    token = found.group(1)
    with app.connection() as conn:
        who = access.authenticate(conn, token)
    assert who.name == "laptop" and who.read_scopes == ("team", "shared", "docs")
    assert not who.is_admin
    listed = admin.get("/admin/keys").text
    assert "laptop" in listed and token not in listed and token[:10] in listed
    # the key signs in to the workbench too
    fresh = Browser(server, token)
    fresh.sign_in()
    assert fresh.get("/").status_code == 200

    bad = admin.post("/admin/keys", {"name": "x", "home_scope": "Not A Scope"})
    assert bad.status_code == 422 and 'value="Not A Scope"' in bad.text

    revoke = f"/admin/keys/{who.key_id}/revoke"
    asked = admin.post(revoke)
    assert asked.status_code == 200 and "Revoke key laptop?" in asked.text
    assert "signed out" not in asked.text
    done = admin.post(revoke, {"confirm": "yes"})
    assert done.status_code == 303 and done.headers["location"] == "/admin/keys"
    with app.connection() as conn, pytest.raises(Unauthorized):
        access.authenticate(conn, token)
    assert fresh.get("/", follow_redirects=False).status_code == 303  # its session ended too
    assert admin.post(revoke, {"confirm": "yes"}).status_code == 404


def test_revoking_your_own_key_warns_and_signs_you_out(app: App, admin: Browser) -> None:
    with app.connection() as conn:
        me = access.authenticate(conn, admin.key)
    listed = admin.get("/admin/keys").text
    assert "This is the key you are signed in with" in listed  # in the hx-confirm text
    revoke = f"/admin/keys/{me.key_id}/revoke"
    asked = admin.post(revoke)
    assert "you will be signed out" in asked.text
    done = admin.post(revoke, {"confirm": "yes"})
    assert done.status_code == 303 and done.headers["location"] == "/signin"
    after = admin.get("/admin", follow_redirects=False)
    assert after.status_code == 303 and after.headers["location"].startswith("/signin")


# -- plugins and the model call log --------------------------------------------------------------


def test_plugins_are_listed_with_their_hooks(app: App, admin: Browser) -> None:
    page = admin.get("/admin/plugins").text
    for info in app.host.infos():
        assert f'<th scope="row">{info.name}</th>' in page
    assert "<code>register_settings</code>" in page


def log_call(app: App, role: str = "chat", outcome: str = "ok", **kw: Any) -> None:
    llm.record_call(app, llm.CallRecord(role, "peer", "test-model", "chat", outcome, 12.5, **kw))


def test_the_call_log_filters_pages_and_shows_text_only_when_kept(app: App, admin: Browser) -> None:
    log_call(
        app, request=[{"role": "user", "content": "what <b>now</b>?"}], response="UNKEPT-ANSWER"
    )
    set_setting(app, "llm.log_content", True)
    log_call(
        app,
        role="synthesis",
        request=[{"role": "user", "content": "what <b>now</b>?"}],
        response="an answer with <i>markup</i>",
        prompt_tokens=30,
        completion_tokens=4,
    )
    log_call(app, role="classify", outcome="timeout", error="read timed out")

    page = admin.get("/admin/llmlog").text
    assert page.count('<tr id="call-') == 3
    assert "an answer with &lt;i&gt;markup&lt;/i&gt;" in page and "<i>markup" not in page
    assert "what &lt;b&gt;now&lt;/b&gt;?" in page and "UNKEPT-ANSWER" not in page
    assert "read timed out" in page and "30 / 4" in page
    # the day's summary per backend and role
    assert re.search(
        r"<td>peer</td><td>classify</td><td class=\"num\">1</td>"
        r"<td class=\"num\">1</td>",
        page,
    )

    only = admin.get("/admin/llmlog?outcome=timeout", htmx=True).text
    assert only.count('<tr id="call-') == 1 and "read timed out" in only
    assert "<html" not in only
    assert admin.get("/admin/llmlog?role=poetry").status_code == 422

    for _ in range(51):
        log_call(app, role="translate")
    first = admin.get("/admin/llmlog?role=translate").text
    assert first.count('<tr id="call-') == 50
    older = re.search(r'href="/admin/llmlog\?(role=translate&amp;before=\d+)"', first)
    assert older, first
    second = admin.get("/admin/llmlog?" + older.group(1).replace("&amp;", "&")).text
    assert second.count('<tr id="call-') == 1 and "Newest" in second and "Older" not in second
    everything = admin.get("/admin/llmlog").text
    assert "Older" in everything
