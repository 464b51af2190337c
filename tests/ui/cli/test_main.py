"""The CLI root: plugin commands, duplicate names, exit codes."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from ctxd import clean_env, ctx

from ctx.core import App, PluginError, hookimpl
from ctx.ui.cli import build_cli, run
from ctx.ui.cli.root import tidy_help


class Adds:
    def __init__(self, name: str) -> None:
        self.name = name

    @hookimpl
    def register_commands(self, cli: Any) -> None:
        def command() -> None:
            typer.echo("hi")

        cli.command(self.name)(command)


def app_with(*plugins: tuple[str, object], builtins: tuple[str, ...] = ()) -> App:
    app = App(builtins=builtins, load_entry_points=False, environ={})
    for name, plugin in plugins:
        app.host.register(plugin, name)
    return app


def _names(cli: typer.Typer) -> list[str]:
    return [c.name or c.callback.__name__ for c in cli.registered_commands if c.callback]


def test_a_plugin_command_is_added() -> None:
    assert "greet" in _names(build_cli(app_with(("greeter", Adds("greet")))))


def test_serve_is_a_command_of_its_own_and_mcp_serve_joins_the_mcp_group() -> None:
    """The command line lives with the server it starts (``ctx.ui``): no plugin adds them."""
    cli = build_cli(app_with())
    assert "serve" in _names(cli)
    mcp = next(g.typer_instance for g in cli.registered_groups if g.name == "mcp")
    assert mcp is not None and "serve" in _names(mcp)


@pytest.mark.parametrize(
    ("plugins", "message"),
    [
        ([("clash", Adds("search"))], "'search' registered twice: by ctx and by clash"),
        ([("one", Adds("x")), ("two", Adds("x"))], "'x' registered twice: by one and by two"),
    ],
)
def test_duplicate_command_names_stop_with_both_owners(
    plugins: list[tuple[str, object]], message: str
) -> None:
    with pytest.raises(PluginError) as err:
        build_cli(app_with(*plugins))
    assert message in err.value.message


@pytest.mark.parametrize(
    ("argv", "code"),
    [(["no-such-command"], 2), (["keys", "create"], 2), (["--help"], 0)],
)
def test_exit_codes(argv: list[str], code: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(argv) == code
    out: Callable[[], Any] = capsys.readouterr
    captured = out()
    assert "Traceback" not in captured.err


def _cli(*args: str | bytes, stdin: bytes = b"") -> Any:
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("CTX_")}
    env.update(
        {"CTX_LOAD_PLUGINS": "", "CTX_API_KEY": "ctx_unused", "CTX_URL": "http://127.0.0.1:9"}
    )
    return subprocess.run(
        [
            sys.executable.encode(),
            b"-m",
            b"ctx.ui.cli",
            *[a.encode() if isinstance(a, str) else a for a in args],
        ],
        input=stdin,
        capture_output=True,
        env=env,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("args", "stdin", "says"),
    [
        (("save", "Latin1"), b"caf\xe9", b"standard input is not UTF-8 text"),
        (("save", b"caf\xe9", "content"), b"", b"is not valid UTF-8 text"),
        (("save", "Empty"), b"", b"standard input was empty"),
    ],
)
def test_bad_bytes_and_empty_stdin_exit_2_with_one_line(
    args: tuple[str | bytes, ...], stdin: bytes, says: bytes
) -> None:
    result = _cli(*args, stdin=stdin)
    assert result.returncode == 2
    assert says in result.stderr and b"Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_usage_errors_and_values_that_look_like_options(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    database_url: str,
    tmp_path: Any,
) -> None:
    monkeypatch.setenv("CTX_DATABASE_URL", database_url)
    monkeypatch.setenv("CTX_HOME", str(tmp_path))
    assert run(["keys", "create"]) == 2
    err = capsys.readouterr().err
    assert err == "ctx: Missing option '--home-scope'. (see `ctx keys create --help`)\n"
    # a negative number is a value, not an unknown option; the setting's own rule answers
    assert run(["settings", "set", "query.weight_dense", "-1"]) == 2
    err = capsys.readouterr().err
    assert err == "ctx: setting query.weight_dense: must be >= 0.0\n"


def test_help_reads_plainly_and_version_is_there(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["save", "--help"]) == 0
    out = capsys.readouterr().out
    assert "TITLE [CONTENT]" in out and "{" not in out.split("Usage:")[1].splitlines()[0]
    assert "<bool>" not in out and "<str>" not in out
    assert run(["--version"]) == 0
    assert capsys.readouterr().out.startswith("ctx 0.")


def _helps(command: Any, path: str = "ctx") -> Iterator[tuple[str, str]]:
    for text in (
        command.help,
        command.short_help,
        *(getattr(p, "help", None) for p in command.params),
    ):
        if text:
            yield path, text
    for name, sub in getattr(command, "commands", {}).items():
        yield from _helps(sub, f"{path} {name}")


def test_every_help_text_is_reflowed_in_paragraphs() -> None:
    """Docstrings are wrapped at 100 columns in the source: the help joins each paragraph's lines
    (core commands and the built-in plugins' alike) so the terminal's width decides."""
    command = typer.main.get_command(build_cli())
    before = [path for path, text in _helps(command) if re.search(r"[^\n]\n[^\n]", text)]
    assert "ctx query" in before and "ctx ingest" in before  # the check sees what it should
    tidy_help(command)
    assert [path for path, text in _helps(command) if re.search(r"[^\n]\n[^\n]", text)] == []
    rebuild = command.commands["embed"].commands["rebuild"].help
    assert rebuild.count("\n\n") == 1  # its two paragraphs stay two


@pytest.mark.parametrize("columns", [60, 200])
def test_help_wraps_at_the_terminal_width(columns: int, tmp_path: Path) -> None:
    env = {**clean_env(tmp_path), "COLUMNS": str(columns)}
    shown = ctx(env, "embed", "rebuild", "--help").stdout
    lines = shown.splitlines()
    assert max(map(len, lines)) <= columns
    first, second = (
        " ".join(p.split())
        for p in re.split(r"\n\s*\n", shown.split("Usage:", 1)[1].split("╭", 1)[0])[1:3]
    )
    assert first == (
        "Build a new generation in the background; queries use the old one until it is complete."
    )
    assert second == (
        "While waiting this process also does the work (a running ctxd's worker helps; jobs are "
        "claimed with SKIP LOCKED, so nothing is done twice)."
    )
    if columns == 200:  # room enough: each paragraph is one line, wherever the source broke it
        assert any(line.strip() == second for line in lines)
        listed = ctx(env, "--help").stdout
        assert any(
            "Is the server up (at CTX_URL, or this machine's server.host/server.port), and which "
            "version." in line
            for line in listed.splitlines()
        )
