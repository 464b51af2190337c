"""Scope isolation through every endpoint: a key never reads or writes outside its scopes.

Three keys: ``alpha`` (home alpha), ``reader`` (home beta, may also read alpha) and ``outsider``
(home gamma). A block the caller cannot read must look exactly like one that does not exist.
"""

from __future__ import annotations

from typing import Any

import pytest

from ctx.core import App

MISSING = "0badc0de-0000-4000-8000-000000000000"


class World:
    def __init__(self, app: App, keys: Any, client: Any) -> None:
        self.app = app
        self.client = client
        self.alpha = {"X-Context-Key": keys.make("alpha")}
        self.reader = {"X-Context-Key": keys.make("beta", allowed=["alpha"])}
        self.outsider = {"Authorization": f"Bearer {keys.make('gamma')}"}
        self.alpha_block = self.store(self.alpha, "Alpha plan", "zebra migration", "plans")
        self.beta_block = self.store(self.reader, "Beta notes", "zebra sighting", "notes")
        self.gamma_block = self.store(self.outsider, "Gamma diary", "zebra crossing", "diary")

    def store(self, headers: dict[str, str], title: str, content: str, category: str) -> str:
        r = self.client.post(
            "/api/store",
            json={"title": title, "content": content, "category": category},
            headers=headers,
        )
        assert r.status_code == 200
        return str(r.json()["id"])

    def manage(self, headers: dict[str, str], **body: Any) -> Any:
        return self.client.post("/api/manage", json=body, headers=headers)

    def search(self, headers: dict[str, str], **body: Any) -> Any:
        return self.client.post("/api/search", json={"query": "zebra", **body}, headers=headers)

    def snapshot(self) -> tuple[list[dict[str, Any]], int]:
        with self.app.connection() as conn:
            blocks = conn.execute(
                "SELECT id, scope, title, content, updated_at FROM context_blocks ORDER BY id"
            ).fetchall()
            log = conn.execute("SELECT count(*) AS n FROM context_write_log").fetchone()
        assert log is not None
        return blocks, int(log["n"])


@pytest.fixture
def world(app: App, keys: Any, client: Any) -> World:
    return World(app, keys, client)


def _normalised(response: Any, ident: str) -> tuple[int, dict[str, Any]]:
    body = dict(response.json())
    body.pop("request_id")
    body["message"] = body["message"].replace(ident, "<id>")
    return response.status_code, body


def test_a_foreign_block_looks_exactly_like_a_missing_one(world: World) -> None:
    for ident in (world.alpha_block, world.alpha_block[:8]):
        for action in ("get", "delete"):
            foreign = world.manage(world.outsider, action=action, id=ident)
            missing_ident = MISSING[: len(ident)]
            missing = world.manage(world.outsider, action=action, id=missing_ident)
            assert foreign.status_code == 404
            assert _normalised(foreign, ident) == _normalised(missing, missing_ident)
            assert "Alpha" not in foreign.text and "alpha" not in foreign.text


def test_id_prefixes_never_count_foreign_blocks(app: App, keys: Any, client: Any) -> None:
    with app.connection() as conn:
        for block_id, scope, title in (
            ("feed0001-0000-4000-8000-000000000001", "alpha", "mine"),
            ("feed0002-0000-4000-8000-000000000002", "gamma", "theirs"),
        ):
            conn.execute(
                "INSERT INTO context_blocks (id, scope, category, title, content, block_type, "
                "content_hash) VALUES (%s, %s, 'general', %s, 'c', 'knowledge', 'h')",
                (block_id, scope, title),
            )
    alpha = {"X-Context-Key": keys.make("alpha")}
    r = client.post("/api/manage", json={"action": "get", "id": "feed"}, headers=alpha)
    assert r.status_code == 200 and r.json()["block"]["title"] == "mine"
    gamma = {"X-Context-Key": keys.make("gamma")}
    r = client.post("/api/manage", json={"action": "get", "id": "feed"}, headers=gamma)
    assert r.status_code == 200 and r.json()["block"]["title"] == "theirs"
    both = {"X-Context-Key": keys.make("delta", allowed=["alpha", "gamma"])}
    r = client.post("/api/manage", json={"action": "get", "id": "feed"}, headers=both)
    assert r.status_code == 409 and r.json()["error"] == "ambiguous"


def test_listings_search_and_counts_show_only_read_scopes(world: World) -> None:
    def seen(headers: dict[str, str]) -> dict[str, Any]:
        return {
            "search": {h["id"] for h in world.search(headers).json()["results"]},
            "list": {b["id"] for b in world.manage(headers, action="list").json()["blocks"]},
            "stats": world.manage(headers, action="stats").json()["stats"]["by_scope"],
            "categories": [
                c["category"]
                for c in world.manage(headers, action="categories").json()["categories"]
            ],
        }

    assert seen(world.outsider) == {
        "search": {world.gamma_block},
        "list": {world.gamma_block},
        "stats": {"gamma": 1},
        "categories": ["diary"],
    }
    assert seen(world.alpha) == {
        "search": {world.alpha_block},
        "list": {world.alpha_block},
        "stats": {"alpha": 1},
        "categories": ["plans"],
    }
    assert seen(world.reader) == {
        "search": {world.alpha_block, world.beta_block},
        "list": {world.alpha_block, world.beta_block},
        "stats": {"alpha": 1, "beta": 1},
        "categories": ["notes", "plans"],
    }
    got = world.manage(world.reader, action="get", id=world.alpha_block)
    assert got.status_code == 200 and got.json()["block"]["content"] == "zebra migration"


def test_asking_for_an_unreadable_scope_is_refused(world: World) -> None:
    refused = [
        world.search(world.reader, scopes=["gamma"]),
        world.search(world.reader, scopes=["alpha", "gamma"]),
        world.manage(world.reader, action="list", scope="gamma"),
        world.manage(world.reader, action="categories", scope="gamma"),
        world.manage(world.outsider, action="list", scope="nonexistent"),
    ]
    for r in refused:
        assert r.status_code == 403
        assert r.json()["error"] == "forbidden"
        assert "zebra" not in r.text and "Gamma" not in r.text
    # The answer is the same whether or not the scope holds anything.
    empty = world.manage(world.reader, action="list", scope="nonexistent").json()
    full = world.manage(world.reader, action="list", scope="gamma").json()
    assert {k: v for k, v in empty.items() if k != "request_id"} == {
        k: v.replace("gamma", "nonexistent") for k, v in full.items() if k != "request_id"
    }


def test_writes_outside_the_home_scope_get_403_and_change_nothing(world: World) -> None:
    before = world.snapshot()
    attempts = [
        world.client.post(
            "/api/store",
            json={"title": "Alpha plan", "content": "overwritten", "category": "plans", "scope": s},
            headers=h,
        )
        for h, s in ((world.reader, "alpha"), (world.outsider, "alpha"), (world.alpha, "beta"))
    ]
    attempts.append(world.manage(world.reader, action="delete", id=world.alpha_block))
    attempts.append(world.manage(world.reader, action="delete", id=world.alpha_block[:6]))
    for r in attempts:
        assert r.status_code == 403
        assert r.json()["error"] == "forbidden"
    # Deleting what the key cannot even read is a 404, as for any missing block.
    assert world.manage(world.outsider, action="delete", id=world.beta_block).status_code == 404
    assert world.snapshot() == before
