"""The CLI root: plugin commands, duplicate names, exit codes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import typer

from ctx.core.cli.main import add_plugin_commands, build_cli, run
from ctx.core.errors import PluginError
from ctx.core.hookspecs import hookimpl
from ctx.core.plugins import create_plugin_manager


class Adds:
    def __init__(self, name: str) -> None:
        self.name = name

    @hookimpl
    def register_commands(self, cli: Any) -> None:
        def command() -> None:
            typer.echo("hi")

        cli.command(self.name)(command)


def manager(*plugins: tuple[str, object]) -> Any:
    pm = create_plugin_manager(builtins=[], load_entry_points=False)
    for name, plugin in plugins:
        pm.register(plugin, name=name)
    return pm


def test_a_plugin_command_is_added() -> None:
    cli = build_cli()
    add_plugin_commands(cli, manager(("greeter", Adds("greet"))))
    names = [c.name or c.callback.__name__ for c in cli.registered_commands if c.callback]
    assert "greet" in names


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
    cli = build_cli()
    with pytest.raises(PluginError) as err:
        add_plugin_commands(cli, manager(*plugins))
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
