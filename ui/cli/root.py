"""The root of the ``ctx`` command line; plugins add commands through ``register_commands``.

The command tree is built from the command modules and the plugins' ``register_commands``, found
by a plugin host that loads no core capability: a command that talks to ctxd builds no App. A
local command builds it on first use (``operator.app.current_app``), or uses the one ``run`` was
given.
"""

from __future__ import annotations

import inspect
import re
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


#: The modules that add the core's commands, in the order they add them: ``(module, group)``;
#: a module with a group adds its commands to that group (made by an earlier module).
MODULES: tuple[tuple[str, str | None], ...] = (
    ("ctx.ui.cli.operator.admin", None),
    ("ctx.ui.cli.server", None),
    ("ctx.ui.cli.operator.backends", None),
    ("ctx.ui.cli.blob", None),
    ("ctx.ui.cli.data", None),
    ("ctx.ui.cli.digest", None),
    ("ctx.ui.cli.dream", None),
    ("ctx.ui.cli.evaluation", None),
    ("ctx.ui.cli.operator.embed", None),
    ("ctx.ui.cli.governor", None),
    ("ctx.ui.cli.guard", None),
    ("ctx.ui.cli.agent_hooks", None),
    ("ctx.ui.cli.operator.mcp", None),
    ("ctx.ui.cli.stdio", "mcp"),
    ("ctx.ui.cli.transfer", None),
    ("ctx.ui.cli.operator.secrets", None),
    ("ctx.ui.cli.operator.temporal", None),
    ("ctx.ui.cli.tenants", None),
    ("ctx.ui.serve", None),
)

#: Which of ``MODULES`` add each top-level command or group of the core. ``ctx save`` builds its
#: tree from ``ctx.ui.cli.data`` alone: no other command module, no plugin (a plugin cannot take
#: a core command's name). tests/ui/cli/test_thin.py keeps this in step with the modules.
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("init", "migrate", "doctor", "plugins", "keys", "settings", "types"),
                    ("ctx.ui.cli.operator.admin",)),
    "health": ("ctx.ui.cli.server",),
    **dict.fromkeys(("backends", "llmlog"), ("ctx.ui.cli.operator.backends",)),
    "blob": ("ctx.ui.cli.blob",),
    **dict.fromkeys(("save", "edit", "archive", "unarchive", "get", "history", "versions",
                     "delete", "search", "query", "stats", "categories", "list-meta"),
                    ("ctx.ui.cli.data",)),
    "digest": ("ctx.ui.cli.digest",),
    "dream": ("ctx.ui.cli.dream",),
    **dict.fromkeys(("mark", "marks", "unmark", "eval"), ("ctx.ui.cli.evaluation",)),
    **dict.fromkeys(("embed", "worker"), ("ctx.ui.cli.operator.embed",)),
    "governor": ("ctx.ui.cli.governor",),
    "guard": ("ctx.ui.cli.guard",),
    **dict.fromkeys(("brief", "recall", "persist", "statusline"), ("ctx.ui.cli.agent_hooks",)),
    "mcp": ("ctx.ui.cli.operator.mcp", "ctx.ui.cli.stdio"),
    **dict.fromkeys(("export", "import"), ("ctx.ui.cli.transfer",)),
    "secrets": ("ctx.ui.cli.operator.secrets",),
    "temporal": ("ctx.ui.cli.operator.temporal",),
    "tenants": ("ctx.ui.cli.tenants",),
    "serve": ("ctx.ui.serve",),
}  # fmt: skip


def root_typer() -> typer.Typer:
    """The root of the tree, without commands."""
    cli = typer.Typer(
        name="ctx",
        help="ctx: memory and knowledge layer for LLM agents.",
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        add_completion=False,
    )
    cli.callback()(_root)
    return cli


def add_modules(cli: typer.Typer, modules: tuple[str, ...] | None = None) -> None:
    """Let the command modules (all, or those named) add their commands to ``cli``."""
    import importlib

    for name, group in MODULES:
        if modules is not None and name not in modules:
            continue
        module = importlib.import_module(name)
        if name == "ctx.ui.serve":
            cli.command()(module.serve)
        else:
            module.register(_group(cli, group) if group else cli)


def build_cli(source: App | PluginHost | None = None) -> typer.Typer:
    """The whole command tree; plugin commands from ``source`` (an App's plugins, a plugin host,
    or by default the installed plugins, loaded without the core)."""
    cli = root_typer()
    add_modules(cli)
    if source is None:
        source = command_host()
    host: PluginHost = source.host if hasattr(source, "host") else source
    add_plugin_commands(cli, host)
    return cli


def core_cli(name: str) -> typer.Typer:
    """The tree of the core command ``name`` alone (see ``COMMAND_MODULES``)."""
    cli = root_typer()
    add_modules(cli, COMMAND_MODULES[name])
    return cli


