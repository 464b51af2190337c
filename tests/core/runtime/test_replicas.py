"""Read replicas (``ctx.core.runtime.replicas``) on a real primary and a real hot standby.

One PostgreSQL on 127.0.0.1 and its hot standby made by ``pg_basebackup -R``
(tests/support/cluster_kit.py), and ctx on them as two ``ctxd`` would run: two Apps with
``CTX_DATABASE_URL`` the primary and ``CTX_DATABASE_READ_URL`` the standby, each behind its own
client. Checked: the reads of a call that writes nothing are served by the standby and writes land
on the primary; a key reads its own writes through either server, every time; while the standby's
replay is paused the writer's reads (and every read of a call that writes) go to the primary, and
a reader that wrote nothing sees the standby's older state (the proof that the standby answers
it) until ``db.replica_max_lag_mb`` 0 sends it to the primary as well; a standby that dies leaves
every read answering 200 from the primary, and reads go back to it once it is up; every routed
path (REST, MCP, the workbench, the governor's desk) runs on the standby without a statement it
refuses; a bad URL list stops start-up.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import openai_server
import pytest
from cluster_kit import (
    TcpPostgres,
    TcpStandby,
    peer_embedder,
    pg_stop,
    postgres_bin_or_skip,
    query_rows,
    wait_for,
)
from ctxd import clean_env, ctx
from fastapi.testclient import TestClient
from web_kit import Browser

from ctx.core import App, access
from ctx.core.errors import ConfigError
from ctx.core.runtime import diagnose, read_urls, set_setting, unset_setting
from ctx.ui import create_app

pytestmark = pytest.mark.slow  # scheduled first (tests/conftest.py)

ROUNDS = 30  # write-then-read rounds of the read-your-writes test


@dataclass
class Rig:
    primary: TcpPostgres
    standby: TcpStandby
    apps: list[App]
    clients: list[TestClient]
    writer: str  # a key of scope "team"
    reader: str  # a key of its own scope that reads "team" and writes nothing
    admin: str
    env: dict[str, str]

    def served(self) -> int:
        """Reads the standby served, over both servers."""
        return sum(r.served for app in self.apps for r in _replicas(app))

    def to_primary(self, reason: str) -> int:
        """Reads that went to the primary for ``reason``, over both servers."""
        return sum(_set(app).to_primary[reason] for app in self.apps)

    def caught_up(self) -> None:
        """Until the standby has replayed everything the primary has written."""
        rows = query_rows(
            self.primary.url("ctx"),
            "SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::bigint",
        )
        wait_for("the standby to catch up", lambda: self.standby.replayed() >= rows[0][0], 30)


def _set(app: App) -> Any:
    assert app.replicas is not None
    return app.replicas


def _replicas(app: App) -> list[Any]:
    return list(_set(app).replicas)


def _h(token: str) -> dict[str, str]:
    return {"X-Context-Key": token}


def _key(app: App, home: str, allowed: list[str] | None = None, admin: bool = False) -> str:
    with app.connection() as conn:
        _, token = access.create_key(
            conn, name=f"replica-{home}", home_scope=home, allowed_scopes=allowed, is_admin=admin
        )
    return token


@pytest.fixture(scope="module")
def rig(
    tmp_path_factory: pytest.TempPathFactory, peer: openai_server.OpenAIServer
) -> Iterator[Rig]:
    bin_dir = postgres_bin_or_skip()
    # commits wait for their WAL to be written: the standby gets a write at once
    with TcpPostgres(bin_dir, options="-c synchronous_commit=on") as primary:
        url = primary.create_database("ctx")
        with TcpStandby(primary) as standby, ExitStack() as stack:
            env = {
                **os.environ,
                **peer_embedder(peer.base_url),
                "CTX_DATABASE_URL": url,
                "CTX_DATABASE_READ_URL": standby.url("ctx"),
                "CTX_DB_REPLICA_RETRY_S": "1",
            }
            apps = []
            for name in ("a", "b"):
                app = App(home=tmp_path_factory.mktemp(name), load_entry_points=False, environ=env)
                app.open()
                stack.callback(app.close)
                apps.append(app)
            clients = [
                stack.enter_context(TestClient(create_app(app), raise_server_exceptions=False))
                for app in apps
            ]
            writer = _key(apps[0], "team")
            reader = _key(apps[0], "reader", allowed=["team"])
            admin = _key(apps[0], "ops", admin=True)
            yield Rig(primary, standby, apps, clients, writer, reader, admin, env)
            if not (standby.pgdata / "postmaster.pid").exists():
                standby.launch()  # a test stopped it: TcpPostgres.stop expects it running


def _store(client: TestClient, token: str, title: str, content: str) -> str:
    """A block in a category of its own: blocks of one category written in a row are a
    sequence, whose neighbours a query pulls in, and thirty crates would crowd out the rest."""
    category = title.lower().replace(" ", "-")
    body = {"title": title, "content": content, "category": category}
    r = client.post("/api/store", json=body, headers=_h(token))
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


def _found(client: TestClient, token: str, block_id: str, words: str) -> dict[str, bool]:
    """Whether the block is there for each read: get, search, query, listing (every answer
    200, never a 5xx)."""
    got = client.post("/api/manage", json={"action": "get", "id": block_id}, headers=_h(token))
    searched = client.post("/api/search", json={"query": words}, headers=_h(token))
    queried = client.post("/api/query", json={"query": words, "limit": 5}, headers=_h(token))
    listed = client.post("/api/manage", json={"action": "list", "limit": 5}, headers=_h(token))
    answers = {"get": got, "search": searched, "query": queried, "list": listed}
    for name, answer in answers.items():
        assert answer.status_code in (200, 404), f"{name}: {answer.status_code} {answer.text}"
    return {
        "get": got.status_code == 200 and got.json()["block"]["id"] == block_id,
        "search": block_id in {h["id"] for h in searched.json()["results"]},
        "query": block_id in {s["id"] for s in queried.json()["sources"]},
        "list": block_id in {b["id"] for b in listed.json()["blocks"]},
    }


def test_reads_of_a_call_that_writes_nothing_are_served_by_the_standby(rig: Rig) -> None:
    a = rig.clients[0]
    block_id = _store(a, rig.writer, "Harbour crane", "The harbour crane lifts forty tonnes.")
    on_primary = "SELECT title FROM context_blocks WHERE id = %s"
    assert query_rows(rig.primary.url("ctx"), on_primary, block_id) == [("Harbour crane",)]
    rig.caught_up()
    served, to_primary = rig.served(), sum(_set(app).to_primary.total() for app in rig.apps)
    assert _found(a, rig.reader, block_id, "harbour crane") == dict.fromkeys(
        ("get", "search", "query", "list"), True
    )
    assert rig.served() >= served + 4  # fusion and the query's other stages count too
    assert sum(_set(app).to_primary.total() for app in rig.apps) == to_primary


def test_a_key_reads_its_own_writes_through_either_server_every_time(rig: Rig) -> None:
    served = rig.served()
    for n in range(ROUNDS):
        writes, reads = rig.clients[n % 2], rig.clients[(n + 1) % 2]
        mark = f"kx{n:02d}vb"  # a word of this round's block only
        block_id = _store(writes, rig.writer, f"Crate {mark}", f"Crate {mark} waits on the quay.")
        found = _found(reads, rig.writer, block_id, mark)
        assert found == dict.fromkeys(found, True), f"round {n}: {found}"
    assert rig.served() > served  # the standby served some of them once it had the write


def test_a_paused_standby_leaves_the_writers_reads_to_the_primary(rig: Rig) -> None:
    a, app = rig.clients[0], rig.apps[0]
    rig.caught_up()
    query_rows(rig.standby.url("ctx"), "SELECT pg_wal_replay_pause()")
    try:
        lagged = rig.to_primary("lag")
        block_id = _store(a, rig.writer, "Dock nine", "Dock nine closes for dredging.")
        # read through the other server: it learns of the write from the key's row
        assert _found(rig.clients[1], rig.writer, block_id, "dock nine dredging") == dict.fromkeys(
            ("get", "search", "query", "list"), True
        )
        assert rig.to_primary("lag") > lagged
        # a call that writes reads from the primary: filing an issue answers with it, read back
        # (by a key with no write the standby lacks: only the call's own write is missing there)
        filer = _key(rig.apps[0], "harbour")
        filed = a.post("/api/issues", json={"title": "Dredger late"}, headers=_h(filer))
        assert filed.status_code == 201 and filed.json()["title"] == "Dredger late", filed.text
        # the reader wrote nothing: the paused standby is near enough, and it has no dock nine
        hits = a.post("/api/search", json={"query": "dredging"}, headers=_h(rig.reader))
        assert hits.status_code == 200 and hits.json()["results"] == []
        set_setting(app, "db.replica_max_lag_mb", 0)  # now the standby is too far behind
        try:
            hits = a.post("/api/search", json={"query": "dredging"}, headers=_h(rig.reader))
            assert [h["id"] for h in hits.json()["results"]] == [block_id]
        finally:
            unset_setting(app, "db.replica_max_lag_mb")
    finally:
        query_rows(rig.standby.url("ctx"), "SELECT pg_wal_replay_resume()")
    rig.caught_up()
    hits = a.post("/api/search", json={"query": "dredging"}, headers=_h(rig.reader))
    assert [h["id"] for h in hits.json()["results"]] == [block_id]


def test_a_standby_that_dies_leaves_reads_to_the_primary_until_it_is_back(rig: Rig) -> None:
    a = rig.clients[0]
    block_id = _store(a, rig.writer, "Tug boat", "The tug boat Brunel berths at pier four.")
    rig.caught_up()
    assert _found(a, rig.reader, block_id, "tug boat brunel")["get"]  # idle connections now
    down = rig.to_primary("down")
    pg_stop(rig.standby, "immediate")
    try:
        for _ in range(3):
            found = _found(a, rig.reader, block_id, "tug boat brunel")
            assert found == dict.fromkeys(found, True), found
        assert rig.to_primary("down") > down
        replica = _replicas(rig.apps[0])[0]
        assert replica.unserved["down"] >= 1 and replica.error
    finally:
        rig.standby.launch()
    served = rig.served()

    def back() -> bool:
        assert _found(a, rig.reader, block_id, "tug boat brunel")["get"]
        return rig.served() > served

    wait_for("reads back on the standby", back, 60, poll=0.2)


def test_every_routed_path_runs_on_the_standby_without_a_refused_statement(rig: Rig) -> None:
    a, app = rig.clients[0], rig.apps[0]
    block_id = _store(a, rig.writer, "Lock gate", "The lock gate opened yesterday at noon.")
    rig.caught_up()
    served, to_primary = rig.served(), _set(app).to_primary.total()
    token = rig.reader
    answers = [
        a.post("/api/query", json={"query": "lock gate yesterday", "explain": True},
               headers=_h(token)),
        a.post("/api/query", json={"query": "what opened last week"}, headers=_h(token)),
        a.post("/api/search", json={"query": "lock gate"}, headers=_h(token)),
        a.post("/api/manage", json={"action": "stats"}, headers=_h(token)),
        a.post("/api/manage", json={"action": "categories"}, headers=_h(token)),
    ]  # fmt: skip
    tools = [("search", {"query": "lock gate"}), ("get", {"id": block_id}),
             ("query", {"query": "lock gate"}), ("stats", {})]  # fmt: skip
    for number, (name, arguments) in enumerate(tools):
        call = {"jsonrpc": "2.0", "id": number, "method": "tools/call",
                "params": {"name": name, "arguments": arguments}}  # fmt: skip
        accept = {"Accept": "application/json, text/event-stream"}
        answer = a.post("/mcp", json=call, headers={**_h(token), **accept})
        assert not answer.json()["result"].get("isError"), answer.text
        answers.append(answer)
    browser = Browser(a, token)
    browser.sign_in()
    answers += [
        browser.get("/blocks"),
        browser.get("/blocks?q=lock+gate"),
        browser.get(f"/blocks/{block_id}"),
    ]
    prepared = a.post(
        "/api/governor/prepare",
        headers=_h(token),
        json={"thread": {"session_id": "locks"}, "budget": 800,
              "event": {"content": "When did the lock gate open?"}},
    )  # fmt: skip
    answers.append(prepared)
    assert [r.status_code for r in answers] == [200] * len(answers), [r.text for r in answers]
    assert "Lock gate" in answers[-2].text  # the block's page, read on the standby
    assert rig.served() >= served + len(answers)
    for replica in _replicas(app):
        assert replica.unserved["refused"] == replica.unserved["conflict"] == 0
    assert _set(app).to_primary.total() == to_primary  # no read of these went to the primary


def test_status_and_doctor_show_the_standby(rig: Rig, tmp_path: Path) -> None:
    status = rig.clients[0].get("/api/status", headers=_h(rig.admin))
    assert status.status_code == 200, status.text
    (line,) = status.json()["replicas"]["replicas"]
    assert line["reachable"] and line["standby"] and line["lag_bytes"] >= 0
    assert line["served"] > 0
    report = diagnose(App(home=tmp_path, load_entry_points=False, environ=rig.env))
    (check,) = [c for c in report["checks"] if c["name"].startswith("read replica")]
    assert check["ok"] and "hot standby" in check["detail"], check


def test_a_bad_read_url_stops_start_up_with_one_line(tmp_path: Path) -> None:
    assert read_urls(" postgresql://h1/ctx,postgresql://h2/ctx  postgresql://h1/ctx") == [
        "postgresql://h1/ctx",
        "postgresql://h2/ctx",
    ]
    with pytest.raises(ConfigError, match="CTX_DATABASE_READ_URL: 'mysql://h/ctx' is no URL"):
        App(load_entry_points=False, environ={"CTX_DATABASE_READ_URL": "mysql://h/ctx"})
    with pytest.raises(ConfigError, match="set CTX_DATABASE_URL to the primary"):
        App(load_entry_points=False, environ={"CTX_DATABASE_READ_URL": "postgresql://h/ctx"})
    env = {**clean_env(tmp_path), "CTX_DATABASE_URL": "postgresql://h/ctx",
           "CTX_DATABASE_READ_URL": "postgresql://h/ctx, replica:5432"}  # fmt: skip
    done = ctx(env, "doctor")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "ctx: CTX_DATABASE_READ_URL: 'replica:5432' is no URL (it must start with postgresql://)"
    ]
