"""Per-key rate limits (writes, queries, model calls), their classification of every route, and
the longest content per block type: each refusal is a clear 429 or 4xx, and nothing refused is
counted or written."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.routing import APIRoute

from ctx.core import App
from ctx.core.access import authenticate, limits
from ctx.core.runtime import set_setting
from ctx.core.tools import call_tool
from ctx.ui import create_app
from ctx.ui.api.marks import declared_limits


def h(token: str) -> dict[str, str]:
    return {"X-Context-Key": token}


def _store(client: Any, key: dict[str, str], title: str) -> Any:
    return client.post("/api/store", json={"title": title, "content": "a note"}, headers=key)


def _blocks(app: App) -> int:
    with app.connection() as conn:
        return int(conn.execute("SELECT count(*) AS n FROM context_blocks").fetchone()["n"])


def _refused(r: Any, setting: str) -> int:
    """A 429 naming the setting, with a Retry-After of whole seconds; the seconds."""
    assert r.status_code == 429, r.text
    body = r.json()
    assert body["error"] == "rate_limited" and setting in body["message"], body
    wait = int(r.headers["retry-after"])
    assert 1 <= wait <= 120
    assert f"try again in {wait} s" in body["message"]
    return wait


def test_writes_over_the_limit_get_429_and_write_nothing(app: App, client: Any, keys: Any) -> None:
    set_setting(app, "limits.writes_per_minute", 3)
    alpha, beta = h(keys.make("alpha")), h(keys.make("beta"))
    assert [_store(client, alpha, f"note {i}").status_code for i in range(3)] == [200] * 3
    before = _blocks(app)
    _refused(_store(client, alpha, "one too many"), "limits.writes_per_minute")
    assert _blocks(app) == before  # the refused store wrote nothing
    # other keys and other kinds are not affected
    assert _store(client, beta, "beta's note").status_code == 200
    r = client.post("/api/search", json={"query": "note"}, headers=alpha)
    assert r.status_code == 200, r.text
    # writes through /api/manage count too; its reads do not
    r = client.post("/api/manage", json={"action": "list"}, headers=alpha)
    assert r.status_code == 200, r.text
    first = r.json()["blocks"][0]["id"]
    r = client.post("/api/manage", json={"action": "delete", "id": first}, headers=alpha)
    _refused(r, "limits.writes_per_minute")
    # 0 switches the limit off
    set_setting(app, "limits.writes_per_minute", 0)
    assert _store(client, alpha, "no limit now").status_code == 200


def test_reads_and_model_calls_have_their_own_limits(app: App, client: Any, keys: Any) -> None:
    set_setting(app, "limits.queries_per_minute", 2)
    set_setting(app, "limits.model_calls_per_minute", 1)
    key = h(keys.make("alpha"))
    assert client.get("/api/whoami", headers=key).status_code == 200
    body = {"query": "anything", "synthesize": True}
    r = client.post("/api/query", json=body, headers=key)  # a read and a model call
    assert r.status_code == 200, r.text
    _refused(client.post("/api/search", json={"query": "x"}, headers=key), "queries_per_minute")
    set_setting(app, "limits.queries_per_minute", 0)
    _refused(client.post("/api/query", json=body, headers=key), "model_calls_per_minute")
    # without an answer the same query is no model call
    r = client.post("/api/query", json={**body, "synthesize": False}, headers=key)
    assert r.status_code == 200, r.text
    # writes were never counted
    assert _store(client, key, "still writable").status_code == 200


def test_the_gateway_answers_429_in_openais_shape(app: App, client: Any, keys: Any) -> None:
    set_setting(app, "limits.queries_per_minute", 1)
    key = {"Authorization": f"Bearer {keys.make('alpha')}"}
    client.get("/v1/models", headers=key)
    r = client.get("/v1/models", headers=key)
    assert r.status_code == 429, r.text
    assert r.json()["error"]["type"] == "rate_limit_error"
    assert "limits.queries_per_minute" in r.json()["error"]["message"]
    assert int(r.headers["retry-after"]) >= 1


def test_mcp_tools_count_as_reads_or_writes(app: App, keys: Any) -> None:
    set_setting(app, "limits.writes_per_minute", 1)
    set_setting(app, "limits.queries_per_minute", 1)
    with app.connection() as conn:
        who = authenticate(conn, keys.make("alpha"))
    store = {"title": "From an agent", "content": "remember this"}
    assert call_tool(app, who, "store", store).error is None
    refused = call_tool(app, who, "store", {**store, "title": "again"})
    assert refused.code == "rate_limited" and "writes_per_minute" in str(refused.error)
    assert call_tool(app, who, "search", {"query": "agent"}).error is None
    assert call_tool(app, who, "recent", {}).code == "rate_limited"
    # invalid arguments are refused before they count
    set_setting(app, "limits.queries_per_minute", 2)
    assert call_tool(app, who, "search", {"nonsense": 1}).code == "invalid"
    assert call_tool(app, who, "search", {"query": "agent"}).error is None


def test_a_refused_request_is_not_counted(app: App, client: Any, keys: Any) -> None:
    """Hammering past the limit does not push the wait further out: refusals leave the count
    where it was."""
    set_setting(app, "limits.writes_per_minute", 2)
    key = h(keys.make("alpha"))
    for i in range(2):
        assert _store(client, key, f"n{i}").status_code == 200
    for i in range(5):
        _refused(_store(client, key, f"over {i}"), "writes_per_minute")
    with app.connection() as conn:
        counted = conn.execute(
            "SELECT sum(n) AS n FROM context_rate_counts WHERE kind = 'writes'"
        ).fetchone()["n"]
    assert counted == 2


def test_the_sliding_window_estimate_and_the_wait() -> None:
    # the previous minute counts by the part of it still within the last 60 s
    assert limits.estimate(4, 10, 0.0) == 14
    assert limits.estimate(4, 10, 30.0) == 9
    assert limits.estimate(4, 10, 60.0) == 4
    # limit 10, 4 this minute, 10 the last, 30 s in: one more fits when 5 + 10 * (1 - t/60)
    # <= 10, at t = 30 s, that is now; with 6 this minute, at t = 42 s: 12 s from now
    assert limits.retry_after(4, 10, 30.0, 10) == 1
    assert limits.retry_after(6, 10, 30.0, 10) == 12
    # this minute full: wait for the next, and then for its share of this one to fade
    assert limits.retry_after(10, 0, 45.0, 10) == 15 + 6
    # a limit of 1: the next minute starts with this one's request at full weight
    assert limits.retry_after(1, 0, 59.5, 1) == 61


def test_unknown_kinds_are_a_programming_error(app: App, keys: Any) -> None:
    with app.connection() as conn:
        who = authenticate(conn, keys.make("alpha"))
    with pytest.raises(Exception, match="unknown rate limit kind"):
        limits.charge_limits(app, who, "everything")


def _api_routes(app: App) -> dict[tuple[str, str], tuple[str, ...] | None]:
    """(method, path) of every HTTP route, whichever way FastAPI nests included routers, and the
    limits the route declares (its operation's, a page's ``@charges``), None where it declares
    none (a page that counts by its method, a route that takes no key)."""
    from fastapi.routing import _IncludedRouter  # type: ignore[attr-defined]

    def walk(routes: list[Any]) -> Any:
        for r in routes:
            if isinstance(r, _IncludedRouter):
                yield from walk(r.effective_candidates())
            else:
                yield r

    found = {}
    for route in walk(list(create_app(app).routes)):
        if isinstance(route, APIRoute) or hasattr(route, "methods"):
            declared = declared_limits(getattr(route, "endpoint", None))
            for method in route.methods or ():
                if method != "HEAD":
                    found[(method, route.path)] = declared
    return found


def test_every_keyed_route_declares_its_kinds(app: App) -> None:
    """Every route of the REST API counts against what its operation declares (a public one,
    such as the health check or a forge's webhook, against nothing); a GET never counts as a
    write; a page that posts without writing says so."""
    routes = _api_routes(app)
    api = {r: kinds for r, kinds in routes.items() if r[1].startswith(("/api/", "/-/"))}
    assert len(api) > 60, "the route walk found too few routes to mean anything"
    for (method, path), kinds in routes.items():
        if kinds is None:
            continue  # a page, counted by its method
        assert set(kinds) <= set(limits.KINDS), (method, path)
        if method == "GET":
            assert "writes" not in kinds, (method, path)
    public = {
        (op.rest.method, op.rest.path)
        for op in app.operations.values()
        if op.rest is not None and op.access == "public"
    }
    for route, kinds in api.items():
        assert kinds is not None, f"{route} declares no kinds"
        assert bool(kinds) != (route in public), route  # only a route without a key counts nothing
    assert routes[("POST", "/ask")] == ("queries",)
    assert routes[("POST", "/graph/data/ego")] == ("queries",)
    assert routes[("GET", "/health")] == ()
    # the model-calling routes say so
    for path in ("/api/chat/stream", "/api/synthesize/daily", "/api/dream/run"):
        assert "model" in routes[("POST", path)]


def test_content_longer_than_its_type_allows_is_refused(app: App, client: Any, keys: Any) -> None:
    admin, key = h(keys.make("root", admin=True)), h(keys.make("alpha"))
    r = client.patch("/api/types/audit-trail", json={"max_content_chars": 40}, headers=admin)
    assert r.status_code == 200, r.text
    before = _blocks(app)
    long = {"title": "Deploy log", "content": "x" * 41, "block_type": "audit-trail"}
    r = client.post("/api/store", json=long, headers=key)
    assert r.status_code == 422, r.text
    assert r.json()["field"] == "content" and "'audit-trail'" in r.json()["message"]
    assert _blocks(app) == before
    # other types keep their own limit; an edit into the type obeys it too
    r = client.post("/api/store", json={**long, "block_type": "knowledge"}, headers=key)
    assert r.status_code == 200, r.text
    change = {"action": "update", "id": r.json()["id"], "changes": {"block_type": "audit-trail"}}
    r = client.post("/api/manage", json=change, headers=key)
    assert r.status_code == 422 and r.json()["field"] == "content", r.text
    # the setting itself is checked
    for bad in (0, 900_001, "lots", 1.5):
        r = client.patch("/api/types/audit-trail", json={"max_content_chars": bad}, headers=admin)
        assert r.status_code == 422, (bad, r.text)


def test_the_workbench_counts_for_its_signed_in_key(app: App, client: Any, keys: Any) -> None:
    from web_kit import Browser

    token = keys.make("alpha")
    browser = Browser(client, token)
    browser.sign_in()
    set_setting(app, "limits.writes_per_minute", 1)
    form = {"title": "From the workbench", "content": "typed", "block_type": "knowledge"}
    assert browser.post("/blocks", form).status_code in (200, 303)
    before = _blocks(app)
    r = browser.post("/blocks", {**form, "title": "Second"})
    assert r.status_code == 429 and "limits.writes_per_minute" in r.text, r.text
    assert _blocks(app) == before
    # the same key over the API is already at its limit: one count for both
    _refused(_store(client, h(token), "from the API"), "limits.writes_per_minute")
    # pages are reads (counted afresh: the posts above were followed to pages)
    with app.connection() as conn:
        conn.execute("DELETE FROM context_rate_counts")
    set_setting(app, "limits.queries_per_minute", 1)
    assert browser.get("/blocks").status_code == 200
    assert browser.get("/blocks").status_code == 429


def test_every_keyed_operation_documents_the_429(client: Any) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    undocumented = [
        (method, path)
        for path, operations in paths.items()
        if path.startswith("/api/") and not path.startswith("/api/forge/")
        for method, operation in operations.items()
        if "429" not in operation["responses"]
    ]
    assert len(paths) > 60 and undocumented == []
