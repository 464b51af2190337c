"""``ctx mark``, ``ctx marks``, ``ctx unmark`` and ``ctx eval`` against a real server."""

from __future__ import annotations

import json
from typing import Any

import pytest
from live import live_server

from ctx.core import App, Principal, StoreRequest, store_block
from ctx.ui.cli import run

QUESTION = "When does the nightly backup run?"


def test_marking_and_replaying_from_the_command_line(
    app: App, keys: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    owner = Principal(key_id="00000000-0000-4000-8000-0000000000a1", name="a", home_scope="alpha")
    note = StoreRequest(title="Backup plan", content="The nightly backup runs at 02:00 on db-2.")
    block = str(store_block(app, owner, note)["id"])
    with live_server(app) as url:
        monkeypatch.setenv("CTX_URL", url)
        monkeypatch.setenv("CTX_API_KEY", keys.make("alpha"))
        assert run(["mark", QUESTION, block[:8]]) == 0
        assert "answered the question in alpha" in capsys.readouterr().out
        assert run(["marks", "--json"]) == 0
        listed = json.loads(capsys.readouterr().out)
        assert [m["block_id"] for m in listed["marks"]] == [block]

        assert run(["eval", "--set", "query.rrf_k=60", "--json"]) == 0
        result = json.loads(capsys.readouterr().out)
        assert result["settings"] == {"query.rrf_k": 60}
        assert result["current"]["stages"]["returned"]["r@1"] == 1.0
        assert run(["eval", "--set", "query.rrf_k=60"]) == 0
        shown = capsys.readouterr().out
        assert "1 questions replayed" in shown and "current → candidate (query.rrf_k=60)" in shown
        assert "stage returned" in shown and "channel dense" in shown

        for bad, words in ((["--set", "query.rrf_k"], "no name=value"),
                           (["--set", "query.rrf_k=0"], "must be >= 1"),
                           (["--set", "guard.enabled=false"], "settings")):  # fmt: skip
            assert run(["eval", *bad]) == 2
            err = capsys.readouterr().err
            assert err.count("\n") == 1 and words in err

        assert run(["mark", QUESTION, block, "--no"]) == 0
        assert "not answered the question" in capsys.readouterr().out
        mark_id = listed["marks"][0]["id"]
        assert run(["unmark", str(mark_id)]) == 0
        assert f"mark {mark_id} removed" in capsys.readouterr().out
        assert run(["unmark", str(mark_id)]) == 2
        assert "no mark" in capsys.readouterr().err
