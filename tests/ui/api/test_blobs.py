"""Blobs: stored and fetched byte for byte, replaced whole, streamed, checked, limited, scoped;
and ``ctx blob`` against a live server."""

from __future__ import annotations

import base64
import hashlib
import io
import os
from pathlib import Path
from typing import Any

import pytest
from live import live_server
from vault_kit import pdf_bytes

from ctx.core import App
from ctx.core.runtime import set_setting
from ctx.ui.cli import run


def _h(token: str) -> dict[str, str]:
    return {"X-Context-Key": token}


def _store(client: Any, token: str, data: bytes, **fields: Any) -> Any:
    body = {"title": "report.pdf", "data": base64.b64encode(data).decode(), **fields}
    return client.post("/api/blob/store", json=body, headers=_h(token))


def test_a_blob_comes_back_byte_for_byte(app: App, client: Any, keys: Any) -> None:
    token = keys.make("team")
    data = os.urandom(2_500_000)  # three chunks
    sha = hashlib.sha256(data).hexdigest()
    r = _store(client, token, data, mime_type="application/pdf", tags=["q1"], sha256=sha,
               filename="Q1 report.pdf", metadata={"quarter": 1})  # fmt: skip
    assert r.status_code == 200, r.text
    stored = r.json()
    assert stored["action"] == "created" and stored["size"] == len(data) and stored["sha256"] == sha
    got = client.post("/api/blob/fetch", json={"id": stored["id"]}, headers=_h(token)).json()
    assert base64.b64decode(got["data"]) == data
    assert got["mime_type"] == "application/pdf" and got["metadata"] == {"quarter": 1}
    meta = client.post(
        "/api/blob/fetch", json={"category": "files", "title": "report.pdf", "meta_only": True},
        headers=_h(token),
    ).json()  # fmt: skip
    assert "data" not in meta and meta["id"] == stored["id"]
    raw = client.get(f"/api/blob/{stored['id'][:8]}/raw", headers=_h(token))
    assert raw.status_code == 200 and raw.content == data
    assert raw.headers["content-type"] == "application/pdf"
    assert raw.headers["x-content-sha256"] == sha
    assert "Q1%20report.pdf" in raw.headers["content-disposition"]
    with app.connection() as conn:
        chunks = conn.execute(
            "SELECT count(*) AS n FROM context_blob_chunks WHERE blob_id = %s", (stored["id"],)
        ).fetchone()["n"]
    assert chunks == 3


def test_storing_the_same_title_replaces_the_bytes_whole(app: App, client: Any, keys: Any) -> None:
    token = keys.make("team")
    first = _store(client, token, b"x" * 3_000_000).json()
    second = _store(client, token, b"short").json()
    assert second["id"] == first["id"] and second["action"] == "updated"
    raw = client.get(f"/api/blob/{first['id']}/raw", headers=_h(token))
    assert raw.content == b"short"
    with app.connection() as conn:
        n = conn.execute("SELECT count(*) AS n FROM context_blob_chunks").fetchone()["n"]
    assert n == 1


def test_bad_blobs_get_clear_errors_and_nothing_is_stored(app: App, client: Any, keys: Any) -> None:
    token = keys.make("team")
    bad_sha = _store(client, token, b"abc", sha256="0" * 64)
    assert bad_sha.status_code == 422 and bad_sha.json()["field"] == "sha256"
    body = {"title": "t", "data": "not base64!"}
    assert client.post("/api/blob/store", json=body, headers=_h(token)).json()["field"] == "data"
    set_setting(app, "blob.max_bytes", 1000)
    too_big = _store(client, token, b"y" * 1001)
    assert too_big.status_code == 413 and "blob.max_bytes" in too_big.json()["message"]
    set_setting(app, "server.blob_body_limit", 2048)
    huge = _store(client, token, b"z" * 4000)
    assert huge.status_code == 413
    with app.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM context_blobs").fetchone()["n"] == 0


