from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from live import live_server
from vault_kit import blocks, image_pdf, pdf_bytes, write

from ctx.core import App
from ctx.plugins.ingest.doc_cli import check_file, max_file_bytes
from ctx.ui.cli import run


@pytest.fixture
def served(app: App, keys: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    with live_server(app) as url:
        monkeypatch.setenv("CTX_URL", url)
        monkeypatch.setenv("CTX_API_KEY", keys.make("docs"))
        yield app


def files(root: Path) -> list[Path]:
    return [
        write(root, "Bericht.pdf", pdf_bytes(["Erste Seite.", "Zweite Seite."], title="Bericht")),
        write(root, "Notiz.md", "# Notiz\n\nEin kurzer Text über Häuser.\n"),
        write(root, "Seite.html", "<title>Startseite</title><p>Willkommen</p>"),
        write(root, "brief.txt", "Grüße aus Köln".encode("cp1252")),
    ]


def json_run(app: App, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any, str]:
    capsys.readouterr()
    code = run(["ingest", *args, "--json"], app)
    out = capsys.readouterr()
    return code, json.loads(out.out), out.err


def test_files_are_stored_then_unchanged(
    served: App, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = [str(p) for p in files(tmp_path)]
    code, out, _ = json_run(
        served, capsys, *paths, "--category", "ablage", "--tag", "a", "--tag", "b"
    )
    assert code == 0 and out["failed"] == []
    assert [f["status"] for f in out["files"]] == ["stored"] * 4
    assert [f["title"] for f in out["files"]] == ["Bericht", "Notiz", "Startseite", "brief.txt"]
    live = blocks(served, "docs")
    assert len(live) == 4 and {b["category"] for b in live} == {"ablage"}
    assert all(b["tags"] == ["a", "b"] for b in live)
    pdf = next(b for b in live if b["metadata"]["filename"] == "Bericht.pdf")
    assert pdf["metadata"]["pages"] == [1, 2]

    code, out, _ = json_run(served, capsys, *paths, "--category", "ablage")
    assert code == 0 and [f["status"] for f in out["files"]] == ["unchanged"] * 4


def test_the_text_summary(served: App, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    note = write(tmp_path, "Notiz.md", "# Notiz\n\nText.\n")
    assert run(["ingest", str(note)], served) == 0
    assert f"{note}: stored (1 blocks in 'documents', archived 0)" in capsys.readouterr().out


def test_a_dry_run_shows_the_chunks_and_sends_nothing(
    served: App, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    long = (
        "# Handbuch\n\n"
        + "Einleitung. " * 100
        + "\n\n"
        + "".join(f"## Teil {i}\n\n" + "Satz. " * 500 + "\n\n" for i in (1, 2))
    )
    doc = write(tmp_path, "lang.md", long)
    pdf = write(tmp_path, "b.pdf", pdf_bytes(["eins", "zwei"]))
    code, out, _ = json_run(served, capsys, str(doc), str(pdf), "--dry-run")
    assert code == 0 and [f["status"] for f in out["files"]] == ["dry_run", "dry_run"]
    md, paged = out["files"]
    assert [c["heading"] for c in md["chunks"]] == ["Handbuch", "Teil 1", "Teil 2"]
    assert md["mime"] == "text/markdown" and len(md["sha256"]) == 64
    assert paged["chunks"][0]["page"] == 1
    assert blocks(served, "docs") == []

    capsys.readouterr()
    assert run(["ingest", str(doc), "--dry-run"], served) == 0
    text = capsys.readouterr().out
    assert f"dry run of {doc}: text/markdown, 3 chunks, title 'Handbuch'; nothing sent" in text
    assert "  2. [Teil 1] " in text


def test_bad_files_exit_2_and_the_others_are_still_sent(
    served: App, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write(tmp_path, "gut.txt", "gut")
    image = write(tmp_path, "bild.png", b"\x89PNG")
    missing = tmp_path / "fehlt.pdf"
    code, out, err = json_run(served, capsys, str(missing), str(image), str(good))
    assert code == 2
    assert [f["filename"] for f in out["files"]] == ["gut.txt"]
    lines = err.strip().splitlines()
    assert lines == [
        f"ctx: {missing}: no such file",
        f"ctx: {image}: unsupported document type '.png' (bild.png): ingest takes Markdown "
        "(.md, .markdown), text (.txt), HTML (.html, .htm) or PDF (.pdf); or give its mime",
    ]
    assert [b["metadata"]["filename"] for b in blocks(served, "docs")] == ["gut.txt"]


def test_a_file_the_server_refuses_exits_1(
    served: App, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scan = write(tmp_path, "scan.pdf", image_pdf())
    good = write(tmp_path, "gut.md", "gut")
    code, out, err = json_run(served, capsys, str(scan), str(good))
    assert code == 1 and len(out["files"]) == 1
    assert out["failed"][0]["path"] == str(scan)
    assert "no extractable text" in err and err.count("\n") == 1


def test_too_large_is_checked_before_sending(tmp_path: Path) -> None:
    limit = 200_000
    big = write(tmp_path, "gross.txt", b"x" * (max_file_bytes(limit) + 1))
    problem = check_file(big, limit)
    assert problem is not None and problem.startswith("too large (0.1 MB)")
    assert check_file(write(tmp_path, "klein.txt", b"x" * 1000), limit) is None
    assert max_file_bytes(10 * 1_048_576) > 7_800_000


def test_a_folder_and_files_together_exit_2(
    served: App, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    note = write(tmp_path / "v", "a.md", "x")
    assert run(["ingest", str(tmp_path / "v"), str(note)], served) == 2
    assert "not both" in capsys.readouterr().err


def test_the_run_says_what_is_left_for_embedding(
    served: App, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = [str(p) for p in files(tmp_path)]
    code, out, _ = json_run(served, capsys, *paths)
    assert code == 0 and out["embedding"] == {"waiting": 4, "per_s": None, "eta_s": None}
    note = write(tmp_path, "Zettel.md", "# Zettel\n\nNoch ein Text.\n")
    assert run(["ingest", str(note)], served) == 0
    out_text = capsys.readouterr().out
    assert "5 blocks waiting for embedding; nothing was embedded in the last minute" in out_text
