from __future__ import annotations

import json
import re
import threading
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest
from live import live_server
from vault_kit import blocks, sample_vault, wikilinks, write

from ctx.core import App
from ctx.core.runtime import run_kind
from ctx.ui.cli import run


@pytest.fixture
def served(app: App, keys: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    with live_server(app) as url:
        monkeypatch.setenv("CTX_URL", url)
        monkeypatch.setenv("CTX_API_KEY", keys.make("notes"))
        yield app


def ingest(app: App, capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    capsys.readouterr()
    assert run(["ingest", *args, "--json"], app) == 0
    return dict(json.loads(capsys.readouterr().out))


def test_first_run_second_run_and_dry_run(
    served: App, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    vault = sample_vault(tmp_path / "Garden")
    dry = ingest(served, capsys, str(vault), "--dry-run")
    assert dry["dry_run"] is True and dry["notes"] == 10 and dry["chunks"] > 10
    assert blocks(served, "notes") == []

    first = ingest(served, capsys, str(vault), "--batch", "3", "--workers", "3")
    assert (first["created"], first["updated"], first["unchanged"]) == (10, 0, 0)
    broken = {b["path"]: b["problem"] for b in first["broken"]}
    assert set(broken) == {"Broken.md", "NoEnd.md", "Latin1.md"}
    assert "not UTF-8" in broken["Latin1.md"]
    live = blocks(served, "notes")
    assert {b["category"] for b in live} == {"obsidian/Garden"}
    paths = {b["metadata"]["path"] for b in live}
    assert "Ordner/Ideen.md" in paths and "Archiv/Ideen.md" in paths
    assert not [p for p in paths if p.startswith((".", "node_modules"))]
    runbook = [b for b in live if b["metadata"]["path"] == "Runbook.md"]
    assert len(runbook) > 1 and runbook[1]["metadata"]["chunks"] == len(runbook)
    alpha = next(b for b in live if b["metadata"]["path"] == "Alpha.md")
    assert alpha["metadata"]["frontmatter"]["owner"] == {"name": "Ada", "since": "2023-01-02"}
    assert alpha["metadata"]["embeds"] == ["diagram.png"]
    assert {"project", "english", "inline-tag"} <= set(alpha["tags"])
    assert alpha["occurred_at"] is not None
    broken_block = next(b for b in live if b["metadata"]["path"] == "Broken.md")
    assert "title: [unclosed" in broken_block["content"]

    links = wikilinks(served, "notes")
    step2 = next(
        f"Runbook.md:{b['metadata']['chunk']}"
        for b in runbook
        if "Step 2" in b["metadata"]["headings"]
    )
    expected = {
        ("Alpha.md", "Projekte/Beta.md"),  # [[Beta]] and ![[Beta]]
        ("Alpha.md", "Gamma.md"),  # [[Gamma|the third]]
        ("Alpha.md", step2),  # [[Runbook#Step 2]], resolved after Runbook was stored
        ("Projekte/Beta.md", "Alpha.md"),  # [[Alpha#Details]] and the alias [[First]]
        ("Projekte/Beta.md", "Ordner/Ideen.md"),  # a path, not the other Ideen.md
        ("Gamma.md", "Alpha.md"),  # [[alpha]], case-insensitive
        ("Ordner/Ideen.md", "Projekte/Beta.md"),
        ("Latin1.md", "Alpha.md"),
        ("a/b/c/d/e/Deep.md", "Gamma.md"),
    }
    assert expected <= links
    assert not [s for s, t in links if "Not a link" in t or "Also not" in t]
    assert first["links"] == len(links)

    (vault / "Gamma.md").write_text("Gamma now points to [[Deep]].\n", encoding="utf-8")
    (vault / "Ordner/Ideen.md").unlink()
    second = ingest(served, capsys, str(vault))
    assert (second["sent"], second["updated"], second["created"]) == (1, 1, 0)
    assert (second["unchanged"], second["archived"]) == (8, 1)
    archived = blocks(served, "notes", archived=True)
    assert [b["metadata"]["path"] for b in archived] == ["Ordner/Ideen.md"]
    links = wikilinks(served, "notes")
    assert ("Gamma.md", "a/b/c/d/e/Deep.md") in links
    assert ("Gamma.md", "Alpha.md") not in links

    third = ingest(served, capsys, str(vault))
    assert (third["sent"], third["archived"], third["links"]) == (0, 0, 0)


def test_another_scope_never_sees_the_vault(
    served: App, keys: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    vault = sample_vault(tmp_path / "v")
    ingest(served, capsys, str(vault), "--vault-name", "Shared")
    monkeypatch.setenv("CTX_API_KEY", keys.make("other"))
    out = ingest(served, capsys, str(vault), "--vault-name", "Shared", "--dry-run")
    assert out["notes"] == 10
    with served.connection() as conn:
        seen = conn.execute("SELECT count(*) AS n FROM context_blocks WHERE scope = 'other'")
        assert seen.fetchone()["n"] == 0
    write(vault, "Only.md", "x")
    other = ingest(served, capsys, str(vault), "--vault-name", "Shared")
    assert (other["created"], other["archived"]) == (11, 0)
    assert len({b["metadata"]["path"] for b in blocks(served, "notes")}) == 10


def test_the_text_summary_lists_broken_files(
    served: App, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    vault = sample_vault(tmp_path / "v")
    assert run(["ingest", str(vault)], served) == 0
    out = capsys.readouterr().out
    assert "created 10, updated 0, unchanged 0, archived 0" in out
    assert "broken files: 3" in out and "  Broken.md: broken front matter" in out


def test_seconds_are_the_time_the_user_waited(
    served: App, database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``seconds`` counts from the start of the command: here the question which notes changed
    waits behind a lock for a while before anything is sent, and the summary includes that wait
    (it used to count the sending alone, which ``sending_seconds`` still reports)."""
    vault = sample_vault(tmp_path / "v")
    held_s = 2.0
    with psycopg.connect(database_url) as locker:
        locker.execute("LOCK TABLE context_blocks IN ACCESS EXCLUSIVE MODE")
        running = threading.Thread(target=run, args=(["ingest", str(vault), "--json"], served))
        capsys.readouterr()
        running.start()
        for _ in range(3000):  # bounded: until the vault's state waits for the lock
            waiting = locker.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
            ).fetchone()
            if waiting and waiting[0]:
                break
            running.join(0.01)
        time.sleep(held_s)  # the user waits this long at least
    running.join(60)
    summary = json.loads(capsys.readouterr().out)
    assert summary["created"] == 10
    assert summary["seconds"] >= held_s + summary["sending_seconds"] - 0.01
    assert summary["notes_per_s"] > 10 / summary["seconds"]  # measured over the sending


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["ingest", "/no/such/folder"], "no vault folder"),
        (["ingest", ".", "--vault-name", "a/b"], "vault name"),
        (["ingest", ".", "--batch", "0"], "--batch"),
    ],
)
def test_bad_input_exits_2(
    served: App, capsys: pytest.CaptureFixture[str], args: list[str], says: str
) -> None:
    assert run(args, served) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


def test_the_summary_says_what_is_left_for_embedding(
    served: App, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No worker runs here: every block the run stored waits; once a worker got through some,
    the next run's line has the rate and the time left."""
    vault = sample_vault(tmp_path / "v")
    first = ingest(served, capsys, str(vault))
    stored = len(blocks(served, "notes"))
    assert first["embedding"] == {"waiting": stored, "per_s": None, "eta_s": None}

    assert run_kind(served, served.job_handlers["embed"], 4) == 4
    assert run(["ingest", str(vault)], served) == 0
    out = capsys.readouterr().out
    line = re.search(rf"; {stored - 4} blocks waiting for embedding at [\d.]+/s, about \d+", out)
    assert line, out
