from __future__ import annotations

from pathlib import Path

import pytest
from vault_kit import long_note, sample_vault

from ctx.plugins.ingest.chunks import split
from ctx.plugins.ingest.links import inline_tags, mask_code, parse_target, wikilinks
from ctx.plugins.ingest.notes import parse_note
from ctx.plugins.ingest.prepare import payload
from ctx.plugins.ingest.upload import batches
from ctx.plugins.ingest.vault import note_paths, read_note


def test_the_walk_skips_obsidian_dot_folders_and_node_modules(tmp_path: Path) -> None:
    root = sample_vault(tmp_path)
    found = [p.relative_to(root).as_posix() for p in note_paths(root)]
    assert found == sorted(found)
    assert "a/b/c/d/e/Deep.md" in found and "Archiv/Ideen.md" in found
    assert not [p for p in found if p.startswith((".", "node_modules"))]
    assert "diagram.png" not in found


def test_a_file_that_is_not_utf8_is_read_as_cp1252_and_reported(tmp_path: Path) -> None:
    root = sample_vault(tmp_path)
    note = read_note(root, root / "Latin1.md")
    assert "Café und Grüße" in note.text
    assert note.problem is not None and "not UTF-8" in note.problem


def test_front_matter_of_every_kind() -> None:
    note = parse_note(
        "x/Alpha.md",
        "---\ntitle: Alpha One\ntags: [a, '#b']\naliases: First, Second one\n"
        "date: 2024-03-05\nowner: {name: Ada, since: 2023-01-02}\ncount: 3\n---\nBody #c\n",
    )
    assert note.title == "Alpha One"
    assert note.tags == ["a", "b", "c"]
    assert note.aliases == ["First", "Second one"]
    assert note.occurred_at == "2024-03-05T00:00:00+00:00"
    assert note.frontmatter == {"owner": {"name": "Ada", "since": "2023-01-02"}, "count": 3}
    assert note.body == "Body #c\n" and note.problems == []


def test_front_matter_values_the_server_cannot_store_are_made_storable() -> None:
    """YAML escapes and numbers that break ctx's input rule would cost the whole batch a 422."""
    note = parse_note(
        "n.md",
        '---\ntitle: "Nul\\0 title"\n"k\\0ey": 1\nodd: "\\ud800x"\nrating: .inf\nlow: -.inf\n'
        "big: 18446744073709551616\nfine: 9223372036854775807\nratio: 0.5\n---\nbody",
    )
    assert note.title == "Nul title" and note.problems == []
    assert note.frontmatter == {
        "key": 1,
        "odd": "?x",
        "rating": None,
        "low": None,
        "big": "18446744073709551616",
        "fine": 9223372036854775807,
        "ratio": 0.5,
    }


@pytest.mark.parametrize(
    ("tags", "expected"),
    [
        ("tags: a, b c", ["a", "b", "c"]),
        ("tags:\n  - x\n  - y", ["x", "y"]),
        ("tag: solo", ["solo"]),
    ],
)
def test_tags_as_list_or_string(tags: str, expected: list[str]) -> None:
    assert parse_note("n.md", f"---\n{tags}\n---\ntext").tags == expected


def test_created_with_time_and_a_title_from_the_file_name() -> None:
    note = parse_note("Ordner/Übergabe.md", "---\ncreated: 2024-04-01T10:30:00+02:00\n---\nx")
    assert note.title == "Übergabe"
    assert note.occurred_at == "2024-04-01T10:30:00+02:00"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("---\ntitle: [unclosed\n---\nbody", "broken front matter"),
        ("---\ntitle: x\nno end", "no closing"),
        ("---\n- a list\n---\nbody", "not key: value"),
    ],
)
def test_broken_front_matter_is_reported_and_kept_as_text(text: str, says: str) -> None:
    note = parse_note("b.md", text)
    assert says in note.problems[0]
    assert note.body == text and note.title == "b"


def test_an_unreadable_date_is_reported_and_kept() -> None:
    note = parse_note("d.md", "---\ndate: next tuesday\n---\nx")
    assert note.occurred_at is None and note.frontmatter == {"date": "next tuesday"}
    assert "not a date" in note.problems[0]