def _blob_state(app: App) -> list[Any]:
    with app.connection() as conn:
        return [
            conn.execute("SELECT * FROM context_blobs ORDER BY id").fetchall(),
            conn.execute(
                "SELECT blob_id, n, data FROM context_blob_chunks ORDER BY 1, 2"
            ).fetchall(),
            conn.execute("SELECT count(*) AS n FROM context_write_log").fetchone(),
        ]


def test_unstorable_values_are_a_422_naming_the_field(app: App, client: Any, keys: Any) -> None:
    """NUL, NaN and 1e400 (infinity) are refused by the input rule before any field is read, by
    every blob route, with the field named; nothing is written."""
    token = keys.make("team")
    assert _store(client, token, b"kept", title="kept").status_code == 200
    before = _blob_state(app)
    stored = '"title": "t", "data": "YQ=="'
    cases = [
        ("store", '{"title": "a\\u0000b", "data": "YQ=="}', "title", "NUL"),
        ("store", "{" + stored + ', "metadata": {"n": [1, NaN]}}', "metadata.n[1]", "finite"),
        ("store", "{" + stored + ', "metadata": {"n": 1e400}}', "metadata.n", "finite"),
        ("fetch", '{"category": "files", "title": "kept\\u0000"}', "title", "NUL"),
        ("fetch", '{"id": NaN}', "id", "finite"),
        ("fetch", '{"id": 1e400}', "id", "finite"),
        ("search", '{"tags": ["a\\u0000b"]}', "tags[0]", "NUL"),
        ("search", '{"limit": NaN}', "limit", "finite"),
        ("search", '{"limit": 1e400}', "limit", "finite"),
        ("manage", '{"action": "list", "scope": "team\\u0000"}', "scope", "NUL"),
        ("manage", '{"action": "list", "limit": NaN}', "limit", "finite"),
        ("manage", '{"action": "delete", "id": 1e400}', "id", "finite"),
    ]
    for route, raw, field, word in cases:
        r = client.post(f"/api/blob/{route}", content=raw.encode(),
                        headers={**_h(token), "content-type": "application/json"})  # fmt: skip
        assert r.status_code == 422, (route, raw, r.text)
        body = r.json()
        assert body["error"] == "invalid" and body["field"] == field, (route, raw, body)
        assert word in body["message"], (route, raw, body)
    assert _blob_state(app) == before


def test_blobs_follow_the_scope_rules_of_blocks(app: App, client: Any, keys: Any) -> None:
    team, other = keys.make("team"), keys.make("other")
    reader = keys.make("reader", ["team"])
    blob = _store(client, team, b"team secret", tags=["a", "b"], mime_type="text/plain").json()
    assert (
        client.post("/api/blob/fetch", json={"id": blob["id"]}, headers=_h(other)).status_code
        == 404
    )
    assert client.get(f"/api/blob/{blob['id']}/raw", headers=_h(other)).status_code == 404
    found = client.post("/api/blob/search", json={"tags": ["a"]}, headers=_h(other)).json()
    assert found["count"] == 0
    seen = client.post("/api/blob/search", json={"tags": ["a", "b"], "mime_type": "text/"},
                       headers=_h(reader)).json()  # fmt: skip
    assert [b["id"] for b in seen["blobs"]] == [blob["id"]]
    refused = client.post("/api/blob/manage", json={"action": "delete", "id": blob["id"]},
                          headers=_h(reader))  # fmt: skip
    assert refused.status_code == 403
    stats = client.post("/api/blob/manage", json={"action": "stats"}, headers=_h(reader)).json()
    assert stats["stats"] == {"blobs": 1, "bytes": 11, "by_scope": {"team": 1}}
    gone = client.post("/api/blob/manage", json={"action": "delete", "id": blob["id"]},
                       headers=_h(team))  # fmt: skip
    assert gone.json() == {"id": blob["id"], "action": "deleted"}


