from __future__ import annotations

import json
from typing import Any

import pytest
from vault_kit import blocks, wikilinks

from ctx.core import App


def note(path: str, text: str = "text", **fields: Any) -> dict[str, Any]:
    chunk = {"content": text, "links": fields.pop("links", [])}
    return {"path": path, "content_hash": "h" * 16, "title": path[:-3].rsplit("/")[-1]} | {
        "chunks": [chunk],
        **fields,
    }


class Ingest:
    def __init__(self, client: Any, token: str) -> None:
        self.client = client
        self.headers = {"X-Context-Key": token}

    def call(self, method: str, path: str, **kw: Any) -> Any:
        headers = {**self.headers, **kw.pop("headers", {})}
        return self.client.request(method, "/api/ingest" + path, headers=headers, **kw)

    def notes(self, vault: str, notes: list[dict[str, Any]]) -> dict[str, Any]:
        r = self.call("POST", "/notes", json={"vault": vault, "notes": notes})
        assert r.status_code == 200, r.text
        return dict(r.json())


@pytest.fixture
def alice(client: Any, keys: Any) -> Ingest:
    return Ingest(client, keys.make("home-a"))


def test_notes_state_links_and_finish(app: App, alice: Ingest) -> None:
    first = alice.notes(
        "v",
        [
            note("A.md", "to [[B]] and [[Folder/C#Two]]", links=["B", "Folder/C#Two"]),
            note("B.md", aliases=["Bee"]),
        ],
    )
    assert (first["created"], first["updated"], first["links"]) == (2, 0, 1)
    assert wikilinks(app, "home-a") == {("A.md", "B.md")}
    c = note("Folder/C.md", links=["Bee"])
    c["chunks"] = [
        {"content": "one", "heading": "One", "headings": ["One"], "links": ["Bee"]},
        {"content": "two", "heading": "Two", "headings": ["Two"]},
    ]
    alice.notes("v", [c])
    done = alice.call("POST", "/finish", json={"vault": "v", "paths": ["A.md", "Folder/C.md"]})
    assert done.status_code == 200, done.text
    assert done.json()["archived_notes"] == 1 and done.json()["links"] == 1
    assert wikilinks(app, "home-a") == {
        ("A.md", "B.md"),
        ("A.md", "Folder/C.md:2"),
        ("Folder/C.md", "B.md"),
    }
    state = alice.call("GET", "/state", params={"vault": "v"}).json()
    assert state["notes"] == {"A.md": "h" * 16, "Folder/C.md": "h" * 16}
    live = blocks(app, "home-a")
    assert {b["category"] for b in live} == {"obsidian/v"}
    assert [b["title"] for b in live] == ["A", "C: One (1/2) · Folder/C", "C: Two (2/2) · Folder/C"]
    meta = live[0]["metadata"]
    assert meta["source"] == "obsidian" and meta["vault"] == "v" and meta["path"] == "A.md"


def test_wikilinks_the_user_wrote_arrive_confirmed(app: App, alice: Ingest) -> None:
    """A wikilink is the user's own link: confirmed on ingest, never among the "topical links to
    confirm"; an edit that drops it still drops it, and a link rejected in review stays so."""
    alice.notes("v", [note("A.md", "to [[B]] and [[C]]", links=["B", "C"]), note("B.md"),
                      note("C.md")])  # fmt: skip
    stats = alice.client.get("/api/dream/stats", headers=alice.headers).json()
    assert stats["links"] == {"topical": {"confirmed": 2}}
    active = alice.client.get("/api/dream/links", params={"status": "active"},
                              headers=alice.headers).json()  # fmt: skip
    assert active["links"] == []
    to_c = next(link for link in alice.client.get("/api/dream/links", headers=alice.headers)
                .json()["links"] if link["target_title"] == "C")  # fmt: skip
    r = alice.client.post(f"/api/dream/links/{to_c['id']}", json={"action": "delete"},
                          headers=alice.headers)  # fmt: skip
    assert r.status_code == 200, r.text
    alice.notes("v", [note("A.md", "to [[C]] only", links=["C"])])  # [[B]] dropped by an edit
    with app.connection() as conn:
        rows = conn.execute(
            "SELECT t.title, l.status FROM context_links l "
            "JOIN context_blocks t ON t.id = l.target_id ORDER BY t.title"
        ).fetchall()
    assert [(r["title"], r["status"]) for r in rows] == [("C", "rejected")]


