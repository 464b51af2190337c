"""POST /api/query over HTTP: auth, validation, scope isolation, fail-open embedding."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import openai_server
import pytest

from ctx.core import App, embed
from ctx.core.runtime import set_setting


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    with openai_server.OpenAIServer(native_dimensions=32) as srv:
        yield srv


def _store(client: Any, headers: dict[str, str], title: str, content: str) -> str:
    r = client.post("/api/store", json={"title": title, "content": content}, headers=headers)
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


def _query(client: Any, headers: dict[str, str], query: str, **extra: Any) -> Any:
    return client.post("/api/query", json={"query": query, **extra}, headers=headers)


def _rows(app: App, sql: str, *params: Any) -> list[dict[str, Any]]:
    with app.connection() as conn:
        return conn.execute(sql, params).fetchall()


def test_query_needs_a_key(client: Any) -> None:
    anonymous = _query(client, {}, "anything")
    assert anonymous.status_code == 401 and anonymous.json()["error"] == "unauthorized"
    wrong = _query(client, {"X-Context-Key": "ctx_not_a_real_key"}, "anything")
    assert wrong.status_code == 401


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"query": "x", "limit": 0}, "limit"),
        ({"query": "x", "limit": 21}, "limit"),
        ({"query": "   "}, "query"),
        ({"query": ""}, "query"),
        ({"query": "x", "exclude_ids": ["nope"]}, "exclude_ids"),
        ({"query": "x", "surprise": True}, "surprise"),
        ({}, "query"),
    ],
)
def test_invalid_requests_are_422(keys: Any, client: Any, body: dict[str, Any], field: str) -> None:
    r = client.post("/api/query", json=body, headers={"X-Context-Key": keys.make("alpha")})
    assert r.status_code == 422, r.text
    assert r.json()["error"] == "invalid"
    assert r.json()["errors"][0]["field"].startswith(field)
    assert r.json()["message"].startswith(field)


def test_limit_bounds_are_inclusive(app: App, keys: Any, client: Any) -> None:
    h = {"X-Context-Key": keys.make("alpha")}
    set_setting(app, "query.weight_dense", 0.0)  # text channels are enough here: no model load
    for i in range(3):
        _store(client, h, f"Backup note {i}", "The backup runs at night.")
    assert len(_query(client, h, "backup", limit=1).json()["sources"]) == 1
    assert len(_query(client, h, "backup", limit=20).json()["sources"]) == 3


def test_query_round_trip_with_explain(keys: Any, client: Any) -> None:
    h = {"X-Context-Key": keys.make("alpha")}
    german = _store(client, h, "Datenbank Sicherung", "Die Datenbank wird jede Nacht gesichert.")
    _store(client, h, "Deploy checklist", "Tag the release, build the wheel, publish.")
    r = _query(client, h, "Datenbanken", explain=True)
    assert r.status_code == 200, r.text
    body = r.json()
    assert {
        "query",
        "confidence",
        "sources",
        "language",
        "warnings",
        "candidates",
        "took_ms",
    } <= set(body)
    assert body["confidence"] == "confident" and body["warnings"] == []
    assert body["language"] == {
        "language": "de",
        "german_signals": ["terms:datenbank"],
        "translation": "skipped: no backend serves the translate role "
        "(add one with `ctx backends create`)",
    }
    top = body["sources"][0]
    assert top["id"] == german and top["scope"] == "alpha"
    assert top["channels"]["fts_de"]["rank"] == 1
    assert top["channels"]["fts_en"]["rank"] is None
    assert top["channels"]["dense"]["rank"] == 1
    plain = _query(client, h, "Datenbanken").json()
    assert "channels" not in plain["sources"][0]
    assert plain["language"]["language"] == "de"
    english = _query(client, h, "how do we publish a release").json()
    assert english["language"] == {"language": "en", "german_signals": []}


def test_another_scopes_block_never_appears(app: App, keys: Any, client: Any) -> None:
    alpha = {"X-Context-Key": keys.make("alpha")}
    beta = {"X-Context-Key": keys.make("beta")}
    reader = {"X-Context-Key": keys.make("reader", allowed=["alpha", "beta"])}
    mine = _store(client, alpha, "Ingress timeouts", "The ingress drops idle websockets.")
    theirs = _store(client, beta, "Ingress timeouts", "Beta's secret ingress notes.")

    for text in ("Ingress timeouts", "Beta's secret ingress notes", "secret"):
        ids = [s["id"] for s in _query(client, alpha, text, limit=20).json()["sources"]]
        assert theirs not in ids, text
    beta_ids = [
        s["id"] for s in _query(client, beta, "Ingress timeouts", limit=20).json()["sources"]
    ]
    assert beta_ids == [theirs]

    denied = _query(client, alpha, "ingress", scopes=["beta"])
    assert denied.status_code == 403 and "cannot read scope" in denied.json()["message"]

    both = _query(client, reader, "Ingress timeouts", limit=20).json()
    assert {s["id"] for s in both["sources"]} == {mine, theirs}
    narrowed = _query(client, reader, "Ingress timeouts", scopes=["alpha"], limit=20).json()
    assert [s["id"] for s in narrowed["sources"]] == [mine]


def test_a_failing_embedder_keeps_writes_and_falls_back_to_text(
    app: App, keys: Any, client: Any, server: Any
) -> None:
    server.reset("error500")
    with app.connection() as conn:
        conn.execute("UPDATE context_embedding_generations SET status = 'retired'")
    gen = embed.create_generation(
        app,
        "openai",
        {"base_url": server.base_url, "model": "test-embed", "dimensions": 32},
        active=True,
    )
    h = {"X-Context-Key": keys.make("alpha")}

    stored = client.post(
        "/api/store",
        json={"title": "Backup window", "content": "Backups run every night at two."},
        headers=h,
    )
    assert stored.status_code == 200, stored.text
    block_id = stored.json()["id"]
    assert _rows(app, "SELECT title FROM context_blocks WHERE id = %s", block_id) == [
        {"title": "Backup window"}
    ]
    jobs = _rows(app, "SELECT status FROM context_jobs WHERE kind = 'embed'")
    assert jobs == [{"status": "queued"}]

    r = _query(client, h, "when do backups run", explain=True)
    assert r.status_code == 200, r.text
    body = r.json()
    assert [s["id"] for s in body["sources"]] == [block_id]
    channels = body["sources"][0]["channels"]
    assert channels["fts_en"]["rank"] == 1
    assert channels["dense"]["rank"] is None
    # the inline embedding failed, so the block waits for the worker and is found by text
    assert len(body["warnings"]) == 3, body["warnings"]
    assert body["warnings"][0].startswith("embedding pending blocks failed")
    assert "1 block" in body["warnings"][1] and "found by text only" in body["warnings"][1]
    assert body["warnings"][2].startswith("query embedding failed")
    assert "HTTP 500" in body["warnings"][0] and "HTTP 500" in body["warnings"][2]
    assert {r.path for r in server.requests} == {"/v1/embeddings"}

    # Nothing was lost: the block is there, its job waits for a retry, no vector was written.
    [job] = _rows(app, "SELECT status, attempts, last_error FROM context_jobs WHERE kind = 'embed'")
    assert (job["status"], job["attempts"]) == ("queued", 1)
    assert "model failed to load" in job["last_error"]
    assert (
        _rows(app, "SELECT * FROM context_block_embeddings WHERE generation = %s", gen["id"]) == []
    )

    # Once the server recovers (and the retry is due), the next query embeds the block.
    server.reset("ok")
    with app.connection() as conn:
        conn.execute("UPDATE context_jobs SET run_after = now()")
    healed = _query(client, h, "when do backups run", explain=True).json()
    assert healed["warnings"] == []
    assert healed["sources"][0]["channels"]["dense"]["rank"] == 1
    assert _rows(app, "SELECT * FROM context_jobs WHERE kind = 'embed'") == []


def test_queries_respect_the_embed_jobs_backoff(
    app: App, keys: Any, client: Any, server: Any
) -> None:
    server.reset("error500")
    with app.connection() as conn:
        conn.execute("UPDATE context_embedding_generations SET status = 'retired'")
    embed.create_generation(
        app,
        "openai",
        {"base_url": server.base_url, "model": "test-embed", "dimensions": 32},
        active=True,
    )
    h = {"X-Context-Key": keys.make("alpha")}
    _store(client, h, "Backup window", "Backups run every night at two.")
    for _ in range(3):
        assert _query(client, h, "backups").status_code == 200
    [job] = _rows(app, "SELECT status, attempts FROM context_jobs WHERE kind = 'embed'")
    assert (job["status"], job["attempts"]) == ("queued", 1)


def test_a_block_is_found_by_its_words_the_moment_it_is_stored(
    app: App, keys: Any, client: Any
) -> None:
    """The full-text columns are written with the block: before any vector exists (no worker
    runs, and the query's inline embedding is off), /api/search and /api/query find it by a
    word of its content and by one of its title, through the text channels."""
    set_setting(app, "query.inline_embed_ms", 0)
    h = {"X-Context-Key": keys.make("alpha")}
    block = _store(
        client, h, "Lighthouse inspection", "The lens was polished and the foghorn tested."
    )
    _store(client, h, "Deploy checklist", "Tag the release, build the wheel, publish.")
    for word in ("foghorn", "lighthouse"):
        found = client.post("/api/search", json={"query": word}, headers=h).json()
        assert [hit["id"] for hit in found["results"]] == [block]
        r = _query(client, h, word, explain=True)
        assert r.status_code == 200, r.text
        top = r.json()["sources"][0]
        assert top["id"] == block and top["channels"]["fts_en"]["rank"] == 1
        assert top["channels"]["dense"]["rank"] is None
    pending = _rows(
        app,
        "SELECT (SELECT count(*) FROM context_jobs WHERE kind = 'embed') AS jobs, "
        "(SELECT count(*) FROM context_block_embeddings) AS vectors",
    )
    assert pending == [{"jobs": 2, "vectors": 0}]
