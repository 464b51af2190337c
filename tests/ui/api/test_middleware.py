"""Middleware: request ids, security headers, body limit; anonymous /health reveals nothing."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from ctx.core import App
from ctx.core.runtime import JsonLogFormatter, set_setting
from ctx.ui.api.middleware import SECURITY_HEADERS


def _assert_hardened(r: Any) -> None:
    for name, value in SECURITY_HEADERS:
        assert r.headers[name.decode()] == value.decode(), name
    assert len(r.headers["x-request-id"]) >= 8


def test_every_response_carries_security_headers_and_a_request_id(keys: Any, client: Any) -> None:
    h = {"X-Context-Key": keys.make("alpha")}
    responses = {
        "health": client.get("/health"),
        "ok": client.get("/api/whoami", headers=h),
        "unauthorized": client.get("/api/whoami"),
        "forbidden": client.get("/api/settings", headers=h),
        "invalid": client.post("/api/store", json={}, headers=h),
        "missing route": client.get("/api/nothing-here", headers=h),
        "wrong method": client.delete("/api/store", headers=h),
        "too large": client.post("/api/store", content=b"x" * 2_000_000, headers=h),
    }
    expected = {
        "health": 200,
        "ok": 200,
        "unauthorized": 401,
        "forbidden": 403,
        "invalid": 422,
        "missing route": 404,
        "wrong method": 405,
        "too large": 413,
    }
    assert {name: r.status_code for name, r in responses.items()} == expected
    ids = set()
    for name, r in responses.items():
        _assert_hardened(r)
        ids.add(r.headers["x-request-id"])
        if r.status_code >= 400:
            assert r.json()["request_id"] == r.headers["x-request-id"], name
            assert r.json()["error"] and r.json()["message"], name
    assert len(ids) == len(responses)  # a fresh id per request
    assert responses["ok"].headers["cache-control"] == "no-store"
    assert "cache-control" not in responses["health"].headers


def test_a_valid_incoming_request_id_is_kept(client: Any) -> None:
    kept = client.get("/api/whoami", headers={"X-Request-ID": "trace-1234.abc_DEF"})
    assert kept.headers["x-request-id"] == "trace-1234.abc_DEF"
    assert kept.json()["request_id"] == "trace-1234.abc_DEF"
    for bad in ("short", "x" * 65, "has space in it", "inject\\r\\nset-cookie:a=b"):
        replaced = client.get("/health", headers={"X-Request-ID": bad})
        assert replaced.headers["x-request-id"] != bad
        assert len(replaced.headers["x-request-id"]) == 32


def test_anonymous_health_reveals_no_names(app: App, keys: Any, client: Any) -> None:
    keys.make("secret-scope", admin=True)
    r = client.get("/health")
    assert r.status_code == 200
    assert r.json() == {"status": "ok"}
    for leak in ("secret-scope", "test-", "postgres", app.db.url, "ctx.plugins", "version"):
        assert leak not in r.text

    assert app.db.pool is not None
    app.db.pool.close()  # the database goes away: health says so, and nothing more
    down = client.get("/health")
    assert down.status_code == 503 and down.json() == {"status": "unavailable"}
    _assert_hardened(down)


def test_the_body_limit_is_a_hot_setting(app: App, keys: Any, client: Any) -> None:
    h = {"X-Context-Key": keys.make("alpha"), "content-type": "application/json"}
    body = b'{"title": "t", "content": "' + b"y" * 3000 + b'"}'
    assert client.post("/api/store", content=body, headers=h).status_code == 200
    set_setting(app, "server.body_limit", 2048)
    r = client.post("/api/store", content=body, headers=h)
    assert r.status_code == 413
    assert r.json()["message"] == "request body exceeds 2048 bytes"
    lying = client.post("/api/store", content=b"{}", headers={**h, "content-length": "nope"})
    assert lying.status_code in (400, 413)
    with app.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM context_blocks").fetchone() == {"n": 1}


def test_routes_that_take_files_have_their_own_body_limits(
    app: App, keys: Any, client: Any
) -> None:
    from ctx.ui.api.operations import RouteRules

    set_setting(app, "server.body_limit", 2048)
    set_setting(app, "server.ingest_body_limit", 4096)
    rules = RouteRules(app.operations.values(), app.settings)  # from the declarations' body_limit
    assert rules.body_limit("/api/store") == 2048
    assert rules.body_limit("/api/ingest") == rules.body_limit("/api/ingest/notes") == 4096
    assert rules.body_limit("/api/ingestion") == 2048  # a prefix of a name is not the route
    assert rules.body_limit("/api/blob/store") == 75 * 1_048_576
    assert rules.takes_no_key("/api/forge/github/webhook")  # a public operation
    assert not rules.takes_no_key("/api/store") and not rules.takes_no_key("/api/forge/x/y/z")
    h = {"X-Context-Key": keys.make("alpha"), "content-type": "application/json"}
    body = b'{"title": "t", "content": "' + b"y" * 3000 + b'"}'
    refused = client.post("/api/store", content=body, headers=h)
    assert refused.status_code == 413
    past_default = client.post("/api/ingest", content=body, headers=h)
    assert past_default.status_code != 413  # within the ingest limit (the route answers itself)


def test_access_log_records_request_and_key(
    keys: Any, client: Any, caplog: pytest.LogCaptureFixture
) -> None:
    token = keys.make("alpha")
    with caplog.at_level(logging.INFO, logger="ctx.access"):
        r = client.get(
            "/api/whoami", headers={"X-Context-Key": token, "X-Request-ID": "req-000001"}
        )
    (record,) = [rec for rec in caplog.records if rec.name == "ctx.access"]
    line = JsonLogFormatter().format(record)
    assert '"request_id": "req-000001"' in line
    assert f'"key_id": "{r.json()["key_id"]}"' in line
    assert '"status": 200' in line and '"path": "/api/whoami"' in line
    assert token not in line
