"""The governor over REST, MCP tool registration and the private records rule, with real keys."""

from __future__ import annotations

from typing import Any

import psycopg

from ctx.core import App
from ctx.core.runtime import drain


def _h(token: str) -> dict[str, str]:
    return {"X-Context-Key": token}


def _thread(session: str = "chat-1", **extra: Any) -> dict[str, Any]:
    return {"session_id": session, **extra}


def test_prepare_commit_status_flush_round_trip(client: Any, keys: Any, app: App) -> None:
    token = keys.make("alpha")
    r = client.post(
        "/api/governor/prepare",
        headers=_h(token),
        json={
            "thread": _thread(),
            "budget": 800,
            "system": "Be brief.",
            "event": {"content": "The staging database moved to host db-7 on Monday."},
        },
    )
    assert r.status_code == 200, r.text
    env = r.json()
    assert env["seq"] == 1 and env["tokens"] <= 800 and env["messages"][0]["content"] == "Be brief."
    assert "sensitivities" not in env
    r = client.post(
        "/api/governor/commit",
        headers=_h(token),
        json={"thread": _thread(), "event": {"role": "assistant", "content": "Noted: db-7."}},
    )
    assert r.status_code == 200 and r.json()["seq"] == 2
    r = client.post(
        "/api/governor/flush", headers=_h(token), json={"thread": _thread(), "timeout_s": 60}
    )
    assert r.status_code == 200 and r.json()["timed_out"] is False
    assert r.json()["watermarks"] == {"recorded": 2, "indexed": 2, "embedded": 2}
    r = client.post("/api/governor/status", headers=_h(token), json={"thread": _thread()})
    body = r.json()
    assert body["last_envelope"]["tokens"] == env["tokens"]
    assert body["lag"] == {"indexed": 0, "embedded": 0}
    r = client.get("/api/governor/threads", headers=_h(token))
    assert [t["session_id"] for t in r.json()["threads"]] == ["chat-1"]


def test_strict_prepare_waits_for_the_index_and_reports_a_timeout(
    client: Any, keys: Any, app: App, database_url: str
) -> None:
    token = keys.make("alpha")
    client.post(
        "/api/governor/commit",
        headers=_h(token),
        json={"thread": _thread(), "event": {"content": "The spare key is in the blue drawer."}},
    )
    r = client.post(
        "/api/governor/prepare",
        headers=_h(token),
        json={
            "thread": _thread(),
            "strict": True,
            "timeout_s": 60,
            "event": {"content": "Where is the spare key?"},
        },
    )
    env = r.json()
    assert env["strict"]["timed_out"] is False
    assert env["strict"]["watermarks"]["indexed"] >= env["seq"]
    # A job another worker holds (a row lock here) cannot be run inline: the wait times out.
    client.post(
        "/api/governor/commit",
        headers=_h(token),
        json={"thread": _thread(), "event": {"content": "Later it moved to the red box."}},
    )
    with psycopg.connect(database_url) as held:
        held.execute("SELECT id FROM context_jobs WHERE kind = 'governor.index' FOR UPDATE")
        r = client.post(
            "/api/governor/prepare",
            headers=_h(token),
            json={
                "thread": _thread(),
                "strict": True,
                "timeout_s": 0.3,
                "event": {"content": "And now?"},
            },
        )
    strict = r.json()["strict"]
    assert strict["timed_out"] is True and strict["watermarks"]["indexed"] < r.json()["seq"]


