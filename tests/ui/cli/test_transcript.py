"""Reading what the agent hooks get: payloads, Claude Code transcripts, PERSIST markers."""

from __future__ import annotations

import json
from pathlib import Path

from ctx.ui.cli.transcript import (
    MESSAGE_CHARS,
    Marked,
    last_assistant_text,
    persist_markers,
    project_of,
    read_payload,
)

DATA = Path(__file__).parent / "data"


def test_the_last_assistant_message_spans_its_lines_and_skips_the_rest() -> None:
    text = last_assistant_text(DATA / "transcript.jsonl")
    assert text.startswith("Found it: CI runs with `TZ=UTC`")  # thinking left out
    assert "Not this one" not in text  # an earlier message
    assert text.endswith("(Write markers as `[PERSIST:category:title]`.)")


def test_sidechain_lines_belong_to_subagents(tmp_path: Path) -> None:
    def line(sidechain: bool, mid: str, text: str) -> str:
        message = {"id": mid, "role": "assistant", "content": text}  # content as a plain string
        return json.dumps({"type": "assistant", "isSidechain": sidechain, "message": message})

    path = tmp_path / "t.jsonl"
    path.write_text("\n".join([line(False, "m1", "main"), line(True, "m2", "sub"), "{oops"]))
    assert last_assistant_text(path) == "main"
    assert last_assistant_text(path, sidechain=True) == "sub"
    assert last_assistant_text(path, sidechain=None) == "sub"
    (tmp_path / "empty.jsonl").write_text('{"type":"summary","summary":"x"}\n')
    assert last_assistant_text(tmp_path / "empty.jsonl") == ""


def test_markers_split_the_message_and_code_only_quotes_them() -> None:
    text = (
        "Done.\n[PERSIST:decisions:Use cents]\nMoney is integer cents.\n"
        "[PERSIST:notes:Empty]\n"
        "[PERSIST:runbooks:Deploy]\nRun `make ship`; never `[PERSIST:x:inline]`.\n"
        "```\n[PERSIST:x:fenced]\n```\n"
        "[PERSIST:decisions:Use cents]\nMoney is integer cents, always."
    )
    assert persist_markers(text) == [
        Marked("decisions", "Use cents", "Money is integer cents, always."),
        Marked(
            "runbooks",
            "Deploy",
            "Run `make ship`; never `[PERSIST:x:inline]`.\n```\n[PERSIST:x:fenced]\n```",
        ),
    ]
    assert persist_markers("no markers here") == []


def test_a_fence_ends_at_a_bare_fence_as_long_and_an_unclosed_one_is_no_code() -> None:
    code = (
        "````md\n[PERSIST:x:quoted]\n```\n[PERSIST:x:still quoted]\n`````\n"
        "  ~~~\n[PERSIST:x:tilde]\n```\n[PERSIST:x:not closed by backticks]\n~~~ \n"
    )
    unclosed = "```x\n```x"
    text = f"[PERSIST:decisions:First]\nOne.\n{code}{unclosed}\n[PERSIST:notes:After]\nTwo."
    assert persist_markers(text) == [
        Marked("decisions", "First", f"One.\n{code}{unclosed}"),
        Marked("notes", "After", "Two."),
    ]


def test_a_long_message_is_read_up_to_a_limit() -> None:
    [big] = persist_markers(
        "[PERSIST:notes:Big]\n" + "x" * MESSAGE_CHARS + "[PERSIST:notes:Far]\ny"
    )
    assert big.title == "Big" and len(big.content) < MESSAGE_CHARS


def test_payloads_and_projects(tmp_path: Path) -> None:
    assert read_payload('{"cwd": "/x"}') == {"cwd": "/x"}
    assert read_payload("not json") == read_payload("[1]") == read_payload("") == {}
    worktree = tmp_path / "shop-wt"
    (worktree / "src").mkdir(parents=True)
    (worktree / ".git").write_text("gitdir: /elsewhere/.git/worktrees/shop-wt\n")
    assert project_of(worktree / "src") == "shop-wt"
    assert project_of(tmp_path / "loose") == "loose"
