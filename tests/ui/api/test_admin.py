"""Admin endpoints: the admin gate, API keys, settings and block types over HTTP."""

from __future__ import annotations

from typing import Any

from ctx.core import App, access

ADMIN_CALLS: list[tuple[str, str, dict[str, Any] | None]] = [
    ("GET", "/api/settings", None),
    ("GET", "/api/settings/search.default_limit", None),
    ("PUT", "/api/settings/search.default_limit", {"value": 3}),
    ("DELETE", "/api/settings/search.default_limit", None),
    ("GET", "/api/types", None),
    ("GET", "/api/types/knowledge", None),
    ("PATCH", "/api/types/knowledge", {"embed": False}),
    ("GET", "/api/keys", None),
    ("POST", "/api/keys", {"name": "sneaky", "home_scope": "alpha", "is_admin": True}),
    ("DELETE", "/api/keys/{admin_id}", None),
    ("GET", "/api/plugins", None),
]


def _snapshot(app: App) -> dict[str, Any]:
    with app.connection() as conn:
        return {
            "settings": conn.execute("SELECT * FROM context_settings").fetchall(),
            "types": conn.execute("SELECT * FROM context_block_types ORDER BY name").fetchall(),
            "keys": conn.execute(
                "SELECT id, name, revoked_at FROM context_api_keys ORDER BY created_at"
            ).fetchall(),
        }


def test_admin_endpoints_refuse_other_keys_and_change_nothing(
    app: App, keys: Any, client: Any
) -> None:
    keys.make("root", admin=True)
    with app.connection() as conn:
        admin_id = access.list_keys(conn)[0]["id"]
    user = {"X-Context-Key": keys.make("alpha", allowed=["root"])}
    before = _snapshot(app)
    for method, path, body in ADMIN_CALLS:
        url = path.format(admin_id=admin_id)
        forbidden = client.request(method, url, json=body, headers=user)
        assert forbidden.status_code == 403, (method, url)
        assert forbidden.json()["error"] == "forbidden"
        assert "admin" in forbidden.json()["message"]
        anonymous = client.request(method, url, json=body)
        assert anonymous.status_code == 401, (method, url)
        assert anonymous.headers["www-authenticate"] == "Bearer"
    after = _snapshot(app)
    assert [k["id"] for k in after.pop("keys")] == [k["id"] for k in before.pop("keys")]
    assert after == before
    assert app.settings.resolve("search.default_limit") == (10, "default")


def test_keys_are_created_shown_once_listed_and_revoked(app: App, keys: Any, client: Any) -> None:
    admin = {"X-Context-Key": keys.make("root", admin=True)}
    created = client.post(
        "/api/keys",
        json={"name": "agent", "home_scope": "alpha", "allowed_scopes": ["team"]},
        headers=admin,
    )
    assert created.status_code == 201
    token = created.json()["api_key"]
    key_id = created.json()["id"]
    new = {"Authorization": f"Bearer {token}"}
    who = client.get("/api/whoami", headers=new).json()
    assert who["key_id"] == key_id and who["read_scopes"] == ["alpha", "team"]

    listed = client.get("/api/keys", headers=admin)
    assert listed.status_code == 200
    assert token not in listed.text and access.hash_token(token) not in listed.text
    row = next(k for k in listed.json()["keys"] if k["id"] == key_id)
    assert row["name"] == "agent" and token.startswith(row["key_prefix"])
    assert row["home_scope"] == "alpha" and row["allowed_scopes"] == ["team"]
    assert row["last_used_at"] is not None

    bad = client.post("/api/keys", json={"name": "x", "home_scope": "No Good"}, headers=admin)
    assert bad.status_code == 422 and bad.json()["field"] == "home_scope"
    unknown = client.post("/api/keys", json={"name": "x", "home_scope": "a", "x": 1}, headers=admin)
    assert unknown.status_code == 422
    assert len(client.get("/api/keys", headers=admin).json()["keys"]) == 2

    revoked = client.delete(f"/api/keys/{key_id}", headers=admin)
    assert revoked.status_code == 200 and revoked.json() == {"id": key_id, "revoked": True}
    assert client.delete(f"/api/keys/{key_id}", headers=admin).status_code == 404
    assert client.get("/api/whoami", headers=new).status_code == 401
    assert [k["id"] for k in client.get("/api/keys", headers=admin).json()["keys"]] != [key_id]


def test_revoked_and_unknown_keys_get_the_same_401(keys: Any, client: Any) -> None:
    admin = {"X-Context-Key": keys.make("root", admin=True)}
    made = client.post("/api/keys", json={"name": "n", "home_scope": "alpha"}, headers=admin)
    token = made.json()["api_key"]
    client.delete(f"/api/keys/{made.json()['id']}", headers=admin)

    bodies = []
    for headers in (
        {"X-Context-Key": token},
        {"Authorization": f"Bearer {token}"},
        {"X-Context-Key": "ctx_" + "A" * 43},
        {"X-Context-Key": "x" * 500},
        {},
    ):
        r = client.post("/api/store", json={"title": "t", "content": "c"}, headers=headers)
        assert r.status_code == 401
        assert r.headers["www-authenticate"] == "Bearer"
        body = r.json()
        assert body.pop("request_id")
        bodies.append(body)
    assert all(body == bodies[0] for body in bodies)
    assert bodies[0] == {"error": "unauthorized", "message": "missing or invalid API key"}