def test_wikilinks_with_aliases_headings_embeds_and_code_left_out() -> None:
    text = (
        "[[Beta]] [[Gamma|shown]] [[Delta#Part 2]] [[#Local]] ![[Epsilon]] ![[pic.png]] "
        "[[doc.pdf]] [[Folder/Zeta.md|z]] [[Eta#^block]] `[[Code]]`\n```\n[[Fenced]]\n```\n"
    )
    links, attachments = wikilinks(mask_code(text))
    assert [link.raw for link in links] == [
        "Beta", "Gamma", "Delta#Part 2", "#Local", "Epsilon", "Folder/Zeta", "Eta",
    ]  # fmt: skip
    assert [link.embed for link in links][4] is True
    assert attachments == ["pic.png", "doc.pdf"]
    assert parse_target("A#B#C|x") == ("A", "C")


def test_inline_tags_skip_headings_urls_numbers_and_code() -> None:
    text = "# Heading\n#real and #nested/tag, http://x.org/#frag, #2024, `#code` #über"
    assert inline_tags(mask_code(text)) == ["real", "nested/tag", "über"]


def test_a_short_note_is_one_chunk() -> None:
    chunks = split("short [[A]]", 4000, 200)
    assert len(chunks) == 1 and chunks[0].content == "short [[A]]"


def test_a_long_note_splits_along_headings_with_overlap() -> None:
    body = parse_note("Runbook.md", long_note()).body
    chunks = split(body, 4000, 200)
    assert len(chunks) > 1 and all(len(c.content) <= 4000 + 202 for c in chunks)
    assert chunks[1].heading and chunks[1].heading.startswith("Step")
    assert chunks[1].content.startswith("words of step") or "Closing" in chunks[1].content[:200]
    assert "Alpha#Details" in [link.raw for c in chunks for link in c.links]
    headings = [h for c in chunks for h in c.headings]
    assert headings == [f"Step {i}" for i in range(1, 7)]


def test_a_heading_inside_code_is_no_split_point() -> None:
    fence = "```\n## not a heading\n" + "x\n" * 3000 + "```\n"
    chunks = split("## Real\n\n" + fence + "\n## Second\n\n" + "y " * 2000, 4000, 0)
    assert all(c.heading in ("Real", "Second") for c in chunks)


def test_a_paragraph_longer_than_the_limit_is_cut() -> None:
    chunks = split("z" * 9000, 4000, 0)
    assert [len(c.content) for c in chunks] == [4000, 4000, 1000]


def test_payload_and_batches(tmp_path: Path) -> None:
    root = sample_vault(tmp_path)
    note, problems = payload(read_note(root, root / "Alpha.md"), 4000, 200)
    assert note["path"] == "Alpha.md" and len(note["content_hash"]) == 64
    assert note["chunks"][0]["embeds"] == ["diagram.png"] and problems == []
    assert note["chunks"][0]["links"] == ["Beta", "Gamma", "Runbook#Step 2"]
    notes = [{"path": f"{i}.md", "text": "x" * 100} for i in range(5)]
    groups, too_large = batches(notes, 2)
    assert [len(g) for g in groups] == [2, 2, 1] and too_large == []
    groups, too_large = batches(notes, 10, max_bytes=300)
    assert [len(g) for g in groups] == [2, 2, 1]
    groups, too_large = batches(notes, 10, max_bytes=50)
    assert groups == [] and len(too_large) == 5


@pytest.mark.parametrize(
    "front",
    [
        "date: 2024-13-45",  # the YAML timestamp constructor raises ValueError, not YAMLError
        "a: &x [*x]",  # an alias to itself
        "a: &a [1,1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
        "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]",
    ],
)
def test_front_matter_that_breaks_the_loader_is_reported(front: str) -> None:
    note = parse_note("f.md", f"---\n{front}\n---\nbody")
    assert note.problems and note.problems[0].startswith("broken front matter")
    assert note.body.endswith("body") and note.frontmatter == {}
