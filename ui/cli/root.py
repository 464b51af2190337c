"""The root of the ``ctx`` command line; plugins add commands through ``register_commands``.

The command tree is built from the command modules and the plugins' ``register_commands``, found
by a plugin host that loads no core capability: a command that talks to ctxd builds no App. A
local command builds it on first use (``operator.app.current_app``), or uses the one ``run`` was
given.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ctx.core.errors import CtxError, PluginError
from ctx.core.runtime import installed_version
from ctx.core.text import text_problem
from ctx.ui.cli.clicklib import (
    Abort,
    Argument,
    Context,
    Exit,
    Group,
    NoArgsIsHelpError,
    Option,
    UsageError,
)

if TYPE_CHECKING:
    from ctx.core.app import App
    from ctx.core.runtime import PluginHost


def build_cli(source: App | PluginHost | None = None) -> typer.Typer:
    """The whole command tree; plugin commands from ``source`` (an App's plugins, a plugin host,
    or by default the installed plugins, loaded without the core)."""
    from ctx.ui.cli import (
        agent_hooks,
        blob,
        data,
        digest,
        dream,
        governor,
        guard,
        server,
        stdio,
        tenants,
        transfer,
    )
    from ctx.ui.cli.operator import admin, backends, embed, mcp, secrets, temporal
    from ctx.ui.serve import serve

    cli = typer.Typer(
        name="ctx",
        help="ctx: memory and knowledge layer for LLM agents.",
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        add_completion=False,
    )
    cli.callback()(_root)
    admin.register(cli)
    server.register(cli)
    backends.register(cli)
    blob.register(cli)
    data.register(cli)
    digest.register(cli)
    dream.register(cli)
    embed.register(cli)
    governor.register(cli)
    guard.register(cli)
    agent_hooks.register(cli)
    mcp.register(cli)
    stdio.register(_group(cli, "mcp"))
    transfer.register(cli)
    secrets.register(cli)
    temporal.register(cli)
    tenants.register(cli)
    if source is None:
        source = command_host()
    host: PluginHost = source.host if hasattr(source, "host") else source
    add_plugin_commands(cli, host)
    cli.command()(serve)
    return cli


def _group(cli: typer.Typer, name: str) -> typer.Typer:
    """The sub-typer of group ``name``, for commands of two modules in one group."""
    found = next(g.typer_instance for g in cli.registered_groups if g.name == name)
    assert found is not None
    return found


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"ctx {version()}")
        raise typer.Exit()


def version() -> str:
    return installed_version()


def _root(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """ctx: memory and knowledge layer for LLM agents."""


def tidy_help(command: Any) -> None:
    """Help that reads like a man page: TITLE for arguments, TEXT/INTEGER for values, nothing for
    flags (typer's default shows ``{title}`` and ``<bool>``)."""
    names: dict[Any, str] = {str: "TEXT", int: "INTEGER", float: "NUMBER"}
    help_option = command.get_help_option(Context(command))
    if help_option is not None:
        help_option.metavar = ""
    for param in command.params:
        if isinstance(param, Argument):
            param.metavar = (param.name or "value").upper()
            # usage: TITLE [CONTENT], not typer's {TITLE} [CONTENT]
            shown = param.metavar if param.required else f"[{param.metavar}]"
            param._usage_display_name = lambda shown=shown: shown
            param.display_type_rich = lambda ctx: None  # the name column says it already
        elif isinstance(param, Option):
            if param.is_flag or param.count:
                param.metavar = ""
            elif param.metavar is None:
                annotation = getattr(getattr(param, "type_descriptor", None), "annotation", None)
                param.metavar = names.get(annotation)
    if isinstance(command, Group):
        for sub in command.commands.values():
            tidy_help(sub)


def _command_name(info: Any) -> str:
    if info.name:
        return str(info.name)
    return info.callback.__name__.replace("_", "-") if info.callback else ""


def command_host() -> PluginHost:
    """The built-in and installed plugins, without the core's capabilities (which add no
    commands): enough to build the command tree."""
    from ctx.core.runtime import PluginHost

    return PluginHost(core=False)


def add_plugin_commands(cli: typer.Typer, host: PluginHost) -> None:
    """Let each plugin add commands; a name that is already taken stops with both owners named."""
    owners = {_command_name(c): "ctx" for c in [*cli.registered_commands, *cli.registered_groups]}
    problems = []
    for plugin, call in host.each_plugin("register_commands"):
        commands, groups = len(cli.registered_commands), len(cli.registered_groups)
        call(cli=cli)
        added = [*cli.registered_commands[commands:], *cli.registered_groups[groups:]]
        for name in map(_command_name, added):
            if name in owners:
                problems.append(
                    f"command {name!r} registered twice: by {owners[name]} and by {plugin}"
                )
            else:
                owners[name] = plugin
    if problems:
        raise PluginError("; ".join(problems))


def run(argv: list[str] | None = None, app: App | None = None) -> int:
    """Run the CLI and return its exit code: 2 with a one-line message for anything a user caused.

    Usage errors are click's (exit 2 with a usage hint); problems found while a command runs are
    ``CtxError``s, printed as one ``ctx: …`` line.
    """
    from ctx.ui.cli.agent_hooks import AGENT_COMMANDS, agent_cli

    args = sys.argv[1:] if argv is None else argv
    if args == ["--version"]:  # answered without building the App and loading every plugin
        sys.stdout.write(f"ctx {version()}\n")
        return 0
    if args and args[0] in AGENT_COMMANDS and "--hook" in args:
        return run_as_hook(args, app)
    for arg in args:
        if text_problem(arg):
            sys.stderr.write(
                f"ctx: argument {arg.encode('utf-8', 'replace').decode()!r} is not valid UTF-8 "
                "text\n"
            )
            return 2
    try:
        if app is None and args and args[0] in AGENT_COMMANDS:
            # agent hooks run on every prompt: they need no plugins, and loading them is slow
            command = typer.main.get_command(agent_cli())
        else:
            command = typer.main.get_command(build_cli(app))
        tidy_help(command)
        result = command.main(args=args, prog_name="ctx", standalone_mode=False, obj=app)
    except NoArgsIsHelpError as exc:  # `ctx keys` alone: its help, as asked
        sys.stdout.write(exc.ctx.get_help() + "\n")
        return 0
    except UsageError as exc:
        where = exc.ctx.command_path if exc.ctx else "ctx"
        sys.stderr.write(f"ctx: {exc.format_message()} (see `{where} --help`)\n")
        return 2
    except Exit as exc:
        return int(exc.exit_code)
    except Abort:
        return 130
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    except CtxError as exc:
        sys.stderr.write(f"ctx: {exc.message}\n")
        return 2
    except KeyboardInterrupt:
        return 130
    return result if isinstance(result, int) else 0


def run_as_hook(args: list[str], app: App | None = None) -> int:
    """Run an agent command as a hook: whatever fails (an option this version does not know, an
    argument that is not text, a crash) prints the quiet answer and exits 0, since Claude Code
    reads exit 2 as "block" (a prompt erased, a stopping agent kept going)."""
    from ctx.ui.cli.agent_hooks import agent_cli, fail_quietly

    try:
        for arg in args:
            if text_problem(arg):
                shown = arg.encode("utf-8", "replace").decode()
                raise CtxError(f"argument {shown!r} is not valid UTF-8 text")
        command = typer.main.get_command(agent_cli())
        tidy_help(command)
        command.main(args=args, prog_name="ctx", standalone_mode=False, obj=app)
    except Exit as exc:
        if exc.exit_code != 0:
            fail_quietly(args[0], exc)
    except BaseException as exc:  # an interrupt too: the agent must not notice
        fail_quietly(args[0], exc)
    return 0


def main() -> None:
    sys.exit(run(sys.argv[1:]))
