"""The lossless round trip: a store with blocks and their versions, Guard decisions and reviews,
reviewed links, a governed thread (events, records, pins, a desk, an ingested document), issues
with history, a forge link with its sync state and conflicts, blobs with their bytes and the gold
set's marks is exported, imported into a fresh database and exported again: every line and every
carried table's row count is the same. Every table of the schema is either carried by the export (a
scope's rows), carried by the admin export only (the server's own rows) or named below with the
reason it is not, so a new table the export does not cover fails this test.

The admin export adds the server: settings, block types, Guard thresholds, tenants and grants,
backends with their sealed secrets, and the keys; it goes through the same round trip, and its
secrets are never in the file in plain text."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ctx.core import App, access, guard
from ctx.core.access.secrets import KEY_FILE, key_id
from ctx.core.blocks.transfer import BLOCK_TABLES
from ctx.core.embed import active_generation
from ctx.core.runtime import drain
from ctx.ui import create_app

#: Tables an export does not carry, and why (docs/operations.md says the same).
NOT_CARRIED = {
    "_ctx_migrations": "the schema's own version",
    "context_oauth_clients": "the server's sign-ins",
    "context_oauth_codes": "the server's sign-ins",
    "context_oauth_requests": "the server's sign-ins",
    "context_web_sessions": "the server's sign-ins",
    "context_rate_counts": "the server's rate limits",
    "context_key_lsns": "the server's read-replica positions",
    "context_jobs": "the server's work queue (an import queues its own)",
    "context_job_totals": "the server's count of the jobs it ran",
    "context_llm_log": "the server's call log",
    "context_write_log": "the server's audit log (an import writes its own rows)",
    "issue_webhook_deliveries": "the server's webhook dedupe",
    "context_embedding_generations": "derived: rebuilt from the content",
    "context_block_embeddings": "derived: rebuilt from the content",
    "context_scope_stats": "derived: counted from the blocks",
    "context_scope_terms": "derived: counted from the blocks",
    "context_dream_state": "derived: Dream's progress, started again",
    "context_graph_clusters": "derived: the overview's job rebuilds it",
    "context_graph_members": "derived: the overview's job rebuilds it",
    "context_graph_cluster_edges": "derived: the overview's job rebuilds it",
}

BACKUP = (
    "The nightly Postgres backup runs at 02:00 on db-2 and keeps 14 days of WAL archives in "
    "the S3 bucket ctx-backups; restores are tested on the first Monday of each month."
)
PARAPHRASE = (
    "Every night at 02:00 the db-2 host backs up Postgres. WAL archives stay for 14 days in the "
    "ctx-backups S3 bucket, and on the first Monday of every month we test a restore."
)
LASAGNE = "Layer the pasta sheets with ragu and bechamel and bake for 45 minutes at 180 degrees."
THREAD = {"session_id": "exp-1"}
PICTURE = bytes(range(256)) * 40


def _h(token: str) -> dict[str, str]:
    return {"X-Context-Key": token}


def _admin(app: App, home: str = "team") -> str:
    with app.connection() as conn:
        _, token = access.create_key(conn, name="admin", home_scope=home, is_admin=True)
    return token


def _ok(r: Any) -> Any:
    assert r.status_code < 300, r.text
    return r.json()


@pytest.fixture
def other_client(other_app: App) -> Iterator[TestClient]:
    with TestClient(create_app(other_app), raise_server_exceptions=False) as c:
        yield c


def _settle(app: App) -> None:
    for kind in ("governor.index", "embed", "temporal", "guard"):
        drain(app, kind)


def _fill(app: App, client: Any, token: str) -> None:
    """Everything a user owns in a scope, each through its own surface."""
    h = _h(token)
    ids = {}
    for title, content, category in (
        ("Backup plan", BACKUP, "ops"),
        ("Backup plan", BACKUP, "notes"),  # an exact copy: archived as a near-duplicate
        ("How our backups work", PARAPHRASE, "ops"),  # flagged for review
        ("Lasagne", LASAGNE, "food"),
        ("Deploy runbook", "Deploys go out on Tuesdays since 2026-02-03.", "ops"),
    ):
        body = {"title": title, "content": content, "category": category}
        ids[(title, category)] = _ok(client.post("/api/store", json=body, headers=h))["id"]
    # the runbook changed: its first wording is kept as a version
    body = {"title": "Deploy runbook", "content": "Deploys go out on Thursdays since 2026-03-05.",
            "category": "ops"}  # fmt: skip
    _ok(client.post("/api/store", json=body, headers=h))
    # the gold set: a source marked as answering a question, another as not
    for name, verdict in (
        (("Backup plan", "ops"), "answered"),
        (("Lasagne", "food"), "not_answered"),
    ):
        mark = {"question": "When does the backup run?", "id": ids[name], "verdict": verdict}
        _ok(client.post("/api/eval/marks", json=mark, headers=h))
    # a governed thread: events and their records, a desk, a pin, a document of the thread
    for text in ("We moved the backups to db-2.", "Noted: backups on db-2 from now on."):
        body = {"thread": THREAD, "event": {"role": "user", "content": text}}
        _ok(client.post("/api/governor/prepare", json=body, headers=h))
    body = {"thread": THREAD, "event": {"role": "assistant", "content": "I will remember that."}}
    _ok(client.post("/api/governor/commit", json=body, headers=h))
    pins = {"thread": THREAD, "items": [{"seq": 1}, {"content": "Answer in English."},
                                        {"block_id": ids[("Lasagne", "food")]}]}  # fmt: skip
    _ok(client.post("/api/governor/protect", json=pins, headers=h))
    doc = {"thread": THREAD, "title": "Notes", "content": "# Backups\n\nOn db-2.\n"}
    _ok(client.post("/api/governor/ingest", json=doc, headers=h))
    # issues: numbers, edits, a comment, a close (history)
    for title in ("Backups fail on Sundays", "Restore test missing", "Docs are stale"):
        _ok(client.post("/api/issues", json={"title": title, "labels": ["ops"]}, headers=h))
    _ok(client.patch("/api/issues/2", json={"labels": ["ops", "urgent"]}, headers=h))
    _ok(client.post("/api/issues/2/comments", json={"body": "Seen again."}, headers=h))
    _ok(client.post("/api/issues/3/close", json={"reason": "not_planned"}, headers=h))
    # a blob
    picture = {"title": "diagram.png", "data": base64.b64encode(PICTURE).decode()}
    _ok(client.post("/api/blob/store", json=picture, headers=h))
    _settle(app)
    # a Guard review, links with review states
    _ok(client.post("/api/guard/resolve", json={"id": ids[("Backup plan", "notes")],
                                                "resolution": "keep_both"}, headers=h))  # fmt: skip
    with app.connection() as conn:
        for source, target, kind in (
            (("Deploy runbook", "ops"), ("Backup plan", "ops"), "causal"),
            (("Lasagne", "food"), ("Backup plan", "ops"), "topical"),
        ):
            conn.execute(
                "INSERT INTO context_links (source_id, target_id, link_type, confidence, origin, "
                "note) VALUES (%s, %s, %s, 0.7, 'user', 'why')",
                (ids[source], ids[target], kind),
            )
        links = conn.execute("SELECT id, link_type FROM context_links ORDER BY id").fetchall()
        issue = conn.execute(
            "SELECT id FROM context_blocks WHERE block_type = 'issue' ORDER BY created_at LIMIT 1"
        ).fetchone()["id"]
        # the forge sync's rows (a link needs a forge; its state is what a sync leaves behind)
        link_id = conn.execute(
            "INSERT INTO issue_forge_links (scope, forge, repo, token_secret, issues_since, "
            "issues_etag, last_sync_at, last_report) VALUES ('team', 'github', 'acme/ops', "
            "'gh-token', now(), 'W/\"1\"', now(), '{\"pulled\": 3}') RETURNING id"
        ).fetchone()["id"]
        conn.execute(
            "INSERT INTO issue_sync_state (block_id, link_id, kind, forge_id, forge_number, "
            "snapshot, hash) VALUES (%s, %s, 'issue', 9001, 7, '{\"title\": \"t\"}', 'h1')",
            (issue, link_id),
        )
        conn.execute(  # a create sent to the forge whose answer never came
            "INSERT INTO issue_sync_pending (block_id, link_id, kind, snapshot) VALUES "
            "(gen_random_uuid(), %s, 'issue', '{\"title\": \"half-sent\"}')",
            (link_id,),
        )
        for hours, resolution in ((2, "local"), (1, None)):  # one resolved, one open
            conn.execute(
                "INSERT INTO issue_sync_conflicts (link_id, block_id, kind, scope, number, "
                "fields, local, remote, created_at, resolved_at, resolution) VALUES (%s, %s, "
                "'issue', 'team', 1, '{title}', '{}', '{}', now() - make_interval(hours => %s), "
                "CASE WHEN %s::text IS NULL THEN NULL ELSE now() END, %s)",
                (link_id, issue, hours, resolution, resolution),
            )
    review = {l["link_type"]: l["id"] for l in links}  # noqa: E741
    _ok(client.post(f"/api/dream/links/{review['causal']}", json={"action": "confirm"}, headers=h))
    _ok(client.post(f"/api/dream/links/{review['topical']}", json={"action": "delete"}, headers=h))


def _export(client: Any, token: str, admin: bool = False) -> list[dict[str, Any]]:
    params = {"blobs": "true", **({"admin": "true"} if admin else {})}
    r = client.get("/api/export", params=params, headers=_h(token))
    assert r.status_code == 200, r.text
    lines = [json.loads(line) for line in r.text.splitlines()]
    return [{k: v for k, v in line.items() if k != "exported_at"} for line in lines]


def _admin_kinds(app: App) -> set[str]:
    return {r.kind for s in app.transfer_sections if s.admin for r in s.records}


def _counts(app: App, tables: set[str]) -> dict[str, int]:
    with app.connection() as conn:
        return {
            t: conn.execute(f'SELECT count(*) AS n FROM "{t}"').fetchone()["n"]
            for t in sorted(tables)
        }


def test_a_store_exported_and_imported_into_a_fresh_one_is_the_same_store(
    app: App, client: Any, other_app: App, other_client: Any
) -> None:
    token = _admin(app)
    _fill(app, client, token)
    before = _export(client, token)
    kinds = {line["type"] for line in before}
    assert kinds >= {"block", "guard", "link", "blob", "thread", "thread_event", "thread_pin",
                     "issue_number", "issue_history", "forge_link", "sync_base",
                     "sync_conflict", "block_version",
                     "eval_mark"}  # fmt: skip
    assert any(line["desk"] for line in before if line["type"] == "thread")
    decided = [g["status"] for g in before if g["type"] == "guard"]
    assert {"reviewed", "needs_review", "clean"} <= set(decided)

    there = _admin(other_app)
    report = _ok(other_client.post("/api/import", json={"records": before}, headers=_h(there)))
    assert report["skipped"] == []
    _settle(other_app)
    after = _export(other_client, there)
    assert after == before

    with app.connection() as conn:
        tables = {r["tablename"] for r in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}  # fmt: skip
    carried = set(BLOCK_TABLES) | {
        t for s in app.transfer_sections if not s.admin for t in s.tables
    }
    server = {t for s in app.transfer_sections if s.admin for t in s.tables}
    assert tables - carried - server - set(NOT_CARRIED) == set(), (
        "tables neither exported nor excused"
    )
    assert (carried | server) & set(NOT_CARRIED) == set()
    assert carried & server == set()
    assert not kinds & _admin_kinds(app), "a scope export carries none of the server's rows"
    counts = _counts(app, carried)
    assert all(counts.values()), counts  # the store holds rows of every carried table
    assert _counts(other_app, carried) == counts

    # the imported store carries on where the first stopped
    h = _h(there)
    new = _ok(other_client.post("/api/issues", json={"title": "After the move"}, headers=h))
    assert new["number"] == 4
    assert _ok(other_client.get("/api/issues/4", headers=h))["title"] == "After the move"
    body = {"thread": THREAD, "event": {"role": "user", "content": "And now?"}}
    _ok(other_client.post("/api/governor/commit", json=body, headers=h))
    with other_app.connection() as conn:
        seqs = [r["seq"] for r in conn.execute("SELECT seq FROM context_thread_events ORDER BY 1")]
    assert seqs == [1, 2, 3, 4]
    flags = _ok(other_client.get("/api/guard", headers=h))
    assert flags == _ok(client.get("/api/guard", headers=_h(token)))
    assert "How our backups work" in [f["title"] for f in flags["flags"]]


# -- the admin export: the server itself ------------------------------------------------------------

SECRET = "sk-live-Backup-9f3c1e77aa"  # a backend's API key: never in an export in plain text


def _fill_server(app: App, client: Any, token: str) -> None:
    """The server's own rows, each through its own surface: settings (one naming a sealed
    secret), a changed block type, Guard thresholds, a backend with its sealed key, a tenant with
    a scope, a key and grants, and keys of every kind (revoked, not an admin)."""
    h = _h(token)
    _ok(client.put("/api/secrets/peer-key", json={"value": SECRET}, headers=h))
    _ok(client.put("/api/secrets/emb-key", json={"value": SECRET + "-emb"}, headers=h))
    backend = {"name": "peer", "kind": "openai", "base_url": "http://127.0.0.1:9/v1",
               "roles": ["synthesis"], "model_map": {"default": "qwen"},
               "trust": "full-trust", "priority": 70, "secret": "peer-key"}  # fmt: skip
    _ok(client.post("/api/backends", json=backend, headers=h))
    plain = {"name": "plain", "kind": "openai", "base_url": "http://127.0.0.1:9/v1",
             "roles": ["rerank"], "model_map": {"rerank": "bge"}, "enabled": False}  # fmt: skip
    _ok(client.post("/api/backends", json=plain, headers=h))
    _ok(client.put("/api/settings/search.default_limit", json={"value": 7}, headers=h))
    _ok(client.put("/api/settings/embed.api_key", json={"value": "secret:emb-key"}, headers=h))
    change = {"retrieval_policy": "damped", "retrieval_factor": 0.4, "max_content_chars": 5000}
    _ok(client.patch("/api/types/reference", json=change, headers=h))
    _ok(client.post("/api/tenants", json={"name": "acme", "display_name": "Acme"}, headers=h))
    _ok(client.post("/api/tenants/acme/scopes", json={"scope": "acme-notes"}, headers=h))
    _ok(client.post("/api/tenants/acme/keys", json={"name": "acme-bot",
                                                    "home_scope": "acme-notes"}, headers=h))  # fmt: skip
    _ok(client.post("/api/tenants/acme/grants", json={"scope": "team"}, headers=h))
    note = {"title": "Shared note", "content": "Acme may read this one.", "category": "ops"}
    block = _ok(client.post("/api/store", json=note, headers=h))["id"]
    with app.connection() as conn:
        generation = active_generation(conn)["id"]
        guard.set_thresholds(conn, generation, 0.97, 0.9)
        guard.set_thresholds(conn, generation, 0.96, 0.88, block_type="knowledge")
    _ok(client.post("/api/tenants/acme/grants", json={"block_id": block}, headers=h))
    reader = _ok(client.post("/api/keys", json={"name": "reader", "home_scope": "team"},
                             headers=h))  # fmt: skip
    gone = _ok(client.post("/api/keys", json={"name": "old", "home_scope": "team"}, headers=h))
    _ok(client.delete(f"/api/keys/{gone['id']}", headers=h))
    assert reader["id"]
    _settle(app)


@pytest.fixture
def same_seal(app: App, tmp_path: Any) -> None:
    """The second server (``other_app``, home ``tmp_path/other``) gets the first one's seal key,
    as a moved server does when its operator carries the key along."""
    (tmp_path / "other").mkdir(exist_ok=True)
    text = base64.urlsafe_b64encode(app.seal_key).decode()
    (tmp_path / "other" / KEY_FILE).write_text(text + "\n")


def _without_key(lines: list[dict[str, Any]], key_id: str) -> list[dict[str, Any]]:
    """The lines without the key ``key_id`` (the importing server's own), its count taken off."""
    kept = [line for line in lines if not (line["type"] == "api_key" and line["id"] == key_id)]
    end = kept[-1]
    assert end["type"] == "end"
    counts = {**end["counts"], "api_key": end["counts"]["api_key"] - 1}
    return [*kept[:-1], {"type": "end", "counts": counts}]


def _key_id(app: App, token: str) -> str:
    with app.connection() as conn:
        return str(access.authenticate(conn, token).key_id)


def test_an_admin_export_moves_the_whole_server(
    app: App, client: Any, same_seal: None, other_app: App, other_client: Any
) -> None:
    token = _admin(app)
    _fill(app, client, token)
    _fill_server(app, client, token)
    before = _export(client, token, admin=True)
    kinds = [line["type"] for line in before]
    assert set(kinds) >= _admin_kinds(app) | {"block", "guard", "link", "issue_number"}
    # what the blocks rely on comes before them, what names them after
    first_block, last_block = kinds.index("block"), len(kinds) - kinds[::-1].index("block")
    assert set(kinds[1:first_block]) == {"tenant", "tenant_scope", "scope_grant", "secret",
                                         "block_type"}  # fmt: skip
    assert {"setting", "backend", "api_key", "block_grant"} <= set(kinds[last_block:])

    there = _admin(other_app)
    report = _ok(other_client.post("/api/import", json={"records": before}, headers=_h(there)))
    assert report["skipped"] == [] and report["notes"] == []
    _settle(other_app)
    after = _export(other_client, there, admin=True)
    assert _without_key(after, _key_id(other_app, there)) == before

    server = {t for s in app.transfer_sections if s.admin for t in s.tables}
    counts = _counts(app, server)
    assert all(counts.values()), counts  # the server holds rows of every carried table
    assert _counts(other_app, server) == {
        **counts,
        "context_api_keys": counts["context_api_keys"] + 1,
    }

    # the moved server works as the first did: the same tokens, settings, types and secrets
    assert _ok(other_client.get("/api/issues/1", headers=_h(token)))["title"]
    assert other_app.settings["search.default_limit"] == 7
    assert other_app.block_type("reference").retrieval_factor == pytest.approx(0.4)
    assert other_app.reveal_secret("peer-key") == SECRET
    assert other_app.reveal_secret("emb-key") == SECRET + "-emb"  # embed.api_key's, at restart
    revoked = [l for l in after if l["type"] == "api_key" and l["name"] == "old"]  # noqa: E741
    assert revoked[0]["revoked_at"] is not None

    # importing it again changes nothing, and the importing key stays as it was
    again = _ok(other_client.post("/api/import", json={"records": after}, headers=_h(there)))
    assert again["created"] == {} and again["updated"] == {}
    assert [s["type"] for s in again["skipped"]] == ["api_key"]
    assert "keeps its own" in again["skipped"][0]["reason"]


def test_secrets_leave_only_sealed(app: App, client: Any) -> None:
    token = _admin(app)
    _fill_server(app, client, token)
    r = client.get("/api/export", params={"admin": "true"}, headers=_h(token))
    assert r.status_code == 200
    text = r.text
    for plain in (SECRET, SECRET + "-emb"):
        assert plain not in text
        assert base64.b64encode(plain.encode()).decode()[:16] not in text
    sealed = [json.loads(line) for line in text.splitlines() if '"type": "secret"' in line]
    assert sorted(s["name"] for s in sealed) == ["emb-key", "peer-key"]
    assert {s["key_id"] for s in sealed} == {key_id(app.seal_key)}
    keys = [json.loads(line) for line in text.splitlines() if '"type": "api_key"' in line]
    assert keys and all(set(k) >= {"key_hash", "tenant", "is_admin"} for k in keys)
    assert not any(token in line for line in text.splitlines())  # hashes, never the tokens


def test_only_an_admin_key_exports_or_imports_the_server(
    app: App, client: Any, keys: Any, other_app: App, other_client: Any
) -> None:
    token = _admin(app)
    _fill_server(app, client, token)
    member = keys.make("team")
    r = client.get("/api/export", params={"admin": "true"}, headers=_h(member))
    assert r.status_code == 403
    assert r.json()["error"] == "forbidden" and "admin key" in r.json()["message"]
    # a member's own export carries no server rows
    lines = _export(client, member)
    assert not {line["type"] for line in lines} & _admin_kinds(app)

    admin_file = _export(client, token, admin=True)
    with other_app.connection() as conn:
        _, there = access.create_key(conn, name="member", home_scope="team")
    before = _counts(other_app, {"context_settings", "context_backends", "context_secrets",
                                 "context_api_keys", "context_tenants"})  # fmt: skip
    r = other_client.post("/api/import", json={"records": admin_file}, headers=_h(there))
    assert r.status_code == 403, r.text
    assert "admin key" in r.text
    assert _counts(other_app, set(before)) == before  # nothing written


def test_a_server_with_another_seal_key_imports_backends_disabled(
    app: App, client: Any, other_app: App, other_client: Any
) -> None:
    """``other_app`` has a seal key of its own (its own home): the sealed secrets cannot be
    opened there, so they are skipped, the backend that used one arrives disabled and without
    it, the secret setting is skipped, and the answer says so for each."""
    token = _admin(app)
    _fill_server(app, client, token)
    assert key_id(app.seal_key) != key_id(other_app.seal_key)
    lines = _export(client, token, admin=True)
    there = _admin(other_app)
    report = _ok(other_client.post("/api/import", json={"records": lines}, headers=_h(there)))
    skipped = {(s["type"], s["ref"]): s["reason"] for s in report["skipped"]}
    assert set(skipped) == {("secret", "emb-key"), ("secret", "peer-key"),
                            ("setting", "embed.api_key")}  # fmt: skip
    assert "seal key" in skipped[("secret", "peer-key")]
    assert [(n["type"], n["ref"], n["outcome"]) for n in report["notes"]] == [
        ("backend", "peer", "created")
    ]
    assert "disabled" in report["notes"][0]["note"]
    h = _h(there)
    peer = _ok(other_client.get("/api/backends/peer", headers=h))
    assert (peer["enabled"], peer["secret"]) == (False, None)
    plain = _ok(other_client.get("/api/backends/plain", headers=h))
    assert (plain["enabled"], plain["roles"]) == (False, ["rerank"])
    assert other_app.settings["search.default_limit"] == 7
    with other_app.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM context_secrets").fetchone()["n"] == 0
    # again: nothing changes, and the answer still says why
    again = _ok(other_client.post("/api/import", json={"records": lines}, headers=h))
    assert again["created"] == {} and again["updated"] == {}
    assert len(again["skipped"]) == 3 and len(again["notes"]) == 1