def test_settings_are_read_set_and_unset(app: App, keys: Any, client: Any) -> None:
    admin = {"X-Context-Key": keys.make("root", admin=True)}
    listed = client.get("/api/settings", headers=admin)
    assert listed.status_code == 200
    keys_listed = {s["key"] for s in listed.json()["settings"]}
    assert {"server.port", "search.default_limit", "jobs.max_attempts"} <= keys_listed

    url = "/api/settings/search.default_limit"
    assert client.get(url, headers=admin).json()["source"] == "default"
    put = client.put(url, json={"value": "7"}, headers=admin)
    assert put.status_code == 200
    assert (put.json()["value"], put.json()["source"]) == (7, "database")
    assert app.settings["search.default_limit"] == 7

    for value, words in ((0, ">= 1"), ("seven", "integer"), (True, "integer"), ([3], "integer")):
        r = client.put(url, json={"value": value}, headers=admin)
        assert r.status_code == 422, value
        assert words in r.json()["message"] and r.json()["field"] == "search.default_limit"
    assert client.put(url, json={"val": 3}, headers=admin).status_code == 422
    unknown = client.put("/api/settings/no.such", json={"value": 1}, headers=admin)
    # no such setting is no such resource
    assert unknown.status_code == 404 and "unknown setting 'no.such'" in unknown.json()["message"]
    assert client.get("/api/settings/no.such", headers=admin).status_code == 404
    with app.connection() as conn:
        rows = conn.execute("SELECT key, value FROM context_settings").fetchall()
    assert rows == [{"key": "search.default_limit", "value": 7}]

    unset = client.delete(url, headers=admin)
    assert unset.status_code == 200
    assert (unset.json()["value"], unset.json()["source"]) == (10, "default")
    with app.connection() as conn:
        assert conn.execute("SELECT key FROM context_settings").fetchall() == []


def test_types_are_listed_shown_and_validated(app: App, keys: Any, client: Any) -> None:
    admin = {"X-Context-Key": keys.make("root", admin=True)}
    listed = client.get("/api/types", headers=admin).json()["types"]
    assert [t["name"] for t in listed] == [
        "audit-trail",
        "digest",
        "event",
        "issue",
        "issue-comment",
        "knowledge",
        "memory",
        "reference",
        "system-meta",
    ]
    shown = client.get("/api/types/audit-trail", headers=admin).json()
    assert shown["retrieval_policy"] == "damped" and shown["retrieval_factor"] == 0.5
    assert client.get("/api/types/ghost", headers=admin).status_code == 404

    before = client.get("/api/types/knowledge", headers=admin).json()
    for changes, words in (
        ({"guard_review": 0.99}, "guard_review <= guard_duplicate"),
        ({"colour": "red"}, "unknown block type field 'colour'"),
        ({"embed": 5}, "true or false"),
        ({"retrieval_factor": [1]}, "must be a number"),
        ({"description": None}, "must be a string"),
    ):
        r = client.patch("/api/types/knowledge", json=changes, headers=admin)
        assert r.status_code == 422, changes
        assert words in r.json()["message"]
    assert client.patch("/api/types/knowledge", json=[1], headers=admin).status_code == 422
    assert client.patch("/api/types/ghost", json={"embed": True}, headers=admin).status_code == 404
    assert client.get("/api/types/knowledge", headers=admin).json() == before

    ok = client.patch(
        "/api/types/knowledge", json={"guard_review": 0.9, "retrieval_factor": "0.8"}, headers=admin
    )
    assert ok.status_code == 200
    assert ok.json()["guard_review"] == 0.9 and ok.json()["retrieval_factor"] == 0.8
    edited = app.block_type("knowledge")  # reloaded at once, no restart needed
    assert edited is not None and edited.guard_review == 0.9

    bad_type = client.post(
        "/api/store", json={"title": "t", "content": "c", "block_type": "ghost"}, headers=admin
    )
    assert bad_type.status_code == 422 and bad_type.json()["field"] == "block_type"
    assert "knowledge" in bad_type.json()["message"] and "system-meta" in bad_type.json()["message"]


def test_plugins_are_listed(keys: Any, client: Any) -> None:
    admin = {"X-Context-Key": keys.make("root", admin=True)}
    r = client.get("/api/plugins", headers=admin)
    assert r.status_code == 200
    by_name = {p["name"]: p for p in r.json()["plugins"]}
    assert by_name["block-types"]["hooks"] == ["register_block_types"]
    assert by_name["block-types"]["source"] == "builtin"
    assert all(set(p) == {"name", "source", "version", "hooks"} for p in by_name.values())
