"""The backend pool: chain order, cooldowns, the gate, secrets, and changes applied on NOTIFY."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import openai_server
import psycopg
import pytest

from ctx.core import App, CtxError, access, llm
from ctx.core.runtime import Listener, set_setting


def _create(app: App, name: str, url: str, **fields: Any) -> llm.Backend:
    data = {"kind": "openai", "base_url": url, "roles": ["synthesis", "translate"],
            "model_map": {"default": "m"}, "trust": "full-trust", **fields}  # fmt: skip
    with app.connection() as conn:
        b = llm.create_backend(conn, app.backend_kinds, name, data)
    app.backends.invalidate()
    return b


def _ask(app: App) -> llm.Reply:
    return llm.chat(app, "synthesis", lambda _: [{"role": "user", "content": "hi"}])


def test_chain_orders_by_priority_and_skips_disabled(app: App, srv: Any) -> None:
    _create(app, "low", srv.base_url, priority=10)
    _create(app, "high", srv.base_url, priority=200)
    _create(app, "off", srv.base_url, priority=500, enabled=False)
    _create(app, "other-role", srv.base_url, roles=["rerank"])
    assert [b.name for b in app.backends.chain("synthesis")] == ["high", "low"]
    assert app.backends.chain("dream") == []
    assert "no backend serves the dream role" in app.backends.why_empty("dream")
    assert _ask(app).backend == "high"


def test_cooldown_skips_a_failed_backend_and_doubles(app: App, srv: Any) -> None:
    set_setting(app, "llm.cooldown_seconds", 60)
    broken = openai_server.OpenAIServer().start()
    try:
        broken.chat_behaviour = "error500"
        _create(app, "broken", broken.base_url, priority=200)
        _create(app, "steady", srv.base_url, priority=100)
        assert _ask(app).backend == "steady"
        cooling = app.backends.cooldowns()["broken"]
        assert cooling["failures"] == 1 and 55 < cooling["seconds_left"] <= 60
        assert "HTTP 500" in cooling["reason"]
        assert _ask(app).backend == "steady" and len(broken.requests) == 1  # not tried again
        app.backends.failed("broken", "seen by a second call of the same outage")
        assert app.backends.cooldowns()["broken"]["failures"] == 1  # not counted twice
        app.backends.succeeded("broken")
        assert [b.name for b in app.backends.chain("synthesis")] == ["broken", "steady"]
    finally:
        broken.stop()


def test_a_failure_after_a_cooldown_doubles_it(app: App) -> None:
    set_setting(app, "llm.cooldown_seconds", 0.2)
    app.backends.failed("flaky", "first")
    time.sleep(0.3)  # the first cooldown is over; the backend fails again
    app.backends.failed("flaky", "second")
    cooling = app.backends.cooldowns()["flaky"]
    assert cooling["failures"] == 2 and cooling["seconds_left"] > 0.25


def test_cooldowns_are_per_operation(app: App, srv: Any) -> None:
    _create(app, "both", srv.base_url, roles=["synthesis", "rerank"])
    srv.rerank_behaviour = "error500"
    with pytest.raises(llm.ModelError):
        llm.rerank(app, "q", [llm.Piece("public", "doc")])
    assert app.backends.cooldowns()["both"]["operations"] == ["rerank"]
    assert app.backends.chain("rerank") == []
    assert _ask(app).backend == "both"  # it still chats


def test_a_request_the_model_refuses_fails_over_without_a_cooldown(app: App, srv: Any) -> None:
    small = openai_server.OpenAIServer().start()
    try:
        small.routes["/v1/chat/completions"] = lambda server, body: (
            400,
            {"error": {"message": "prompt of 9000 tokens exceeds the context: Sources: x"}},
        )
        _create(app, "small", small.base_url, priority=200)
        _create(app, "large", srv.base_url, priority=100)
        assert _ask(app).backend == "large"
        assert app.backends.cooldowns() == {}  # one long prompt does not bench it for everyone
        with app.connection() as conn:
            [refused] = [r for r in llm.read_log(conn) if r["backend"] == "small"]
        assert refused["error"] == "small answered HTTP 400 on /v1/chat/completions"
        set_setting(app, "llm.log_content", True)
        _ask(app)
        with app.connection() as conn:
            [latest, *_] = [r for r in llm.read_log(conn) if r["backend"] == "small"]
        assert "exceeds the context" in latest["error"]  # the server's words, for debugging only
    finally:
        small.stop()


def test_a_server_error_body_never_reaches_the_caller(app: App, srv: Any) -> None:
    srv.routes["/v1/chat/completions"] = lambda server, body: (
        500,
        {"error": {"message": "crashed on: " + body["messages"][-1]["content"]}},
    )
    try:
        _create(app, "echo", srv.base_url)
        with pytest.raises(llm.ModelError) as caught:
            llm.chat(app, "synthesis", lambda _: [{"role": "user", "content": "secret-zq"}])
        assert "secret-zq" not in caught.value.message
        assert "secret-zq" not in str(app.backends.cooldowns())
        assert "secret-zq" not in app.backends.why_empty("synthesis")
    finally:
        srv.routes["/v1/chat/completions"] = openai_server.chat_handler


def test_every_backend_cooling_is_a_clear_no_backend(app: App, srv: Any) -> None:
    _create(app, "only", srv.base_url)
    app.backends.failed("only", "boom")
    with pytest.raises(llm.NoBackend) as caught:
        _ask(app)
    assert "cooling down" in caught.value.reason and "only for" in caught.value.reason


def test_all_failing_says_why_for_each(app: App, srv: Any) -> None:
    srv.chat_behaviour = "error500"
    _create(app, "a", srv.base_url, priority=2)
    _create(app, "b", srv.base_url, priority=1)
    with pytest.raises(llm.ModelError) as caught:
        _ask(app)
    assert caught.value.message.count("answered HTTP 500") == 2


def test_gate_matrix() -> None:
    seen = {t: [s for s in llm.SENSITIVITY_ORDER if llm.may_see(t, s)] for t in llm.TRUST_LEVELS}
    assert seen == {
        "full-trust": ["public", "internal", "personal", "credentials"],
        "no-credentials": ["public", "internal", "personal"],
        "non-personal": ["public", "internal"],
        "public": ["public"],
    }
    assert not llm.may_see("full-trust-ish", "public")  # an unknown trust level sees nothing
    pieces = [llm.Piece(s, s) for s in llm.SENSITIVITY_ORDER]
    admitted, withheld = llm.admit("non-personal", pieces)
    assert [p.value for p in admitted] == ["public", "internal"] and withheld == 2


def test_a_backend_secret_is_sent_as_bearer_and_never_stored_plain(app: App, srv: Any) -> None:
    with app.connection() as conn:
        access.set_secret(conn, app.seal_key, "peer-key", "sk-live-123")
    _create(app, "keyed", srv.base_url, secret="peer-key")
    _ask(app)
    assert srv.requests[-1].headers["Authorization"] == "Bearer sk-live-123"
    with app.connection() as conn:
        dump = conn.execute("SELECT * FROM context_secrets").fetchall()
        rows = conn.execute("SELECT * FROM context_backends").fetchall()
    assert b"sk-live-123" not in repr(dump).encode() and "sk-live-123" not in repr(rows)


def test_a_rotated_secret_reaches_the_next_call(app: App, srv: Any) -> None:
    """Rotating a backend's key needs no restart: the pool's cached client is keyed on the
    secret's version too (the write may come from another process, the CLI or the workbench)."""
    with app.connection() as conn:
        access.set_secret(conn, app.seal_key, "peer-key", "sk-old-1")
    _create(app, "keyed", srv.base_url, secret="peer-key")
    _ask(app)
    assert srv.requests[-1].headers["Authorization"] == "Bearer sk-old-1"
    with app.connection() as conn:
        access.set_secret(conn, app.seal_key, "peer-key", "sk-new-2")
    _ask(app)
    assert srv.requests[-1].headers["Authorization"] == "Bearer sk-new-2"


