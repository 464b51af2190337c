"""Block endpoints over HTTP: store/update/get/delete round trips, search, manage, auth headers."""

from __future__ import annotations

from typing import Any

import pytest
from governor_kit import record_thread
from live import live_server

from ctx.core import App
from ctx.core.access import authenticate
from ctx.core.runtime import set_setting
from ctx.core.tools import call_tool
from ctx.ui.cli import run


def _count(app: App, table: str) -> int:
    with app.connection() as conn:
        row = conn.execute(f"SELECT count(*) AS n FROM {table}").fetchone()
    assert row is not None
    return int(row["n"])


def test_store_update_get_delete_round_trip(app: App, keys: Any, client: Any) -> None:
    h = {"X-Context-Key": keys.make("alpha")}
    body = {
        "title": "Release checklist",
        "content": "Tag, build, publish.",
        "category": "ops",
        "tags": ["release"],
        "metadata": {"owner": "ana"},
        "sensitivity": "public",
    }
    created = client.post("/api/store", json=body, headers=h)
    assert created.status_code == 200
    assert created.json()["action"] == "created"
    block_id = created.json()["id"]
    assert created.json() == {
        "id": block_id,
        "action": "created",
        "scope": "alpha",
        "category": "ops",
        "title": "Release checklist",
    }

    updated = client.post("/api/store", json={**body, "content": "Tag, build, sign."}, headers=h)
    assert updated.status_code == 200
    assert updated.json() == {**created.json(), "action": "updated"}

    got = client.post("/api/manage", json={"action": "get", "id": block_id}, headers=h)
    assert got.status_code == 200
    block = got.json()["block"]
    assert block["content"] == "Tag, build, sign."
    assert block["metadata"] == {"owner": "ana"} and block["tags"] == ["release"]
    assert block["sensitivity"] == "public" and block["scope"] == "alpha"
    by_prefix = client.post("/api/manage", json={"action": "get", "id": block_id[:8]}, headers=h)
    assert by_prefix.json()["block"]["id"] == block_id

    deleted = client.post("/api/manage", json={"action": "delete", "id": block_id}, headers=h)
    assert deleted.status_code == 200
    assert deleted.json() == {"id": block_id, "action": "deleted"}
    gone = client.post("/api/manage", json={"action": "get", "id": block_id}, headers=h)
    assert gone.status_code == 404 and gone.json()["error"] == "not_found"
    again = client.post("/api/manage", json={"action": "delete", "id": block_id}, headers=h)
    assert again.status_code == 404
    assert _count(app, "context_blocks") == 0
    with app.connection() as conn:
        log = conn.execute("SELECT action FROM context_write_log ORDER BY id").fetchall()
    assert [r["action"] for r in log] == ["block.created", "block.updated", "block.deleted"]


def test_both_key_headers_authenticate(keys: Any, client: Any) -> None:
    token = keys.make("alpha", allowed=["shared"])
    for headers in (
        {"X-Context-Key": token},
        {"Authorization": f"Bearer {token}"},
        {"authorization": f"bearer   {token}  "},
    ):
        r = client.get("/api/whoami", headers=headers)
        assert r.status_code == 200, headers
        assert r.json()["home_scope"] == "alpha"
        assert r.json()["read_scopes"] == ["alpha", "shared"]
        assert r.json()["is_admin"] is False
        assert "token" not in r.text and token not in r.text
    for headers in ({"Authorization": f"Basic {token}"}, {"Authorization": token}, {}):
        assert client.get("/api/whoami", headers=headers).status_code == 401


