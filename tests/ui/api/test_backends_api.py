"""/api/backends: admin-only CRUD of the model backends, their test probe, and the secrets they
reference (listed with the secret, and a delete refused while in use)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import openai_server
import pytest

from ctx.core import App
from ctx.core.runtime import set_setting

BODY: dict[str, Any] = {
    "name": "peer",
    "kind": "openai",
    "roles": ["synthesis", "rerank"],
    "model_map": {"default": "test-model", "rerank": "rank-model"},
    "trust": "full-trust",
    "priority": 50,
    "description": "the loopback peer",
}


@pytest.fixture
def srv() -> Iterator[Any]:
    with openai_server.OpenAIServer() as server:
        yield server


@pytest.fixture
def admin(app: App, keys: Any) -> dict[str, str]:
    set_setting(app, "llm.read_timeout", 0.5)
    return {"X-Context-Key": keys.make("root", admin=True)}


def test_create_list_update_test_delete(
    app: App, client: Any, admin: dict[str, str], srv: Any
) -> None:
    created = client.post("/api/backends", json={**BODY, "base_url": srv.base_url}, headers=admin)
    assert created.status_code == 201, created.text
    row = created.json()
    assert row["name"] == "peer" and row["roles"] == ["synthesis", "rerank"]
    assert row["base_url"] == srv.base_url and row["cooldown"] is None
    assert row["updated_by"].startswith("api:") and row["secret"] is None

    listed = client.get("/api/backends", headers=admin).json()
    assert [b["name"] for b in listed["backends"]] == ["peer"]
    assert "openai" in [k["name"] for k in listed["kinds"]]
    assert [b.name for b in app.backends.chain("synthesis")] == ["peer"]  # pool invalidated

    changed = client.patch("/api/backends/peer", json={"priority": 7}, headers=admin)
    assert changed.status_code == 200
    assert changed.json()["priority"] == 7 and changed.json()["roles"] == ["synthesis", "rerank"]
    assert client.get("/api/backends/peer", headers=admin).json()["priority"] == 7

    tested = client.post("/api/backends/peer/test", headers=admin)
    assert tested.status_code == 200
    results = {r["role"]: r for r in tested.json()["results"]}
    assert tested.json()["backend"] == "peer" and set(results) == {"synthesis", "rerank"}
    assert all(r["ok"] and r["latency_ms"] >= 0 for r in results.values())
    assert results["synthesis"]["model"] == "test-model"
    assert results["rerank"]["model"] == "rank-model"
    paths = [r.path for r in srv.requests]
    assert "/v1/chat/completions" in paths and "/v1/rerank" in paths

    srv.reset(chat="error500")
    failed = client.post("/api/backends/peer/test", json={"roles": ["synthesis"]}, headers=admin)
    assert failed.status_code == 200
    [result] = failed.json()["results"]
    assert result["role"] == "synthesis" and result["ok"] is False
    assert result["latency_ms"] >= 0 and result["error"]
    cooling = client.get("/api/backends/peer", headers=admin).json()["cooldown"]
    assert cooling is not None and cooling["failures"] == 1

    foreign = client.post("/api/backends/peer/test", json={"roles": ["embed"]}, headers=admin)
    assert foreign.status_code == 422 and "does not serve ['embed']" in foreign.json()["message"]
    unknown = client.post("/api/backends/peer/test", json={"roles": ["poetry"]}, headers=admin)
    assert unknown.status_code == 422 and unknown.json()["field"] == "roles"

    deleted = client.delete("/api/backends/peer", headers=admin)
    assert deleted.status_code == 200 and deleted.json() == {"name": "peer", "deleted": True}
    assert client.get("/api/backends/peer", headers=admin).status_code == 404
    assert client.delete("/api/backends/peer", headers=admin).status_code == 404
    assert app.backends.chain("synthesis") == []


@pytest.mark.parametrize(
    ("change", "field", "says"),
    [
        ({"roles": ["poetry"]}, "roles", "unknown role"),
        ({"kind": "telepathy"}, "kind", "unknown backend kind 'telepathy'"),
        ({"model_map": {}}, "model_map", "role 'synthesis' has no model"),
        ({"trust": "total"}, "trust", "trust must be one of"),
        ({"base_url": "ftp://example.com"}, "base_url", "http:// or https://"),
        ({"secret": "nowhere"}, "secret", "no secret named 'nowhere'"),
        ({"name": "Bad Name"}, "name", "1-64 lowercase letters"),
        ({"priority": 5000}, "priority", ""),
        ({"colour": "red"}, "colour", ""),
    ],
)
def test_bad_backends_are_422_naming_the_field(
    client: Any, admin: dict[str, str], change: dict[str, Any], field: str, says: str
) -> None:
    body = {**BODY, "base_url": "http://127.0.0.1:9/v1", **change}
    r = client.post("/api/backends", json=body, headers=admin)
    assert r.status_code == 422, r.text
    assert r.json()["field"] == field and says in r.json()["message"]
    assert client.get("/api/backends", headers=admin).json()["backends"] == []


def test_duplicates_and_bad_changes(client: Any, admin: dict[str, str]) -> None:
    body = {**BODY, "base_url": "http://127.0.0.1:9/v1"}
    assert client.post("/api/backends", json=body, headers=admin).status_code == 201
    again = client.post("/api/backends", json=body, headers=admin)
    assert again.status_code == 409 and "'peer' exists" in again.json()["message"]
    null_kind = client.patch("/api/backends/peer", json={"kind": None}, headers=admin)
    assert null_kind.status_code == 422 and null_kind.json()["field"] == "kind"
    no_model = client.patch("/api/backends/peer", json={"roles": ["embed"],
                            "model_map": {"rerank": "r"}}, headers=admin)  # fmt: skip
    assert no_model.status_code == 422 and no_model.json()["field"] == "model_map"
    missing = client.patch("/api/backends/nobody", json={"priority": 1}, headers=admin)
    assert missing.status_code == 404 and "nobody" in missing.json()["message"]
    assert client.post("/api/backends/nobody/test", headers=admin).status_code == 404
    assert client.get("/api/backends/peer", headers=admin).json()["priority"] == 50


def test_secrets_list_their_backends_and_refuse_deletion_while_used(
    client: Any, admin: dict[str, str]
) -> None:
    for name in ("openai", "spare"):
        assert client.put(f"/api/secrets/{name}", json={"value": "sk-1"}, headers=admin).is_success
    for name in ("a-peer", "b-peer"):
        body = {**BODY, "name": name, "base_url": "https://api.example/v1", "secret": "openai"}
        assert client.post("/api/backends", json=body, headers=admin).status_code == 201
    listed = {s["name"]: s for s in client.get("/api/secrets", headers=admin).json()["secrets"]}
    assert listed["openai"]["references"] == ["a-peer", "b-peer"]
    assert listed["spare"]["references"] == []

    refused = client.delete("/api/secrets/openai", headers=admin)
    assert refused.status_code == 409
    assert refused.json()["message"] == (
        "secret openai is used by backend(s) a-peer, b-peer; change them first"
    )
    assert client.patch("/api/backends/a-peer", json={"secret": None}, headers=admin).is_success
    assert client.delete("/api/backends/b-peer", headers=admin).is_success
    assert client.get("/api/secrets", headers=admin).json()["secrets"][0]["references"] == []
    assert client.delete("/api/secrets/openai", headers=admin).status_code == 200


ADMIN_ONLY: list[tuple[str, str, dict[str, Any] | None]] = [
    ("GET", "/api/backends", None),
    ("POST", "/api/backends", {**BODY, "base_url": "http://127.0.0.1:9/v1", "name": "sneaky"}),
    ("GET", "/api/backends/peer", None),
    ("PATCH", "/api/backends/peer", {"priority": 1}),
    ("DELETE", "/api/backends/peer", None),
    ("POST", "/api/backends/peer/test", None),
    ("GET", "/api/llmlog", None),
    ("GET", "/api/status", None),
    ("GET", "/api/events", None),
    ("GET", "/api/secrets", None),
]


def test_every_route_is_admin_only(app: App, client: Any, keys: Any, admin: dict[str, str]) -> None:
    assert client.post(
        "/api/backends", json={**BODY, "base_url": "http://127.0.0.1:9/v1"}, headers=admin
    ).status_code == 201  # fmt: skip
    user = {"X-Context-Key": keys.make("alpha")}
    for method, path, body in ADMIN_ONLY:
        r = client.request(method, path, json=body, headers=user)
        assert r.status_code == 403, (method, path)
        assert r.json()["error"] == "forbidden" and "admin" in r.json()["message"]
        assert client.request(method, path, json=body).status_code == 401, (method, path)
    rows = client.get("/api/backends", headers=admin).json()["backends"]
    assert [(b["name"], b["priority"]) for b in rows] == [("peer", 50)]
    with app.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM context_llm_log").fetchone() == {"n": 0}