def test_an_edit_that_drops_a_chunk_archives_it(app: App, alice: Ingest) -> None:
    two = note("N.md")
    two["chunks"] = [{"content": "one"}, {"content": "two"}]
    alice.notes("v", [two])
    again = alice.notes("v", [note("N.md", "only one now")])
    assert (again["updated"], again["archived"]) == (1, 2)
    assert [b["title"] for b in blocks(app, "home-a")] == ["N"]


def test_one_bad_note_is_reported_and_the_others_are_stored(app: App, alice: Ingest) -> None:
    out = alice.notes(
        "v",
        [
            note("Good.md"),
            note("Year0.md", occurred_at="0001-01-01T00:00:00+14:00"),
            note("Blank.md", tags=[" "]),
        ],
    )
    assert out["created"] == 1
    assert [p["path"] for p in out["problems"]] == ["Year0.md", "Blank.md"]
    assert [b["metadata"]["path"] for b in blocks(app, "home-a")] == ["Good.md"]


def test_a_value_no_note_can_hold_refuses_the_batch(app: App, alice: Ingest) -> None:
    """NUL, NaN, infinity, a number past bigint: ctx's input rule, a 422 naming where it is,
    before any note is written (``ctx ingest`` cleans these from what it sends)."""
    cases = [
        (note("Bad.md", "nul \x00 here"), "notes[1].chunks[0].content"),
        (note("Bad.md", frontmatter={"n": float("nan")}), "notes[1].frontmatter.n"),
        (note("Bad.md", frontmatter={"n": float("inf")}), "notes[1].frontmatter.n"),
        (note("Bad.md", frontmatter={"n": 2**64}), "notes[1].frontmatter.n"),
    ]
    for bad, field in cases:
        body = json.dumps({"vault": "v", "notes": [note("Good.md"), bad]})  # NaN as JSON NaN
        r = alice.call("POST", "/notes", content=body, headers={"content-type": "application/json"})
        assert r.status_code == 422 and r.json()["field"] == field, r.text
    assert blocks(app, "home-a") == []


def test_a_key_of_another_scope_sees_nothing(client: Any, keys: Any, alice: Ingest) -> None:
    alice.notes("v", [note("A.md")])
    bob = Ingest(client, keys.make("home-b"))
    assert bob.call("GET", "/state", params={"vault": "v"}).json()["notes"] == {}
    done = bob.call("POST", "/finish", json={"vault": "v", "paths": []}).json()
    assert done["archived"] == 0
    assert alice.call("GET", "/state", params={"vault": "v"}).json()["count"] == 1


@pytest.mark.parametrize(
    ("method", "path", "kw", "field"),
    [
        ("GET", "/state", {"params": {"vault": "a/b"}}, "vault"),
        ("GET", "/state", {}, "vault"),
        ("POST", "/notes", {"json": {"vault": "v", "notes": []}}, "notes"),
        ("POST", "/notes", {"json": {"vault": "v", "notes": [note("x.txt")]}}, "notes.0.path"),
        ("POST", "/finish", {"json": {"vault": "", "paths": []}}, "vault"),
        ("POST", "/notes", {"json": {"vault": "v", "notes": [{"path": "a.md"}]}}, "notes.0"),
    ],
)
def test_bad_input_is_a_422_naming_the_field(
    alice: Ingest, method: str, path: str, kw: dict[str, Any], field: str
) -> None:
    r = alice.call(method, path, **kw)
    assert r.status_code == 422, r.text
    assert r.json()["field"].removeprefix("query.").startswith(field)


def test_no_key_is_a_401(client: Any) -> None:
    assert client.get("/api/ingest/state", params={"vault": "v"}).status_code == 401


def test_notes_of_one_name_in_two_folders_never_collide(app: App, alice: Ingest) -> None:
    out = alice.notes("v", [note("Ideas.md"), note("a/Ideas.md"), note("b/Ideas.md")])
    assert out["created"] == 3
    titles = {b["title"] for b in blocks(app, "home-a")}
    assert titles == {"Ideas · a/Ideas", "Ideas · b/Ideas", "Ideas"}