def test_search_list_stats_and_categories(app: App, keys: Any, client: Any) -> None:
    h = {"Authorization": f"Bearer {keys.make('alpha')}"}
    for i in range(4):
        r = client.post(
            "/api/store",
            json={
                "title": f"Postgres tuning {i}",
                "content": f"shared_buffers and work_mem, note {i}",
                "category": "db" if i % 2 else "ops",
                "tags": ["pg"] if i < 2 else [],
            },
            headers=h,
        )
        assert r.status_code == 200
    client.post("/api/store", json={"title": "Unrelated", "content": "gardening"}, headers=h)

    found = client.post("/api/search", json={"query": "work_mem"}, headers=h).json()
    assert found["count"] == 4 and len(found["results"]) == 4
    assert all(hit["title"].startswith("Postgres tuning") for hit in found["results"])
    assert all(hit["score"] > 0 and "**" in hit["snippet"] for hit in found["results"])
    narrowed = client.post(
        "/api/search", json={"query": "work_mem", "category": "db", "tags": ["pg"]}, headers=h
    ).json()
    assert [hit["title"] for hit in narrowed["results"]] == ["Postgres tuning 1"]
    assert (
        client.post("/api/search", json={"query": "work_mem", "limit": 2}, headers=h).json()[
            "count"
        ]
        == 2
    )
    set_setting(app, "search.default_limit", 3)  # hot: the next search follows it
    assert client.post("/api/search", json={"query": "work_mem"}, headers=h).json()["count"] == 3

    listed = client.post("/api/manage", json={"action": "list", "limit": 3}, headers=h).json()
    assert listed["count"] == 3 and "content" not in listed["blocks"][0]
    assert listed["blocks"][0]["title"] == "Unrelated"  # newest first
    page2 = client.post(
        "/api/manage", json={"action": "list", "limit": 3, "offset": 3}, headers=h
    ).json()
    assert page2["count"] == 2
    assert {b["id"] for b in listed["blocks"]}.isdisjoint(b["id"] for b in page2["blocks"])
    in_db = client.post("/api/manage", json={"action": "list", "category": "db"}, headers=h)
    assert {b["category"] for b in in_db.json()["blocks"]} == {"db"}

    stats = client.post("/api/manage", json={"action": "stats"}, headers=h).json()["stats"]
    assert stats["blocks"] == 5 and stats["categories"] == 3
    assert stats["by_scope"] == {"alpha": 5} and stats["by_type"] == {"knowledge": 5}
    cats = client.post("/api/manage", json={"action": "categories"}, headers=h).json()
    assert [(c["category"], c["blocks"]) for c in cats["categories"]] == [
        ("db", 2),
        ("general", 1),
        ("ops", 2),
    ]


def test_store_follows_the_edited_type_row(app: App, keys: Any, client: Any) -> None:
    admin = {"X-Context-Key": keys.make("ops", admin=True)}
    r = client.patch("/api/types/knowledge", json={"embed": False}, headers=admin)
    assert r.status_code == 200 and r.json()["embed"] is False
    stored = client.post("/api/store", json={"title": "t", "content": "c"}, headers=admin).json()
    with app.connection() as conn:
        kinds = conn.execute(
            "SELECT kind FROM context_jobs WHERE payload->>'block_id' = %s", (stored["id"],)
        ).fetchall()
    assert [k["kind"] for k in kinds] == ["temporal"]


def test_governed_threads_are_counted_apart_from_blocks_and_categories(
    app: App, keys: Any, client: Any, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """A thread's records (``thread/...`` categories, ``event`` blocks) crowded the stats and the
    categories an agent is told to reuse; they are counted apart, never offered as categories."""
    token = keys.make("alpha")
    h = {"X-Context-Key": token}
    for title, category in (("Backups", "ops"), ("Pool size", "db")):
        r = client.post("/api/store", json={"title": title, "content": f"About {title}.",
                                           "category": category}, headers=h)  # fmt: skip
        assert r.status_code == 200, r.text
    record_thread(client, h, "agent-1", "We moved staging to db-7.", "Noted.")
    record_thread(client, h, "agent-2", "What is the pool size?")
    with app.connection() as conn:
        records = conn.execute(
            "SELECT count(*) AS n FROM context_blocks WHERE category LIKE 'thread/%%'"
        ).fetchone()
        who = authenticate(conn, token)
    assert records["n"] == 3  # the records are there, as blocks of the thread categories

    stats = client.post("/api/manage", json={"action": "stats"}, headers=h).json()["stats"]
    assert (stats["blocks"], stats["categories"]) == (2, 2)
    assert stats["by_scope"] == {"alpha": 2} and stats["by_type"] == {"knowledge": 2}
    assert (stats["governed_threads"], stats["governed_records"]) == (2, 3)
    cats = client.post("/api/manage", json={"action": "categories"}, headers=h).json()
    assert [c["category"] for c in cats["categories"]] == ["db", "ops"]

    tool = call_tool(app, who, "stats", {})
    assert tool.error is None, tool.error
    assert tool.result["categories"] == {"db": 1, "ops": 1}
    assert tool.result["blocks"] == 2 and tool.result["governed_threads"] == 2

    with live_server(app) as url:
        monkeypatch.setenv("CTX_URL", url)
        monkeypatch.setenv("CTX_API_KEY", token)
        assert run(["stats"]) == 0
        out = capsys.readouterr().out
        assert out.startswith("2 blocks (0 archived) in 2 categories")
        assert "governed threads: 2 (3 records, not counted above)" in out
        assert "thread/" not in out and "type event" not in out
        assert run(["categories"]) == 0
        assert "thread/" not in capsys.readouterr().out
