"""Every 500 the fuzzer found, kept as a regression: each request gets a clear 4xx (or works)."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from ctx.core import App
from ctx.core.runtime import set_setting


@pytest.fixture
def user(app: App, keys: Any) -> dict[str, str]:
    set_setting(app, "query.weight_dense", 0.0)  # these are about input, not about the model
    return {"X-Context-Key": keys.make("alpha")}


@pytest.fixture
def admin(keys: Any) -> dict[str, str]:
    return {"X-Context-Key": keys.make("root", admin=True)}


def _json_error(r: Any, status: int, *words: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body = r.json()
    assert {"error", "message", "request_id"} <= set(body)
    for word in words:
        assert word in body["message"], (word, body["message"])
    return body


@pytest.mark.parametrize(
    "query",
    ["³", "meeting on ² March", "what happens in 10000 years", "vor 5000 Jahren", "am 3. ٣ März"],
)
def test_queries_with_odd_numbers_answer(client: Any, user: dict[str, str], query: str) -> None:
    r = client.post("/api/query", headers=user, json={"query": query})
    assert r.status_code == 200, r.text
    assert r.json()["confidence"] == "no_relevant_blocks_found"


@pytest.mark.parametrize(
    ("query", "now"),
    [("tomorrow", "9999-12-31"), ("yesterday", "0001-01-01"), ("next week", "9999-12-30")],
)
def test_relative_times_at_the_ends_of_the_calendar(
    client: Any, user: dict[str, str], query: str, now: str
) -> None:
    r = client.post("/api/query", headers=user, json={"query": query, "now": now})
    assert r.status_code == 200, r.text
    assert r.json()["temporal"]["matched"] is False  # a day outside the calendar is no time


NUL = "bad\x00value"
SURROGATE = "bad\ud800value"


@pytest.mark.parametrize("bad", [NUL, SURROGATE])
@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/search", {"query": "x", "category": "{bad}"}, "category"),
        ("/api/search", {"query": "x", "tags": ["ok", "{bad}"]}, "tags[1]"),
        ("/api/search", {"query": "x", "scopes": ["{bad}"]}, "scopes[0]"),
        ("/api/query", {"query": "x", "category": "{bad}"}, "category"),
        ("/api/query", {"query": "x", "exclude_types": ["{bad}"]}, "exclude_types[0]"),
        ("/api/manage", {"action": "list", "category": "{bad}"}, "category"),
        ("/api/store", {"title": "t", "content": "c", "tags": ["{bad}"]}, "tags[0]"),
        ("/api/store", {"title": "t", "content": "c", "metadata": {"k": "{bad}"}}, "metadata.k"),
        (
            "/api/store",
            {"title": "t", "content": "c", "metadata": {"a": [{"b": "{bad}"}]}},
            "metadata.a[0].b",
        ),
        ("/api/store", {"title": "t", "content": "c", "metadata": {"{bad}": 1}}, "metadata"),
    ],
)
def test_no_string_anywhere_may_hold_nul_or_lone_surrogates(
    app: App,
    client: Any,
    user: dict[str, str],
    path: str,
    body: dict[str, Any],
    field: str,
    bad: str,
) -> None:
    def fill(value: Any) -> Any:
        if isinstance(value, str):
            return value.replace("{bad}", bad)
        if isinstance(value, list):
            return [fill(v) for v in value]
        if isinstance(value, dict):
            return {fill(k): fill(v) for k, v in value.items()}
        return value

    raw = json.dumps(fill(body))  # ASCII escapes: the lone surrogate travels as \ud800
    r = client.post(path, headers={**user, "content-type": "application/json"}, content=raw)
    error = _json_error(r, 422)
    assert error["field"] == field
    with app.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM context_blocks").fetchone()["n"] == 0


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_non_finite_numbers_are_refused(
    client: Any, user: dict[str, str], admin: dict[str, str], number: str
) -> None:
    raw = '{"title": "t", "content": "c", "metadata": {"x": NUMBER}}'.replace("NUMBER", number)
    r = client.post("/api/store", headers={**user, "content-type": "application/json"}, content=raw)
    assert _json_error(r, 422, "finite")["field"] == "metadata.x"
    r = client.put(
        "/api/settings/query.weight_dense",
        headers={**admin, "content-type": "application/json"},
        content='{"value": NUMBER}'.replace("NUMBER", number),
    )
    _json_error(r, 422)


def test_numbers_and_times_out_of_range(client: Any, user: dict[str, str]) -> None:
    r = client.post("/api/manage", headers=user, json={"action": "list", "offset": 2**63})
    _json_error(r, 422)
    r = client.post("/api/manage", headers=user, json={"action": "list", "offset": 10**9})
    assert r.status_code == 200 and r.json()["blocks"] == []
    for when in ("0001-01-01T00:00:00+14:00", "9999-12-31T23:30:00-05:00"):
        r = client.post(
            "/api/store", headers=user, json={"title": "t", "content": "c", "occurred_at": when}
        )
        assert _json_error(r, 422, "years 1 to 9999")["field"] == "occurred_at"
    r = client.post(
        "/api/store",
        headers=user,
        json={"title": "Naive", "content": "c", "occurred_at": "2026-03-01T10:00:00"},
    )
    assert r.status_code == 200
    block = client.post("/api/manage", headers=user, json={"action": "get", "id": r.json()["id"]})
    assert block.json()["block"]["title"] == "Naive"


def test_admin_inputs_follow_the_same_rule(client: Any, admin: dict[str, str]) -> None:
    r = client.post("/api/keys", headers=admin, json={"name": NUL, "home_scope": "x"})
    assert _json_error(r, 422)["field"] == "name"
    r = client.patch("/api/types/knowledge", headers=admin, json={"description": NUL})
    assert _json_error(r, 422)["field"] == "description"
    r = client.patch(
        "/api/types/knowledge",
        headers={**admin, "content-type": "application/json"},
        content='{"retrieval_factor": NaN}',
    )
    _json_error(r, 422)
    assert _json_error(client.get("/api/types/%00", headers=admin), 422)["field"] == "path"
    assert _json_error(client.delete("/api/keys/%00", headers=admin), 422)["field"] == "path"
    r = client.get("/api/settings/query.rrf_k?x=%00", headers=admin)
    assert _json_error(r, 422, "query parameter")["field"] == "x"


def test_after_a_500_the_connection_stays_usable(database_url: str, tmp_path: Any) -> None:
    """A bug answers 500 with a JSON body, and the keep-alive connection serves the next request."""
    import http.client

    from live import live_server
    from plugin_kit import registers

    from ctx.core import Operation, Rest

    boom = Operation(
        name="buggy.boom",
        summary="A plugin's operation with a bug.",
        service=f"{__name__}:_boom",
        access="public",
        reach="none",
        rest=Rest("GET", "/api/boom"),
    )
    app = App(database_url=database_url, home=tmp_path, load_entry_points=False)
    app.host.register(registers("register_operations", boom), "buggy")
    with app, live_server(app) as url:
        host, port = url.removeprefix("http://").split(":")
        conn = http.client.HTTPConnection(host, int(port), timeout=10)
        conn.request("GET", "/api/boom")
        first = conn.getresponse()
        body = json.loads(first.read())
        assert first.status == 500 and body["error"] == "internal"
        assert "a bug" not in body["message"]  # details stay in the log
        conn.request("GET", "/health")  # the same connection
        second = conn.getresponse()
        assert second.status == 200 and json.loads(second.read()) == {"status": "ok"}
        conn.close()


def _boom(app: Any, who: Any, value: Any) -> None:
    raise RuntimeError("a bug")


def test_secret_settings_are_write_only_over_http(client: Any, admin: dict[str, str]) -> None:
    r = client.put("/api/settings/embed.api_key", headers=admin, json={"value": "sk-123"})
    assert _json_error(r, 422, "never stored in the database")["field"] == "embed.api_key"
    shown = client.get("/api/settings/embed.api_key", headers=admin).json()
    assert shown["secret"] is True and shown["value"] is None and shown["is_set"] is False
    listed = client.get("/api/settings", headers=admin).json()["settings"]
    assert next(s for s in listed if s["key"] == "embed.api_key")["value"] is None


# -- rough edges of the REST API ----------------------------------------------------------------


def test_no_key_is_401_before_anything_about_the_body(client: Any) -> None:
    r = client.post(
        "/api/query", content=b"{not json", headers={"content-type": "application/json"}
    )
    _json_error(r, 401, "API key")
    assert r.headers["www-authenticate"] == "Bearer"
    assert client.get("/api/nowhere").status_code == 401  # fail closed, even for unknown paths


def test_a_body_that_is_not_declared_json_gets_a_clear_415(
    client: Any, user: dict[str, str]
) -> None:
    # curl -d sends application/x-www-form-urlencoded
    r = client.post(
        "/api/query",
        headers={**user, "content-type": "application/x-www-form-urlencoded"},
        content=b'{"query": "x"}',
    )
    _json_error(r, 415, "Content-Type: application/json")
    r = client.post(
        "/api/query",
        headers={**user, "content-type": "application/json; charset=utf-8"},
        content=b'{"query": "x"}',
    )
    assert r.status_code == 200


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/query", {"query": "x", "now": 0}, "now"),
        ("/api/query", {"query": "x", "limit": True}, "limit"),
        ("/api/query", {"query": "x", "explain": "yes"}, "explain"),
        ("/api/store", {"title": "t", "content": "c", "occurred_at": 0}, "occurred_at"),
        ("/api/manage", {"action": "list", "limit": "5"}, "limit"),
        ("/api/search", {"query": "x", "tags": [""]}, "tags.0"),
        ("/api/query", {"query": "x", "tags": ["  "]}, "tags.0"),
        ("/api/query", {"query": "x", "exclude_ids": [""]}, "exclude_ids.0"),
        ("/api/query", {"query": "   "}, "query"),
        ("/api/search", {"query": "   "}, "query"),
    ],
)
def test_types_are_strict_and_empty_values_refused_alike(
    client: Any, user: dict[str, str], path: str, body: dict[str, Any], field: str
) -> None:
    error = _json_error(client.post(path, headers=user, json=body), 422)
    assert error["field"] == field
    assert "Input should" not in error["message"] and "String should" not in error["message"]


def test_messages_are_ctxs_not_pydantics(client: Any, user: dict[str, str]) -> None:
    error = _json_error(
        client.post("/api/store", headers=user, json={"title": "", "content": "c"}), 422
    )
    assert error["message"] == "title: must not be empty"
    error = _json_error(
        client.post("/api/query", headers=user, json={"query": "x", "limit": 99}), 422
    )
    assert error["message"] == "limit: must be at most 20"
    error = _json_error(client.post("/api/manage", headers=user, json={"action": "nope"}), 422)
    assert error["message"].startswith("action: must be one of get, delete, list")


def test_405_says_what_is_allowed(client: Any, user: dict[str, str]) -> None:
    r = client.request("TRACE", "/api/query", headers=user)
    _json_error(r, 405, "TRACE is not allowed")
    assert r.headers["allow"] == "POST"


def test_405_names_every_method_of_the_path(client: Any, user: dict[str, str]) -> None:
    # several routes share a path: Allow names them all, not only the first route's
    r = client.request("OPTIONS", "/api/settings/query.rerank", headers=user)
    _json_error(r, 405, "OPTIONS is not allowed")
    assert {m.strip() for m in r.headers["allow"].split(",")} >= {"GET", "PUT", "DELETE"}
    # a path of its own beside a numbered one: its missing method is a 405, not a bad number
    r = client.request("PATCH", "/api/issues/suggest", headers=user)
    _json_error(r, 405, "PATCH is not allowed")
    assert r.headers["allow"] == "POST"
    r = client.request("OPTIONS", "/api/issues/7", headers=user)
    assert {m.strip() for m in r.headers["allow"].split(",")} >= {"GET", "PATCH"}


def test_manage_stats_respects_the_scope_like_list(client: Any, user: dict[str, str]) -> None:
    client.post("/api/store", headers=user, json={"title": "t", "content": "c"})
    r = client.post("/api/manage", headers=user, json={"action": "stats", "scope": "alpha"})
    assert r.json()["stats"]["by_scope"] == {"alpha": 1}
    _json_error(
        client.post("/api/manage", headers=user, json={"action": "stats", "scope": "secret"}), 403
    )


def test_edit_archive_and_unarchive_by_id(app: App, client: Any, user: dict[str, str]) -> None:
    first = client.post("/api/store", headers=user, json={"title": "Plan", "content": "v1"}).json()
    client.post("/api/store", headers=user, json={"title": "Other", "content": "x"})
    ident = first["id"][:8]

    def manage(**body: Any) -> Any:
        return client.post("/api/manage", headers=user, json=body)

    r = manage(action="update", id=ident, changes={"content": "v2", "tags": ["ops"]})
    assert (
        r.status_code == 200 and r.json()["action"] == "updated" and r.json()["id"] == first["id"]
    )
    block = manage(action="get", id=ident).json()["block"]
    assert (block["content"], block["tags"], block["title"]) == ("v2", ["ops"], "Plan")
    # renaming onto another block's key is a conflict, and changes nothing
    _json_error(manage(action="update", id=ident, changes={"title": "Other"}), 409, "already has")
    assert manage(action="get", id=ident).json()["block"]["title"] == "Plan"
    _json_error(manage(action="update", id=ident, changes={}), 422, "nothing to change")
    _json_error(manage(action="update", id=ident), 422, "needs changes")
    _json_error(manage(action="update", id=ident, changes={"title": ""}), 422)

    assert manage(action="archive", id=ident).json()["action"] == "archived"
    assert client.post("/api/search", headers=user, json={"query": "v2"}).json()["count"] == 0
    assert manage(action="get", id=ident).json()["block"]["is_archived"] is True
    assert manage(action="unarchive", id=ident).json()["action"] == "unarchived"
    assert client.post("/api/search", headers=user, json={"query": "v2"}).json()["count"] == 1
    with app.connection() as conn:
        actions = [
            r["action"]
            for r in conn.execute(
                "SELECT action FROM context_write_log WHERE block_id = %s ORDER BY id",
                (first["id"],),
            ).fetchall()
        ]
    assert actions == ["block.created", "block.updated", "block.archived", "block.unarchived"]


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"title": None}, "changes.title", "must not be null"),
        ({"content": None}, "changes.content", "must not be null"),
        ({"block_type": None}, "changes.block_type", "must not be null"),
        ({"tags": None}, "changes.tags", "must not be null"),
        ({"metadata": None}, "changes.metadata", "must not be null"),
        ({"category": None}, "changes.category", "must not be null"),
        ({"title": "two\nlines"}, "changes.title", "one line"),
        ({"title": "   "}, "changes.title", "not empty"),
        ({"category": "  "}, "changes.category", "must not be empty"),
        ({"tags": ["  "]}, "changes.tags.0", "must not be empty"),
        ({"occurred_at": "0001-01-01T00:00:00+14:00"}, "changes.occurred_at", "years 1 to 9999"),
        ({"occurred_at": "1700000000"}, "changes.occurred_at", "ISO 8601"),
        ({"block_type": "nosuch"}, "block_type", "unknown block_type"),
    ],
)
def test_an_edit_obeys_the_rules_of_store(
    client: Any, user: dict[str, str], changes: dict[str, Any], field: str, words: str
) -> None:
    ident = client.post("/api/store", headers=user, json={"title": "T", "content": "c"}).json()[
        "id"
    ]
    r = client.post(
        "/api/manage", headers=user, json={"action": "update", "id": ident, "changes": changes}
    )
    assert _json_error(r, 422, words)["field"] == field
    block = client.post("/api/manage", headers=user, json={"action": "get", "id": ident})
    assert (block.json()["block"]["title"], block.json()["block"]["content"]) == ("T", "c")


def test_an_edit_may_clear_the_date_and_the_sensitivity(client: Any, user: dict[str, str]) -> None:
    body = {"title": "T", "content": "c", "occurred_at": "2024-05-01", "sensitivity": "personal"}
    ident = client.post("/api/store", headers=user, json=body).json()["id"]
    changes = {"occurred_at": None, "sensitivity": None}
    r = client.post(
        "/api/manage", headers=user, json={"action": "update", "id": ident, "changes": changes}
    )
    assert r.status_code == 200, r.text
    block = client.post("/api/manage", headers=user, json={"action": "get", "id": ident})
    assert block.json()["block"]["occurred_at"] is None


@pytest.mark.parametrize("depth", [70, 900])
def test_deeply_nested_metadata_is_a_422(client: Any, user: dict[str, str], depth: int) -> None:
    body = '{"title":"T","content":"c","metadata":{"a":' + "[" * depth + "]" * depth + "}}"
    r = client.post(
        "/api/store", headers={**user, "content-type": "application/json"}, content=body
    )
    assert _json_error(r, 422, "nested more than 64 levels")["field"] == "metadata"


@pytest.mark.parametrize("value", ["1700000000", "86400", "2024-05-01T10:00:00"])
def test_a_date_is_iso_text_not_a_number(client: Any, user: dict[str, str], value: str) -> None:
    r = client.post("/api/query", headers=user, json={"query": "plans", "now": value})
    assert _json_error(r, 422, "YYYY-MM-DD")["field"] == "now"


def test_a_block_deleted_while_we_wait_for_its_lock_is_a_404(app: App, keys: Any) -> None:
    from ctx.core import NotFound, Principal, StoreRequest, delete_block, store_block

    who = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")
    ident = str(store_block(app, who, StoreRequest(title="Twice", content="x"))["id"])
    outcome: list[BaseException | dict[str, Any]] = []

    def second() -> None:
        try:
            outcome.append(delete_block(app, who, ident))
        except BaseException as exc:  # checked below
            outcome.append(exc)

    with app.connection() as first:
        first.execute("DELETE FROM context_blocks WHERE id = %s", (ident,))  # holds the row lock
        other = threading.Thread(target=second)
        other.start()
        other.join(timeout=0.5)
    other.join(timeout=30)
    assert len(outcome) == 1 and isinstance(outcome[0], NotFound), outcome


def test_a_secret_left_in_the_database_can_be_removed(
    app: App, client: Any, admin: dict[str, str]
) -> None:
    with app.connection() as conn:  # as an older version could have stored it
        conn.execute(
            "INSERT INTO context_settings (key, value) VALUES ('embed.api_key', '\"sk-old\"')"
        )
    r = client.delete("/api/settings/embed.api_key", headers=admin)
    assert r.status_code == 200, r.text
    with app.connection() as conn:
        left = conn.execute("SELECT key FROM context_settings WHERE key = 'embed.api_key'")
        assert left.fetchall() == []


def test_the_openapi_schema_describes_auth_errors_and_responses(client: Any) -> None:
    spec = client.get("/openapi.json").json()
    schemes = spec["components"]["securitySchemes"]
    assert schemes["ContextKey"] == {"type": "apiKey", "in": "header", "name": "X-Context-Key"}
    assert schemes["Bearer"]["scheme"] == "bearer"
    query = spec["paths"]["/api/query"]["post"]
    assert {"ContextKey": []} in query["security"]
    assert query["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/QueryResponse"
    )
    for status in ("401", "403", "413", "415", "422"):
        ref = query["responses"][status]["content"]["application/json"]["schema"]["$ref"]
        assert ref.endswith("/ErrorBody"), status
    assert "HTTPValidationError" not in spec["components"]["schemas"]
    manage = spec["paths"]["/api/manage"]["post"]["responses"]
    assert {"404", "409"} <= set(manage)
    whoami = spec["paths"]["/api/whoami"]["get"]["responses"]["200"]
    assert whoami["content"]["application/json"]["schema"]["$ref"].endswith("/WhoAmI")


def test_docs_work_offline_under_a_strict_csp(client: Any) -> None:
    page = client.get("/docs")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    csp = page.headers["content-security-policy"]
    assert "script-src 'self';" in csp and "http" not in csp  # nothing from elsewhere
    assert "<script>" not in page.text and "cdn" not in page.text.lower()  # no inline script
    assets = [part.split('"')[0] for part in page.text.split('src="')[1:]]
    assets += [part.split('"')[0] for part in page.text.split('href="')[1:]]
    assert len(assets) == 3
    for asset in assets:
        assert asset.startswith("/-/static/api/"), asset
        r = client.get(asset)
        assert r.status_code == 200 and len(r.content) > 100, asset
    bundle = next(a for a in assets if a.endswith("swagger-ui-bundle.js"))
    assert "SwaggerUIBundle" in client.get(bundle).text
    assert "swagger-ui-5." in bundle  # the vendored version is in the file name