def test_a_secret_that_will_not_open_is_a_model_error(
    app: App, srv: Any, database_url: str, tmp_path: Path
) -> None:
    with app.connection() as conn:
        access.set_secret(conn, app.seal_key, "peer-key", "sk-live-123")
    _create(app, "keyed", srv.base_url, secret="peer-key")
    other = App(database_url=database_url, home=tmp_path / "elsewhere", load_entry_points=False)
    other.open()
    try:  # another home: another seal key, the same database
        with pytest.raises(llm.NoBackend) as caught:
            llm.chat(other, "synthesis", lambda _: [{"role": "user", "content": "hi"}])
    finally:
        other.close()
    assert "its secret 'peer-key' cannot be opened" in caught.value.reason
    assert all("sk-live" not in str(r.headers) for r in srv.requests)


def test_validation_of_rows(app: App, srv: Any) -> None:
    kinds = app.backend_kinds
    cases = [
        ({"kind": "grpc"}, "unknown backend kind 'grpc'"),
        ({"kind": "openai", "base_url": "ftp://x"}, "base_url must be an http"),
        ({"kind": "openai", "base_url": srv.base_url, "roles": ["poetry"]}, "unknown role"),
        ({"kind": "openai", "base_url": srv.base_url, "roles": ["chat"]}, "has no model"),
        ({"kind": "openai", "base_url": srv.base_url, "trust": "total"}, "trust must be one of"),
        ({"kind": "openai", "base_url": srv.base_url, "secret": "nope"}, "no secret named"),
        ({"kind": "openai", "base_url": srv.base_url, "model_map": {"x": "m"}}, "neither a role"),
        ({"kind": "openai", "base_url": srv.base_url, "model_map": {"chat": {}}}, "needs a"),
    ]
    with app.connection() as conn:
        for data, words in cases:
            with pytest.raises(CtxError) as caught:
                llm.create_backend(conn, kinds, "x", data)
            assert words in caught.value.message, (data, caught.value.message)
        llm.create_backend(conn, kinds, "x", {"kind": "openai", "base_url": srv.base_url})
        with pytest.raises(CtxError) as dup:
            llm.create_backend(conn, kinds, "x", {"kind": "openai", "base_url": srv.base_url})
        assert dup.value.status_code == 409


