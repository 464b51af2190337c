"""Export and import: an exact round trip, idempotent imports, scope checks, clear refusals,
and the CLI against a live server."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from live import live_server

from ctx.core import App
from ctx.core.runtime import drain
from ctx.ui.cli import run

NOTES = [
    {"title": "Backup policy", "content": "Backups run nightly at 02:00 since 2026-03-01.",
     "category": "ops", "tags": ["backup", "ops"], "metadata": {"owner": "ana", "n": 3}},
    {"title": "Postgres upgrade", "content": "Upgrade to 18 planned for next quarter.",
     "category": "decisions", "block_type": "reference", "sensitivity": "personal",
     "occurred_at": "2026-04-02T10:00:00+00:00"},
    {"title": "Old runbook", "content": "Restart the box by hand.", "category": "ops"},
]  # fmt: skip


HEADER = {"type": "header", "format": "ctx-export", "version": 2}
HISTORY = {"type": "issue_history", "issue_id": "00000000-0000-4000-8000-000000000001",
           "scope": "team", "number": 1, "at": "2026-01-01T00:00:00Z", "actor": "ana",
           "kind": "teleported"}  # fmt: skip


def _h(token: str) -> dict[str, str]:
    return {"X-Context-Key": token}


def _export(client: Any, token: str, **params: Any) -> list[dict[str, Any]]:
    r = client.get("/api/export", params=params, headers=_h(token))
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in r.text.splitlines()]


def _filled(app: App, client: Any, token: str) -> list[str]:
    ids = []
    for note in NOTES:
        r = client.post("/api/store", json=note, headers=_h(token))
        assert r.status_code == 200, r.text
        ids.append(r.json()["id"])
    client.post("/api/manage", json={"action": "archive", "id": ids[2]}, headers=_h(token))
    with app.connection() as conn:
        conn.execute(
            "INSERT INTO context_links (source_id, target_id, link_type, confidence, origin, "
            "note) VALUES (%s, %s, 'causal', 0.8, 'user', 'why')",
            (ids[1], ids[0]),
        )
    drain(app, "temporal")
    return ids


def _without_time_of_export(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k != "exported_at"} for r in records]


def test_an_export_imported_again_is_the_same_store(app: App, client: Any, keys: Any) -> None:
    token = keys.make("team")
    ids = _filled(app, client, token)
    blob = client.post(
        "/api/blob/store", json={"title": "diagram.png", "data": "iVBORw0KGgo="},
        headers=_h(token),
    ).json()  # fmt: skip
    before = _export(client, token)
    kinds = [r["type"] for r in before]
    assert kinds == ["header", "block", "block", "block", "blob", "link", "end"]
    assert before[-1] == {"type": "end", "counts": {"block": 3, "blob": 1, "link": 1}}
    reference = next(r for r in before if r["type"] == "blob")
    assert reference["id"] == blob["id"] and reference["sha256"] == blob["sha256"]
    assert "data" not in reference
    backup = next(r for r in before if r["type"] == "block" and r["title"] == "Backup policy")
    assert backup["anchors"] and backup["metadata"] == {"owner": "ana", "n": 3}
    with app.connection() as conn:
        conn.execute("DELETE FROM context_blocks WHERE scope = 'team'")
    r = client.post("/api/import", json={"records": before}, headers=_h(token))
    assert r.status_code == 200, r.text
    assert r.json() == {"created": {"block": 3, "link": 1}, "updated": {},
                        "unchanged": {"blob": 1}, "skipped": [], "notes": []}  # fmt: skip
    drain(app, "temporal")
    after = _export(client, token)
    assert _without_time_of_export(after) == _without_time_of_export(before)
    assert {r["id"] for r in after if r["type"] == "block"} == set(ids)
    drain(app, "embed")
    with app.connection() as conn:
        embedded = conn.execute(
            "SELECT count(*) AS n FROM context_block_embeddings WHERE block_id = ANY(%s::uuid[])",
            (ids,),
        ).fetchone()["n"]
    assert embedded == 3  # embeddings are rebuilt, not carried
    with app.connection() as conn:
        conn.execute("DELETE FROM context_blobs")
    missing = client.post("/api/import", json={"records": before}, headers=_h(token)).json()
    assert missing["skipped"] == [
        {"type": "blob", "ref": blob["id"], "reason": "its bytes are not in this export: "
         "export with --blobs, or put the file with `ctx blob put`"}
    ]  # fmt: skip


def test_importing_twice_changes_nothing_and_an_edit_comes_back(
    app: App, client: Any, keys: Any
) -> None:
    token = keys.make("team")
    _filled(app, client, token)
    records = _export(client, token)
    again = client.post("/api/import", json={"records": records}, headers=_h(token)).json()
    assert again["unchanged"] == {"block": 3, "link": 1}
    assert again["created"] == again["updated"] == {}
    changed = [dict(r) for r in records]
    block = next(r for r in changed if r["type"] == "block")
    block["content"] = "Edited in the file."
    r = client.post("/api/import", json={"records": changed}, headers=_h(token)).json()
    assert r["updated"] == {"block": 1}
    got = client.post("/api/manage", json={"action": "get", "id": block["id"]}, headers=_h(token))
    assert got.json()["block"]["content"] == "Edited in the file."


def test_imports_are_scope_checked(app: App, client: Any, keys: Any) -> None:
    team = keys.make("team")
    _filled(app, client, team)
    records = _export(client, team)
    other = keys.make("other")
    r = client.post("/api/import", json={"records": records}, headers=_h(other))
    assert r.status_code == 403 and "home scope 'other'" in r.json()["message"]
    admin = keys.make("root", admin=True)
    with app.connection() as conn:
        conn.execute("DELETE FROM context_blocks WHERE scope = 'team'")
    r = client.post("/api/import", json={"records": records}, headers=_h(admin))
    assert r.status_code == 200 and r.json()["created"] == {"block": 3, "link": 1}
    refused = client.get("/api/export", params={"scope": "team"}, headers=_h(other))
    assert refused.status_code == 403


def test_a_clashing_title_or_an_id_of_another_scope_is_skipped_and_named(
    app: App, client: Any, keys: Any
) -> None:
    token = keys.make("team")
    _filled(app, client, token)
    records = _export(client, token)
    blocks = [r for r in records if r["type"] == "block"]
    clash = {**blocks[0], "id": "00000000-0000-4000-8000-000000000001"}
    moved = {**blocks[1], "scope": "elsewhere", "title": "Moved"}
    admin = keys.make("root", admin=True)
    end = {"type": "end", "counts": {"block": 2}}
    body = {"records": [records[0], clash, moved, end]}
    r = client.post("/api/import", json=body, headers=_h(admin)).json()
    reasons = {s["ref"]: s["reason"] for s in r["skipped"]}
    assert "same scope, category and title" in reasons[clash["id"]]
    assert "another scope" in reasons[moved["id"]]
    assert r["created"] == {}


def test_a_block_stored_before_empty_content_was_refused_is_skipped_and_named(
    app: App, client: Any, keys: Any
) -> None:
    """Empty content is refused on every path now; an export may still hold a block stored
    before. Its import skips it with the reason (it was a 500) and imports the rest."""
    token = keys.make("team")
    ids = _filled(app, client, token)
    with app.connection() as conn:
        conn.execute("UPDATE context_blocks SET content = '' WHERE id = %s", (ids[0],))
    records = _export(client, token)
    with app.connection() as conn:
        conn.execute("DELETE FROM context_blocks WHERE scope = 'team'")
    r = client.post("/api/import", json={"records": records}, headers=_h(token))
    assert r.status_code == 200, r.text
    assert r.json()["created"]["block"] == 2
    skipped = r.json()["skipped"]
    assert skipped[0] == {
        "type": "block",
        "ref": ids[0],
        "reason": "content must not be empty; ctx no longer stores such a block",
    }
    assert [(s["type"], s["reason"]) for s in skipped[1:]] == [
        ("link", f"block {ids[0]} is not here")  # its link
    ]


@pytest.mark.parametrize(
    ("records", "says"),
    [
        ([{"type": "header", "format": "ctx-export", "version": 99}], "version 99 is newer"),
        ([{"type": "header", "format": "ctx-export", "version": 1}, {"type": "note"}],
         "record 2: type must be"),
        ([{"type": "header", "format": "ctx-export", "version": 1},
          {"type": "link", "source_id": "x", "target_id": "y", "link_type": "causal",
           "confidence": 2, "created_at": "2026-01-01T00:00:00Z"}], "record 2 (link)"),
        ([HEADER, {"type": "end", "counts": {}}, {"type": "end", "counts": {}}],
         "record 3: nothing may follow the end line"),
        ([{"type": "end", "counts": {}}, HEADER], "record 1: a batch starts with its header"),
        ([HEADER, HISTORY, {"type": "end", "counts": {"issue_history": 1}}],
         "record 2 (issue_history): new row for relation \"issue_history\" violates check"),
    ],
)  # fmt: skip
def test_bad_files_are_refused_whole(
    app: App, client: Any, keys: Any, records: list[dict[str, Any]], says: str
) -> None:
    token = keys.make("team")
    r = client.post("/api/import", json={"records": records}, headers=_h(token))
    assert r.status_code == 422 and says in r.json()["message"], r.text


def test_the_cli_exports_and_imports_a_file(
    app: App, client: Any, keys: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    token = keys.make("team")
    _filled(app, client, token)
    out = tmp_path / "team.jsonl"
    with live_server(app) as url:
        monkeypatch.setenv("CTX_URL", url)
        monkeypatch.setenv("CTX_API_KEY", token)
        assert run(["export", "-o", str(out)], app) == 0
        assert "exported 3 block, 1 link to" in capsys.readouterr().out
        with app.connection() as conn:
            conn.execute("DELETE FROM context_blocks WHERE scope = 'team'")
        assert run(["import", str(out)], app) == 0
        assert "created: 3 block, 1 link" in capsys.readouterr().out
        assert run(["import", str(out)], app) == 0
        assert "unchanged: 3 block, 1 link" in capsys.readouterr().out
        lines = out.read_text().splitlines(keepends=True)
        out.write_text("".join([*lines[:2], *lines[3:]]))  # a line lost in the middle
        assert run(["import", str(out)], app) == 2
        assert "lines are missing or extra" in capsys.readouterr().err
        out.write_text("".join(lines[:-1]))  # cut off the end line
        assert run(["import", str(out)], app) == 2
        assert "cut off" in capsys.readouterr().err


def test_the_cli_carries_blob_bytes_in_batches(
    app: App, client: Any, keys: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    token = keys.make("team")
    _filled(app, client, token)
    data = bytes(range(256)) * 4000  # 1 MB: its line is larger than a batch of the CLI
    stored = client.post(
        "/api/blob/store", json={"title": "dump.bin", "data": base64.b64encode(data).decode()},
        headers=_h(token),
    ).json()  # fmt: skip
    out = tmp_path / "team.jsonl"
    with live_server(app) as url:
        monkeypatch.setenv("CTX_URL", url)
        monkeypatch.setenv("CTX_API_KEY", token)
        assert run(["export", "--blobs", "-o", str(out)], app) == 0
        assert "1 blob" in capsys.readouterr().out
        with app.connection() as conn:
            conn.execute("DELETE FROM context_blocks WHERE scope = 'team'")
            conn.execute("DELETE FROM context_blobs WHERE scope = 'team'")
        assert run(["import", str(out)], app) == 0
        assert "created: 3 block, 1 blob, 1 link" in capsys.readouterr().out
    got = client.get(f"/api/blob/{stored['id']}/raw", headers=_h(token))
    assert got.status_code == 200 and got.content == data


def test_the_cli_admin_export_needs_an_admin_key_and_carries_the_server(
    app: App, client: Any, keys: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    member, admin = keys.make("team"), keys.make("team", admin=True)
    _filled(app, client, member)
    r = client.put("/api/settings/search.default_limit", json={"value": 9}, headers=_h(admin))
    assert r.status_code == 200, r.text
    out = tmp_path / "server.jsonl"
    with live_server(app) as url:
        monkeypatch.setenv("CTX_URL", url)
        monkeypatch.setenv("CTX_API_KEY", member)
        assert run(["export", "--admin", "-o", str(out)], app) == 2
        err = capsys.readouterr().err
        assert "admin export" in err and "admin key" in err and len(err.splitlines()) == 1
        assert not out.exists() or out.read_text() == ""
        monkeypatch.setenv("CTX_API_KEY", admin)
        assert run(["export", "--admin", "-o", str(out)], app) == 0
        said = capsys.readouterr().out
        assert "3 block" in said and "1 setting" in said and "api_key" in said
        lines = [json.loads(line) for line in out.read_text().splitlines()]
        assert lines[0]["admin"] is True
        assert {"key": "search.default_limit", "value": 9} in [
            {k: line[k] for k in ("key", "value")} for line in lines if line["type"] == "setting"
        ]
        monkeypatch.setenv("CTX_API_KEY", member)
        assert run(["import", str(out)], app) == 2
        assert "admin key" in capsys.readouterr().err
        monkeypatch.setenv("CTX_API_KEY", admin)
        assert run(["import", str(out)], app) == 0
        said = capsys.readouterr().out
        assert "unchanged:" in said and "1 setting" in said and "created" not in said


def test_a_batch_without_its_end_line_or_with_lines_missing_is_refused(
    app: App, client: Any, keys: Any
) -> None:
    token = keys.make("team")
    _filled(app, client, token)
    records = _export(client, token)
    cut = client.post("/api/import", json={"records": records[:-1]}, headers=_h(token))
    assert cut.status_code == 422 and "no end line" in cut.json()["message"], cut.text
    short = client.post(
        "/api/import", json={"records": [*records[:2], records[-1]]}, headers=_h(token)
    )
    assert short.status_code == 422, short.text
    assert "counts 3 block, 1 link, the batch holds 1 block" in short.json()["message"]
    with app.connection() as conn:
        conn.execute("DELETE FROM context_blocks WHERE scope = 'team'")
    for body in (records[:-1], [*records[:2], records[-1]]):
        client.post("/api/import", json={"records": body}, headers=_h(token))
    with app.connection() as conn:
        left = conn.execute("SELECT count(*) AS n FROM context_blocks").fetchone()["n"]
    assert left == 0  # nothing of a refused batch was written


def test_a_version_1_file_still_imports(app: App, client: Any, keys: Any) -> None:
    token = keys.make("team")
    _filled(app, client, token)
    records = _export(client, token)
    blocks = [r for r in records if r["type"] == "block"]
    link = next(r for r in records if r["type"] == "link")
    old_link = {k: link[k] for k in ("type", "source_id", "target_id", "link_type", "confidence",
                                     "origin", "status", "note", "created_at")}  # fmt: skip
    v1 = [{"type": "header", "format": "ctx-export", "version": 1, "scopes": ["team"]}, *blocks,
          old_link, {"type": "end", "blocks": 3, "links": 1, "blobs": 0}]  # fmt: skip
    with app.connection() as conn:
        conn.execute("DELETE FROM context_blocks WHERE scope = 'team'")
    r = client.post("/api/import", json={"records": v1}, headers=_h(token))
    assert r.status_code == 200, r.text
    assert r.json()["created"] == {"block": 3, "link": 1}


def test_imported_issues_move_the_counter_past_their_numbers(
    app: App, client: Any, keys: Any, other_app: App
) -> None:
    token = keys.make("team")
    for title in ("First", "Second", "Third"):
        r = client.post("/api/issues", json={"title": title}, headers=_h(token))
        assert r.status_code == 201, r.text
    records = [r for r in _export(client, token) if r["type"] != "issue_number"]
    records[-1] = {"type": "end", "counts": {"block": 3, "issue_history": 3}}
    assert [r["type"] for r in records[1:-1]].count("block") == 3
    with app.connection() as conn:  # a store that never saw these issues, not even their counter
        conn.execute("DELETE FROM context_blocks")
        conn.execute("DELETE FROM issue_numbers")
    r = client.post("/api/import", json={"records": records}, headers=_h(token))
    assert r.status_code == 200, r.text
    new = client.post("/api/issues", json={"title": "Fourth"}, headers=_h(token))
    assert new.status_code == 201 and new.json()["number"] == 4, new.text
    got = client.get("/api/issues/4", headers=_h(token))
    assert got.status_code == 200 and got.json()["title"] == "Fourth"


def test_a_governed_thread_is_imported_by_its_own_key(
    app: App, client: Any, keys: Any, other_app: App
) -> None:
    from fastapi.testclient import TestClient

    from ctx.core import access
    from ctx.ui import create_app

    token = keys.make("team")
    for role, text in (("user", "Where are the backups?"), ("assistant", "On db-2.")):
        body = {"thread": {"session_id": "exp-1"}, "event": {"role": role, "content": text}}
        r = client.post("/api/governor/commit", json=body, headers=_h(token))
        assert r.status_code == 200, r.text
    drain(app, "governor.index")
    records = _export(client, token)
    assert [r["type"] for r in records].count("thread_event") == 2
    with other_app.connection() as conn:
        _, there = access.create_key(conn, name="t", home_scope="team")
    with TestClient(create_app(other_app), raise_server_exceptions=False) as other:
        r = other.post("/api/import", json={"records": records}, headers=_h(there))
        assert r.status_code == 200, r.text
        assert r.json()["created"] == {"block": 2, "thread": 1, "thread_event": 2}
        drain(other_app, "temporal")  # the anchors, as on the first store
        assert _export(other, there)[1:] == records[1:]


def test_an_export_names_no_block_of_a_scope_it_does_not_hold(
    app: App, client: Any, keys: Any
) -> None:
    shared = keys.make("shared")
    team = keys.make("team", allowed=["shared"])
    backup = "The nightly Postgres backup runs at 02:00 on db-2 and keeps 14 days of WAL archives."
    paraphrase = "Every night at 02:00 db-2 backs up Postgres and keeps WAL archives for 14 days."
    body = {"title": "Backup", "content": backup, "category": "ops"}
    assert client.post("/api/store", json=body, headers=_h(shared)).status_code == 200
    body = {"title": "Our backups", "content": paraphrase, "category": "ops"}
    assert client.post("/api/store", json=body, headers=_h(team)).status_code == 200
    drain(app, "embed")
    drain(app, "guard")
    with app.connection() as conn:
        match = conn.execute(
            "SELECT m.match_id::text AS id FROM context_guard_matches m "
            "JOIN context_blocks b ON b.id = m.block_id WHERE b.scope = 'team'"
        ).fetchone()
    assert match is not None and match["id"] is not None  # the Guard matched across scopes
    lines = _export(client, team, scope="team")
    guard = next(line for line in lines if line["type"] == "guard")
    assert match["id"] not in json.dumps(lines)
    assert "match_id" not in guard and guard["decision"]
