from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from typing import Any

import httpx
import pytest
from live import live_server
from vault_kit import blocks, german_vault, nfd, wikilinks, write

from ctx.core import App
from ctx.plugins.ingest.linking import Index, Row
from ctx.plugins.ingest.notes import parse_note
from ctx.plugins.ingest.vault import note_paths, read_note
from ctx.ui.cli import run


@pytest.fixture
def served(app: App, keys: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    token = keys.make("de")
    with live_server(app) as url:
        monkeypatch.setenv("CTX_URL", url)
        monkeypatch.setenv("CTX_API_KEY", token)
        yield app, url, token


def search(url: str, token: str, query: str) -> list[str]:
    r = httpx.post(url + "/api/search", json={"query": query}, headers={"X-Context-Key": token})
    assert r.status_code == 200, r.text
    return [hit["title"] for hit in r.json()["results"]]


def test_decomposed_file_names_are_read_as_composed(tmp_path: Path) -> None:
    root = german_vault(tmp_path / "Garten")
    on_disk = {p.relative_to(root).as_posix() for p in note_paths(root)}
    assert nfd("Müller.md") in on_disk or "Müller.md" in on_disk  # the file system may recompose
    notes = [read_note(root, p) for p in note_paths(root)]
    assert [n.path for n in notes] == ["Müller.md", "Ordner/Größe.md", "Straße.md", "Übersicht.md"]
    assert all(unicodedata.is_normalized("NFC", n.text) for n in notes)
    assert "[[Müller]]" in notes[1].text  # the decomposed link in the text is composed too


def test_german_front_matter_keys_are_custom_fields() -> None:
    root_text = (
        "---\ntitle: Übersicht\naliases: [Überblick]\nDatum: 2024-05-06\n"
        "Schlagwörter: [Stadt, Häuser]\n---\nText\n"
    )
    note = parse_note("Übersicht.md", root_text)
    assert note.title == "Übersicht" and note.aliases == ["Überblick"]
    assert note.frontmatter == {"Datum": "2024-05-06", "Schlagwörter": ["Stadt", "Häuser"]}
    assert note.occurred_at is None and note.problems == []


def row(
    path: str, title: str, aliases: tuple[str, ...] = (), headings: tuple[str, ...] = ()
) -> Row:
    return Row(
        id=path, path=path, title=title, aliases=aliases, chunk=1, headings=headings, links=()
    )


def test_links_find_notes_whatever_the_normalisation() -> None:
    # names stored decomposed (by an older client, or another tool) still match composed links
    stored = [
        row(nfd("Müller.md"), nfd("Müller")),
        row("Straße.md", "Straße", headings=(nfd("Öffnungszeiten"),)),
        row("Übersicht.md", "Übersicht", aliases=(nfd("Überblick"),)),
    ]
    index = Index(stored)
    source = stored[2]
    assert index.target("Müller", source) == nfd("Müller.md")
    assert index.target(nfd("müller"), source) == nfd("Müller.md")
    assert index.target("Straße#Öffnungszeiten", source) == "Straße.md"
    assert index.target("ÜBERBLICK", stored[0]) == "Übersicht.md"
    assert index.target("Strasse", source) is None  # ß is not ss: Obsidian does not fold it


def test_a_german_vault_end_to_end(
    served: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    app, url, token = served
    root = german_vault(tmp_path / "Garten")
    capsys.readouterr()
    assert run(["ingest", str(root), "--json"], app) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["created"], out["broken"]) == (4, [])

    live = {b["metadata"]["path"]: b for b in blocks(app, "de")}
    assert set(live) == {"Müller.md", "Ordner/Größe.md", "Straße.md", "Übersicht.md"}
    assert {b["title"] for b in live.values()} == {
        "Müller", "Größe · Ordner/Größe", "Straße", "Übersicht",
    }  # fmt: skip
    over = live["Übersicht.md"]
    assert over["metadata"]["aliases"] == ["Überblick", "Startseite"]
    assert over["metadata"]["frontmatter"] == {
        "Datum": "2024-05-06",
        "Schlagwörter": ["Stadt", "Häuser"],
    }
    assert over["tags"] == ["übersicht"] and over["occurred_at"] is None
    assert live["Straße.md"]["metadata"]["headings"] == ["Öffnungszeiten"]

    assert wikilinks(app, "de") == {
        ("Übersicht.md", "Straße.md"),  # [[Straße#Öffnungszeiten]]
        ("Übersicht.md", "Müller.md"),  # [[Müller]] to a file written decomposed
        ("Straße.md", "Übersicht.md"),  # [[Übersicht|Überblick]]
        ("Müller.md", "Straße.md"),
        ("Müller.md", "Übersicht.md"),  # [[Überblick]], the alias
        ("Ordner/Größe.md", "Müller.md"),  # a decomposed link in the text
    }

    # the German stemmer: "Häuser" is stored, "Haus" finds it (the English one would not)
    assert search(url, token, "Haus") == ["Übersicht"]
    assert "Straße" in search(url, token, "Straßen")

    # a second run changes nothing: the composed paths match what the server keeps
    write(root, nfd("Müller.md"), "Herr Müller zog in die [[Straße]].\n")
    capsys.readouterr()
    assert run(["ingest", str(root), "--json"], app) == 0
    again = json.loads(capsys.readouterr().out)
    assert (again["sent"], again["updated"], again["archived"]) == (1, 1, 0)