def test_the_write_rate_limit_answers_429_with_retry_after(
    app: App, client: Any, keys: Any
) -> None:
    token = keys.make("team")
    set_setting(app, "blob.writes_per_minute", 2)
    assert _store(client, token, b"1", title="a").status_code == 200
    assert _store(client, token, b"2", title="b").status_code == 200
    third = _store(client, token, b"3", title="c")
    assert third.status_code == 429 and third.json()["error"] == "rate_limited"
    assert 1 <= int(third.headers["retry-after"]) <= 60
    other = keys.make("other")
    assert _store(client, other, b"4", title="d").status_code == 200  # per key


def test_the_cli_puts_and_gets_files(
    app: App, keys: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    data = os.urandom(1_700_000)
    src = tmp_path / "photo.jpg"
    src.write_bytes(data)
    with live_server(app) as url:
        monkeypatch.setenv("CTX_URL", url)
        monkeypatch.setenv("CTX_API_KEY", keys.make("team"))
        monkeypatch.chdir(tmp_path)
        assert run(["blob", "put", str(src), "--tag", "trip"], app) == 0
        out = capsys.readouterr().out
        assert out.startswith("created ")
        blob_id = out.split()[1]
        assert run(["blob", "list", "--tag", "trip", "--json"], app) == 0
        assert '"mime_type": "image/jpeg"' in capsys.readouterr().out
        assert run(["blob", "get", blob_id[:8], "-o", "copy.jpg"], app) == 0
        assert (tmp_path / "copy.jpg").read_bytes() == data
        assert run(["blob", "delete", blob_id], app) == 0
        assert run(["blob", "get", blob_id], app) == 2
        assert "no such blob" in capsys.readouterr().err
        assert run(["blob", "put", str(tmp_path / "missing.bin")], app) == 2


def _image(kind: str) -> bytes:
    from PIL import Image  # fpdf2, which the ingest tests use, brings Pillow

    out = io.BytesIO()
    Image.new("RGB", (3, 2), (200, 30, 30)).save(out, format=kind)
    return out.getvalue()


def test_a_blob_stored_without_a_type_gets_the_type_its_bytes_start_with(
    client: Any, keys: Any
) -> None:
    token = keys.make("team")
    files = {
        "image/png": _image("PNG"),
        "image/jpeg": _image("JPEG"),
        "image/gif": _image("GIF"),
        "image/webp": _image("WEBP"),
        "application/pdf": pdf_bytes(["Seite eins"]),
        "text/plain": "Grüße aus Köln\nline two\n".encode(),
        "application/octet-stream": b"\x00\x01\x02binary\xff",
    }
    for expected, data in files.items():
        r = _store(client, token, data, title=f"no type {expected}")
        assert r.status_code == 200, r.text
        got = client.post("/api/blob/fetch", json={"id": r.json()["id"], "meta_only": True},
                          headers=_h(token)).json()  # fmt: skip
        assert got["mime_type"] == expected
        raw = client.get(f"/api/blob/{r.json()['id']}/raw", headers=_h(token))
        assert raw.content == data and raw.headers["content-type"].startswith(expected)
    found = client.post("/api/blob/search", json={"mime_type": "image/"}, headers=_h(token))
    assert len(found.json()["blobs"]) == 4
    given = _store(client, token, _image("PNG"), title="typed", mime_type="image/x-custom")
    assert given.status_code == 200  # a type given is kept as given
    kept = client.post("/api/blob/fetch", json={"id": given.json()["id"], "meta_only": True},
                       headers=_h(token)).json()  # fmt: skip
    assert kept["mime_type"] == "image/x-custom"


def test_the_cli_leaves_an_unguessable_name_to_the_bytes(
    app: App, keys: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    src = tmp_path / "screenshot"  # no extension: nothing to guess from
    src.write_bytes(_image("PNG"))
    with live_server(app) as url:
        monkeypatch.setenv("CTX_URL", url)
        monkeypatch.setenv("CTX_API_KEY", keys.make("team"))
        assert run(["blob", "put", str(src)], app) == 0
        capsys.readouterr()
        assert run(["blob", "list", "--json"], app) == 0
        assert '"mime_type": "image/png"' in capsys.readouterr().out