def index_cli() -> typer.Typer:
    """The tree ``ctx --help`` lists: the core's and the built-in plugins' commands from
    ``ctx.ui.cli.help_index`` (nothing imported to learn them), then the commands of plugins
    installed from other distributions, added by the plugins themselves."""
    from ctx.ui.cli.help_index import COMMANDS

    cli = root_typer()
    for name, text, group in COMMANDS:
        if group:
            cli.add_typer(typer.Typer(), name=name, help=text)
        else:
            cli.command(name, help=text)(_listed)
    if installed_plugins():
        from ctx.core.runtime import PluginHost

        add_plugin_commands(cli, PluginHost(builtins=(), core=False))
    return cli


def _listed() -> None:
    """A command of the help list (``index_cli``); it never runs."""


def installed_plugins() -> list[Any]:
    """The entry points of plugins installed from other distributions."""
    import importlib.metadata

    from ctx.core.hookspecs import PROJECT

    return list(importlib.metadata.entry_points(group=PROJECT))


def listing(command: Group) -> tuple[tuple[str, str, bool], ...]:
    """Each top-level command of a built tree as ``ctx --help`` shows it (``help_index``)."""
    return tuple(
        (
            name,
            inspect.cleandoc(sub.short_help or sub.help or "").split("\n\n")[0],
            isinstance(sub, Group),
        )
        for name, sub in command.commands.items()
    )


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


def reflowed(text: str | None) -> str | None:
    """Help text as paragraphs: the source's line breaks inside a paragraph joined, so the help
    wraps at the terminal's width; blank lines stay paragraph breaks, and a paragraph marked
    ``\\b`` (click's "keep as written") is left alone."""
    if not text:
        return text
    paragraphs = re.split(r"\n\s*\n", inspect.cleandoc(text))
    return "\n\n".join(
        p if p.startswith("\b") else " ".join(line.strip() for line in p.splitlines())
        for p in paragraphs
    )


def tidy_help(command: Any) -> None:
    """Help that reads like a man page: TITLE for arguments, TEXT/INTEGER for values, nothing for
    flags (typer's default shows ``{title}`` and ``<bool>``); every command's text (core's and
    plugins' alike) reflowed to the terminal's width."""
    names: dict[Any, str] = {str: "TEXT", int: "INTEGER", float: "NUMBER"}
    command.help = reflowed(command.help)
    command.short_help = reflowed(command.short_help)
    help_option = command.get_help_option(Context(command))
    if help_option is not None:
        help_option.metavar = ""
    for param in command.params:
        param.help = reflowed(getattr(param, "help", None))
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
    args = sys.argv[1:] if argv is None else argv
    if args == ["--version"]:  # answered without building the App and loading every plugin
        sys.stdout.write(f"ctx {version()}\n")
        return 0
    # an agent command (its module alone adds it): imported only when one is asked for
    agent = bool(args) and COMMAND_MODULES.get(args[0]) == ("ctx.ui.cli.agent_hooks",)
    if agent and "--hook" in args:
        return run_as_hook(args, app)
    if agent and app is None and args == ["statusline"]:  # a status bar asks every few seconds
        from ctx.ui.cli.agent_hooks import statusline

        statusline()
        return 0
    for arg in args:
        if text_problem(arg):
            sys.stderr.write(
                f"ctx: argument {arg.encode('utf-8', 'replace').decode()!r} is not valid UTF-8 "
                "text\n"
            )
            return 2
    try:
        if app is None and agent:
            # agent hooks run on every prompt: they need no plugins, and loading them is slow
            from ctx.ui.cli.agent_hooks import agent_cli

            command = typer.main.get_command(agent_cli())
        elif app is None and args in ([], ["--help"]):
            # the list of commands: from the help index, not from every module and plugin
            command = typer.main.get_command(index_cli())
        elif app is None and args and args[0] in COMMAND_MODULES:
            # a core command needs its own module only: no other command, no plugin
            command = typer.main.get_command(core_cli(args[0]))
        else:
            command = typer.main.get_command(build_cli(app))
        tidy_help(command)
        result = command.main(args=args, prog_name="ctx", standalone_mode=False, obj=app)
    except NoArgsIsHelpError as exc:  # `ctx keys` alone: its help, as asked
        # click rendered the help into the message as it raised; typer's rich help printed
        # itself then (the message is empty): asking for it again printed it twice
        text = exc.format_message()
        if text:
            sys.stdout.write(text + "\n")
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
    from ctx.ui.cli.agent_hooks import agent_cli, direct, fail_quietly

    try:
        for arg in args:
            if text_problem(arg):
                shown = arg.encode("utf-8", "replace").decode()
                raise CtxError(f"argument {shown!r} is not valid UTF-8 text")
        call = direct(args) if app is None else None
        if call is not None:  # `ctx recall --hook`, as the installed hook calls it
            call()
            return 0
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
