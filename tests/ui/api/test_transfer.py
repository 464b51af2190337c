"""Export and import: an exact round trip, idempotent imports, scope checks, clear refusals,
and the CLI against a live server."""

from __future__ import annotations

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
    assert before[-1] == {"type": "end", "blocks": 3, "links": 1, "blobs": 1}
    reference = next(r for r in before if r["type"] == "blob")
    assert reference["id"] == blob["id"] and reference["sha256"] == blob["sha256"]
    assert "data" not in reference
    backup = next(r for r in before if r["type"] == "block" and r["title"] == "Backup policy")
    assert backup["anchors"] and backup["metadata"] == {"owner": "ana", "n": 3}
    with app.connection() as conn:
        conn.execute("DELETE FROM context_blocks WHERE scope = 'team'")
    r = client.post("/api/import", json={"records": before}, headers=_h(token))
    assert r.status_code == 200, r.text
    assert r.json() == {"blocks_created": 3, "blocks_updated": 0, "blocks_unchanged": 0,
                        "links_created": 1, "links_unchanged": 0, "blobs_present": 1,
                        "skipped": []}  # fmt: skip
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
        {"blob": blob["id"], "reason": "its bytes are not in an export: put the file with "
                                       "`ctx blob put`"}
    ]  # fmt: skip


def test_importing_twice_changes_nothing_and_an_edit_comes_back(
    app: App, client: Any, keys: Any
) -> None:
    token = keys.make("team")
    _filled(app, client, token)
    records = _export(client, token)
    again = client.post("/api/import", json={"records": records}, headers=_h(token)).json()
    assert again["blocks_unchanged"] == 3 and again["links_unchanged"] == 1
    assert again["blocks_created"] == again["blocks_updated"] == again["links_created"] == 0
    changed = [dict(r) for r in records]
    block = next(r for r in changed if r["type"] == "block")
    block["content"] = "Edited in the file."
    r = client.post("/api/import", json={"records": changed}, headers=_h(token)).json()
    assert r["blocks_updated"] == 1
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
    assert r.status_code == 200 and r.json()["blocks_created"] == 3
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
    body = {"records": [records[0], clash, moved, records[-1]]}
    r = client.post("/api/import", json=body, headers=_h(admin)).json()
    reasons = {s["id"]: s["reason"] for s in r["skipped"]}
    assert "same scope, category and title" in reasons[clash["id"]]
    assert "another scope" in reasons[moved["id"]]
    assert r["blocks_created"] == 0


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
    assert r.json()["blocks_created"] == 2
    skipped = r.json()["skipped"]
    assert skipped[0] == {
        "id": ids[0],
        "reason": "content must not be empty; ctx no longer stores such a block",
    }
    assert [s["reason"] for s in skipped[1:]] == ["one of its blocks is not here"]  # its link


@pytest.mark.parametrize(
    ("records", "says"),
    [
        ([{"type": "header", "format": "ctx-export", "version": 99}], "version 99 is newer"),
        ([{"type": "header", "format": "ctx-export", "version": 1}, {"type": "note"}],
         "record 2: type must be"),
        ([{"type": "header", "format": "ctx-export", "version": 1},
          {"type": "link", "source_id": "x", "target_id": "y", "link_type": "causal",
           "confidence": 2, "created_at": "2026-01-01T00:00:00Z"}], "record 2 (link)"),
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
        assert "exported 3 blocks and 1 links" in capsys.readouterr().out
        with app.connection() as conn:
            conn.execute("DELETE FROM context_blocks WHERE scope = 'team'")
        assert run(["import", str(out)], app) == 0
        assert "blocks created 3" in capsys.readouterr().out
        assert run(["import", str(out)], app) == 0
        assert "blocks unchanged 3" in capsys.readouterr().out
        out.write_text(out.read_text().rsplit("\n", 2)[0] + "\n")  # cut off the end line
        assert run(["import", str(out)], app) == 2
        assert "cut off" in capsys.readouterr().err
