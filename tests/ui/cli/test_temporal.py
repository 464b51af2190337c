"""``ctx temporal parse``: JSON output, stdin mode, human output and bad input."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ctx.ui.cli import run
from ctx.ui.cli.operator.temporal import app

runner = CliRunner()


def test_json_output_is_exactly_the_result_object() -> None:
    out = runner.invoke(app, ["parse", "am Dienstag", "--now", "2026-03-25", "--json"])
    assert out.exit_code == 0
    assert json.loads(out.stdout) == {
        "matched": True,
        "matcher": "de.weekday",
        "start": "2026-03-31",
        "end": "2026-03-31",
        "dates": ["2026-03-31"],
        "direction": "future",
        "weights": {"linear": 0.6, "weekday": 0.4},
    }


def test_no_match_is_still_valid_json() -> None:
    out = runner.invoke(app, ["parse", "configure the embedder", "--json"])
    assert out.exit_code == 0
    assert json.loads(out.stdout)["matched"] is False


@pytest.mark.parametrize(("lang", "matched"), [("en", True), ("de", False)])
def test_language_option(lang: str, matched: bool) -> None:
    out = runner.invoke(
        app, ["parse", "yesterday", "--now", "2026-03-25", "--lang", lang, "--json"]
    )
    assert json.loads(out.stdout)["matched"] is matched


def test_stdin_gives_one_object_per_line() -> None:
    out = runner.invoke(
        app,
        ["parse", "-", "--now", "2026-03-25", "--json"],
        input="gestern\nnothing here\n\nlast week\n",
    )
    assert out.exit_code == 0
    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["matched"] for r in rows] == [True, False, True]
    assert rows[0]["start"] == "2026-03-24"
    assert (rows[2]["start"], rows[2]["end"]) == ("2026-03-16", "2026-03-22")


def test_human_output_is_one_line_per_text() -> None:
    out = runner.invoke(app, ["parse", "last week", "--now", "2026-03-25"])
    assert out.exit_code == 0
    assert out.stdout.strip().splitlines() == [
        "'last week': 2026-03-16 .. 2026-03-22 [past] via en.relative_week; "
        "weights linear 0.70, week 0.30"
    ]
    miss = runner.invoke(app, ["parse", "what happened recently", "--now", "2026-03-25"])
    assert "no match (skipped: no translate backend)" in miss.stdout


@pytest.mark.parametrize("bad", ["2026-13-01", "yesterday", "25.03.2026"])
def test_bad_now_exits_2_with_one_line(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = run(["temporal", "parse", "heute", "--now", bad, "--json"])
    out = capsys.readouterr()
    assert code == 2
    assert out.out == ""
    assert out.err.startswith("ctx: ") and len(out.err.strip().splitlines()) == 1
    assert "YYYY-MM-DD" in out.err
