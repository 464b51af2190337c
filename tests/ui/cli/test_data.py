"""The data commands of ``ctx.ui.cli.data`` against a real server: what they refuse."""

from __future__ import annotations

from typing import Any

import pytest
from live import live_server

from ctx.core import App
from ctx.ui.cli import run


def test_save_refuses_empty_content_in_one_line_and_stores_nothing(
    app: App, keys: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with live_server(app) as url:
        monkeypatch.setenv("CTX_URL", url)
        monkeypatch.setenv("CTX_API_KEY", keys.make("alpha"))
        for content in ("", "   "):
            assert run(["save", "An empty note", content]) == 2
            err = capsys.readouterr().err
            assert err.count("\n") == 1 and "content" in err and "must not be empty" in err
    with app.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM context_blocks").fetchone()["n"] == 0