def test_keys_decide_who_governs_and_reads_a_thread(client: Any, keys: Any) -> None:
    alpha, beta = keys.make("alpha"), keys.make("beta")
    client.post(
        "/api/governor/commit",
        headers=_h(alpha),
        json={"thread": _thread(), "event": {"content": "alpha's secret plan"}},
    )
    r = client.post(
        "/api/governor/status", headers=_h(beta), json={"thread": _thread(collection="alpha")}
    )
    assert r.status_code == 404 and "no thread" in r.json()["message"]
    r = client.post(
        "/api/governor/commit",
        headers=_h(beta),
        json={"thread": _thread(collection="alpha"), "event": {"content": "intrusion"}},
    )
    assert r.status_code == 403
    r = client.get("/api/governor/threads", headers=_h(beta))
    assert r.json()["threads"] == []
    reader = keys.make("gamma", allowed=["alpha"])
    r = client.post(
        "/api/governor/status", headers=_h(reader), json={"thread": _thread(collection="alpha")}
    )
    assert r.status_code == 200 and r.json()["watermarks"]["recorded"] == 1


def test_bad_input_is_a_clear_4xx_and_stores_nothing(client: Any, keys: Any, app: App) -> None:
    token = keys.make("alpha")
    cases = [
        ({"thread": _thread(), "event": {"content": "x"}, "budget": 10}, 422, "budget"),
        ({"thread": _thread(), "event": {"content": "   "}}, 422, "content"),
        ({"thread": _thread(""), "event": {"content": "x"}}, 422, "session_id"),
        ({"thread": _thread(), "event": {"content": "x", "role": "robot"}}, 422, "role"),
        ({"thread": _thread(), "event": {"content": "x"}, "counter": "nope"}, 400, "counter"),
        (
            {
                "thread": _thread(),
                "event": {"content": "hi"},
                "budget": 64,
                "system": "long rules " * 50,
            },
            422,
            "too small",
        ),
    ]
    for body, status, word in cases:
        r = client.post("/api/governor/prepare", headers=_h(token), json=body)
        assert r.status_code == status, (body, r.text)
        assert word in r.text and "Traceback" not in r.text
    with app.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM context_thread_events").fetchone()["n"] == 0


def test_records_are_private_to_their_thread_and_written_by_the_governor(
    client: Any, keys: Any, app: App
) -> None:
    token = keys.make("alpha")
    client.post(
        "/api/governor/commit",
        headers=_h(token),
        json={"thread": _thread(), "event": {"content": "The lighthouse keeper is called Ingrid."}},
    )
    drain(app, "governor.index")
    r = client.post("/api/query", headers=_h(token), json={"query": "lighthouse keeper Ingrid"})
    assert r.json()["sources"] == []  # not in plain knowledge queries
    r = client.post(
        "/api/query",
        headers=_h(token),
        json={"query": "lighthouse keeper Ingrid", "category": "thread/chat-1"},
    )
    assert [s["block_type"] for s in r.json()["sources"]] == ["event"]
    other = client.post(
        "/api/governor/prepare",
        headers=_h(token),
        json={"thread": _thread("chat-2"), "event": {"content": "Who is the lighthouse keeper?"}},
    )
    assert "Ingrid" not in str(other.json()["messages"])  # another thread's desk never sees it
    r = client.post(
        "/api/store",
        headers=_h(token),
        json={
            "title": "user, 1 May 2024 (#1)",
            "content": "overwritten",
            "category": "thread/chat-1",
        },
    )
    assert r.status_code == 403 and "governor" in r.json()["message"]
    r = client.post(
        "/api/governor/promote", headers=_h(token), json={"thread": _thread(), "seq": 1}
    )
    assert r.status_code == 200, r.text
    drain(app, "embed")
    r = client.post("/api/query", headers=_h(token), json={"query": "lighthouse keeper Ingrid"})
    assert [s["block_type"] for s in r.json()["sources"]][:1] == ["memory"]


