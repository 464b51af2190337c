"""The root of the ``ctx`` command line; plugins add commands through ``register_commands``."""

from __future__ import annotations

import sys
from typing import Any

import typer

from ctx.core.errors import CtxError, PluginError


def build_cli() -> typer.Typer:
    from ctx.core.cli import admin, data, embed, serve
    from ctx.core.plugins import create_plugin_manager

    cli = typer.Typer(
        name="ctx",
        help="ctx: memory and knowledge layer for LLM agents.",
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        add_completion=False,
    )
    admin.register(cli)
    data.register(cli)
    cli.command()(serve.serve)
    cli.add_typer(embed.app, name="embed")
    cli.command()(embed.worker)
    from ctx.core.cli import temporal

    cli.add_typer(temporal.app, name="temporal", help="Deterministic temporal parsing.")
    add_plugin_commands(cli, create_plugin_manager())
    return cli


def _command_name(info: Any) -> str:
    if info.name:
        return str(info.name)
    return info.callback.__name__.replace("_", "-") if info.callback else ""


def add_plugin_commands(cli: typer.Typer, pm: Any) -> None:
    """Let each plugin add commands; a name that is already taken stops with both owners named."""
    owners = {_command_name(c): "ctx" for c in [*cli.registered_commands, *cli.registered_groups]}
    problems = []
    for impl in pm.hook.register_commands.get_hookimpls():
        commands, groups = len(cli.registered_commands), len(cli.registered_groups)
        impl.function(cli=cli)
        added = [*cli.registered_commands[commands:], *cli.registered_groups[groups:]]
        for name in map(_command_name, added):
            if name in owners:
                problems.append(
                    f"command {name!r} registered twice: by {owners[name]} and by "
                    f"{impl.plugin_name}"
                )
            else:
                owners[name] = impl.plugin_name
    if problems:
        raise PluginError("; ".join(problems))


def run(argv: list[str] | None = None) -> int:
    """Run the CLI and return its exit code: 2 with a one-line message for anything a user caused.

    Usage errors are click's (exit 2 with a usage hint); problems found while a command runs are
    ``CtxError``s, printed as one ``ctx: …`` line.
    """
    try:
        command = typer.main.get_command(build_cli())
        command.main(args=argv, prog_name="ctx", standalone_mode=True)
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except CtxError as exc:
        sys.stderr.write(f"ctx: {exc.message}\n")
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


def main() -> None:
    sys.exit(run(sys.argv[1:]))


def serve_main() -> None:
    """``ctxd``: the server alone, same options as ``ctx serve``."""
    sys.exit(run(["serve", *sys.argv[1:]]))


if __name__ == "__main__":
    main()