def test_a_change_made_elsewhere_applies_without_restart(
    app: App, srv: Any, database_url: str
) -> None:
    second = openai_server.OpenAIServer().start()
    listener = Listener(app, {"ctx_settings": lambda _payload: app.reload()})
    listener.start()
    try:
        _create(app, "moving", srv.base_url)
        assert _ask(app).backend == "moving" and len(srv.requests) == 1
        time.sleep(0.3)  # the listener is subscribed
        with psycopg.connect(database_url, autocommit=True) as other:  # psql, another ctxd
            other.execute("UPDATE context_backends SET base_url = %s, updated_at = now()",
                          (second.base_url,))  # fmt: skip
        deadline = time.monotonic() + 10
        while app.backends.backends()[0].base_url != second.base_url:
            assert time.monotonic() < deadline, "NOTIFY did not reach the pool"
            time.sleep(0.05)
        _ask(app)
        assert len(second.requests) == 1 and len(srv.requests) == 1
    finally:
        listener.stop()
        second.stop()


def test_allowed_hosts_limit_where_backends_may_point(app: App, srv: Any) -> None:
    set_setting(app, "llm.allowed_hosts", ["10.0.0.0/8", "models.internal"])
    kinds = app.backend_kinds
    with app.connection() as conn:
        for url in ("http://127.0.0.1:9/v1", "https://api.example.com"):
            with pytest.raises(CtxError, match=r"not in llm\.allowed_hosts"):
                llm.create_backend(conn, kinds, "x", {"kind": "openai", "base_url": url},
                                   allowed_hosts=["10.0.0.0/8", "models.internal"])  # fmt: skip
        for url in ("http://10.1.2.3:8080", "http://MODELS.internal/v1"):
            llm.create_backend(conn, kinds, url.split("/")[2].split(":")[0].lower(),
                               {"kind": "openai", "base_url": url},
                               allowed_hosts=["10.0.0.0/8", "models.internal"])  # fmt: skip
    set_setting(app, "llm.allowed_hosts", [])
    _create(app, "loop", srv.base_url)
    set_setting(app, "llm.allowed_hosts", ["10.0.0.0/8"])  # narrowed after the row was saved
    with pytest.raises(llm.NoBackend, match=r"not in llm\.allowed_hosts"):
        _ask(app)
    assert srv.requests == []
