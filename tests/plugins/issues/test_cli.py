from __future__ import annotations

from typing import Any

import pytest
from live import live_server

from ctx.core import App
from ctx.ui.cli import run


@pytest.fixture
def served(app: App, keys: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    with live_server(app) as url:
        monkeypatch.setenv("CTX_URL", url)
        monkeypatch.setenv("CTX_API_KEY", keys.make("repo-a"))
        yield app


def test_the_commands_round_trip(served: App, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        run(["issues", "create", "Broken link", "-b", "on the home page", "-l", "docs"], served)
        == 0
    )
    assert run(["issues", "comment", "1", "fixed upstream"], served) == 0
    assert run(["issues", "edit", "1", "--title", "Broken link in footer"], served) == 0
    assert run(["issues", "close", "1"], served) == 0
    assert run(["issues", "reopen", "1"], served) == 0
    capsys.readouterr()
    assert run(["issues", "list", "--state", "open"], served) == 0
    assert "Broken link in footer" in capsys.readouterr().out
    assert run(["issues", "list", "--state", "all"], served) == 0
    assert "Broken link in footer" in capsys.readouterr().out
    assert run(["issues", "show", "1"], served) == 0
    assert "fixed upstream" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["issues", "list", "--state", "done"], "state: must be one of open, closed or all"),
        (["issues", "close", "1", "--reason", "bored"], "--reason must be"),
        (["issues", "show", "9"], "no issue #9"),
        (["issues", "show", "0"], "NUMBER"),
        (["issues", "create", " "], "title"),
        (["issues", "edit", "1"], "nothing to change"),
    ],
)
def test_bad_input_exits_2(
    served: App, capsys: pytest.CaptureFixture[str], args: list[str], says: str
) -> None:
    assert run(args, served) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err