def test_pins_are_kept_until_released_and_tools_are_registered(
    client: Any, keys: Any, app: App
) -> None:
    token = keys.make("alpha")
    r = client.post(
        "/api/governor/protect",
        headers=_h(token),
        json={
            "thread": _thread(),
            "items": [{"content": "Never book flights before 9 am.", "label": "rule"}],
        },
    )
    pin = r.json()["pinned"][0]
    env = client.post(
        "/api/governor/prepare",
        headers=_h(token),
        json={"thread": _thread(), "event": {"content": "Book me a flight"}},
    ).json()
    assert any("Never book flights before 9 am." in m["content"] for m in env["messages"])
    client.post(
        "/api/governor/release", headers=_h(token), json={"thread": _thread(), "pins": [pin]}
    )
    env = client.post(
        "/api/governor/prepare",
        headers=_h(token),
        json={"thread": _thread(), "event": {"content": "Book me another"}},
    ).json()
    assert not any("9 am" in m["content"] for m in env["messages"][:-3])
    assert {
        "governor_prepare",
        "governor_commit",
        "governor_status",
        "governor_flush",
        "governor_protect",
        "governor_release",
    } <= set(app.tools)


def test_documents_go_into_a_thread_or_its_project(client: Any, keys: Any, app: App) -> None:
    token = keys.make("alpha")
    doc = (
        "# Runbook\n\nRestart the ingest worker with systemctl.\n\n"
        "## Backups\n\nBackups run at 02:00 to the bucket nightly-pg.\n"
    )
    r = client.post(
        "/api/governor/ingest",
        headers=_h(token),
        json={"thread": _thread(), "title": "Ops runbook", "content": doc, "chunk_chars": 200},
    )
    assert r.status_code == 200, r.text
    assert r.json()["visibility"] == "thread" and r.json()["chunks"] == 2
    r = client.post(
        "/api/governor/ingest",
        headers=_h(token),
        json={
            "thread": _thread(),
            "title": "Team handbook",
            "visibility": "project",
            "content": "Deploys need two approvals.",
        },
    )
    assert r.json()["visibility"] == "project"
    drain(app, "embed")
    env = client.post(
        "/api/governor/prepare",
        headers=_h(token),
        json={"thread": _thread(), "event": {"content": "When do the backups run?"}},
    ).json()
    desk = next(m["content"] for m in env["messages"] if m["content"].startswith("Context"))
    assert "nightly-pg" in desk
    other = client.post(
        "/api/governor/prepare",
        headers=_h(token),
        json={"thread": _thread("chat-2"), "event": {"content": "When do the backups run?"}},
    ).json()
    assert "nightly-pg" not in str(other["messages"])  # the thread's document stays there
    handbook = client.post(
        "/api/governor/prepare",
        headers=_h(token),
        json={
            "thread": _thread("chat-2"),
            "event": {"content": "How many approvals do deploys need?"},
        },
    )
    assert "two approvals" in str(handbook.json()["messages"])  # the project's is everyone's


def test_ctx_governor_commands_against_a_live_server(
    app: App, keys: Any, monkeypatch: Any, capsys: Any
) -> None:
    import json

    from live import live_server

    from ctx.ui.cli.root import run

    token = keys.make("alpha")
    with live_server(app) as url:
        monkeypatch.setenv("CTX_URL", url)
        monkeypatch.setenv("CTX_API_KEY", token)
        from ctx.core.governor import CommitRequest

        who = app.governor  # record through the core; the CLI reads through the server
        from ctx.core import Principal

        alpha = Principal(
            key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha"
        )
        who.commit(
            alpha,
            CommitRequest.model_validate(
                {"thread": {"session_id": "chat-9"}, "event": {"content": "Pack the tent."}}
            ),
        )
        assert run(["governor", "threads", "--json"], app=app) == 0
        listed = json.loads(capsys.readouterr().out)["threads"]
        assert [(t["session_id"], t["recorded"]) for t in listed] == [("chat-9", 1)]
        assert run(["governor", "flush", "chat-9", "--timeout", "60"], app=app) == 0
        assert "indexed after" in capsys.readouterr().out
        assert run(["governor", "status", "chat-9"], app=app) == 0
        out = capsys.readouterr().out
        assert "recorded 1, indexed 1, embedded 1" in out
        assert run(["governor", "status", "nope"], app=app) == 2
        assert "no thread" in capsys.readouterr().err
        assert run(["governor", "flush", "chat-9", "--timeout", "-1"], app=app) == 2
