"""Thin clients stay thin: a data command, an agent hook and the stdio relay run in a fresh
interpreter load nothing of the server (no App, web framework, MCP server stack, database driver
or model runtime), and every command module is either under the import contract that keeps it so
(pyproject.toml, ``thin-clients``) or a local command (``ctx.ui.cli.operator``).
"""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import typer

import ctx.ui.cli
from ctx.ui.cli.clicklib import Group
from ctx.ui.cli.root import build_cli, core_cli

ROOT = Path(__file__).resolve().parents[3]
CONTRACT = next(
    c
    for c in tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"][
        "contracts"
    ]
    if c["id"] == "thin-clients"
)
#: the modules of ctx.ui.cli that assemble the tree or serve local commands
NOT_THIN = {"root", "hooks", "__main__", "operator"}
NOWHERE = "http://127.0.0.1:9"  # nothing listens: a command fails fast with one line

RUN = """
import io, json, sys
sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[2].encode()))
from ctx.ui.cli.root import run
try:
    code = run(json.loads(sys.argv[1]))
except SystemExit as exc:
    code = exc.code
heavy = [m for m in json.loads(sys.argv[3]) if m in sys.modules]
print(json.dumps({"code": code, "heavy": heavy}))
"""


def _run(argv: list[str], stdin: str = "") -> dict[str, object]:
    env = {"CTX_URL": NOWHERE, "CTX_API_KEY": "ctx_nothing", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            RUN,
            json.dumps(argv),
            stdin,
            json.dumps(CONTRACT["forbidden_modules"]),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.parametrize(
    "argv",
    [
        ["stats"],
        ["save", "A title", "some content"],
        ["query", "what did we decide"],
        ["issues", "list"],
        ["recall", "--hook"],
        ["mcp", "serve", "--stdio"],
        ["--help"],
    ],
)
def test_a_thin_command_loads_no_server_code(argv: list[str]) -> None:
    stdin = json.dumps({"prompt": "what did we decide", "cwd": "/tmp"}) if "--hook" in argv else ""
    result = _run(argv, stdin)
    assert result["heavy"] == [], f"ctx {' '.join(argv)} loaded {result['heavy']}"


@pytest.mark.parametrize(
    "argv", [["brief", "--hook"], ["recall", "--hook"], ["persist", "--hook"], ["statusline"]]
)
def test_a_hook_as_installed_builds_no_command_tree(argv: list[str]) -> None:
    """As the installed hooks call them, the agent commands run without a command tree: typer
    coerces every parameter through pydantic, which cost a hook most of its start-up."""
    stdin = json.dumps({"prompt": "what did we decide", "cwd": "/tmp"})
    env = {"CTX_URL": NOWHERE, "CTX_API_KEY": "ctx_nothing", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", RUN, json.dumps(argv), stdin, json.dumps(["pydantic"])],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result == {"code": 0, "heavy": []}
    answer = done.stdout.strip().splitlines()[0]
    assert answer == "ctx: offline" if argv == ["statusline"] else json.loads(answer)["continue"]


def test_every_command_module_is_thin_or_local() -> None:
    thin = {
        m.removeprefix("ctx.ui.cli.")
        for m in CONTRACT["source_modules"]
        if m.startswith("ctx.ui.cli.")
    }
    modules = {info.name for info in pkgutil.iter_modules(ctx.ui.cli.__path__)}
    assert modules - NOT_THIN == thin, "list a new command module in the thin-clients contract"


def test_each_core_command_is_built_from_the_modules_that_add_it() -> None:
    """``ctx save`` builds its tree from ``ctx.ui.cli.data`` alone (``COMMAND_MODULES``): the map
    names, for every top-level command and group, exactly the modules that add it."""
    from ctx.ui.cli.root import COMMAND_MODULES, MODULES, _command_name, add_modules, root_typer

    def names(cli: typer.Typer) -> set[str]:
        return {_command_name(c) for c in [*cli.registered_commands, *cli.registered_groups]}

    added: dict[str, list[str]] = {}
    for module, group in MODULES:
        cli = root_typer()
        if group is not None:  # its commands go into a group another module makes
            makers = [m for m, g in MODULES if g is None and group in COMMAND_MODULES and
                      m in COMMAND_MODULES[group]]  # fmt: skip
            add_modules(cli, tuple(makers))
        before = names(cli)
        add_modules(cli, (module,))
        for name in names(cli) - before or ({group} if group else set()):
            added.setdefault(name, []).append(module)
    assert {n: tuple(ms) for n, ms in added.items()} == COMMAND_MODULES
    # and a command built alone is the command of the whole tree
    whole = typer.main.get_command(build_cli())
    alone = typer.main.get_command(core_cli("save"))
    assert isinstance(whole, Group) and isinstance(alone, Group)
    data = {n for n, ms in COMMAND_MODULES.items() if ms == ("ctx.ui.cli.data",)}
    assert set(alone.commands) == data and data < set(whole.commands)
    for name, command in alone.commands.items():
        assert [p.name for p in command.params] == [p.name for p in whole.commands[name].params]
