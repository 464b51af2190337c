"""``ctx --help`` lists the core's and the built-in plugins' commands from an index
(``ctx.ui.cli.help_index``), so it loads no command module: the index must say what the full tree
would, and the help must read the same."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import typer

from ctx.core.runtime import PluginHost
from ctx.ui.cli import help_index
from ctx.ui.cli.clicklib import Group
from ctx.ui.cli.root import build_cli, listing, tidy_help

FULL_HELP = """
from pathlib import Path

import typer
from ctx.ui.cli.root import build_cli, tidy_help
command = typer.main.get_command(build_cli())
tidy_help(command)
command.main(args=["--help"], prog_name="ctx", standalone_mode=False)
"""

LOADED = """
import json, sys
from ctx.ui.cli.root import run
run(["--help"])
print(json.dumps(sorted(m for m in sys.modules if m.startswith(("ctx.ui.cli.", "ctx.plugins.")))))
"""


def _python(code: str, *args: str) -> str:
    env = {**os.environ, "COLUMNS": "100"}
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def derived() -> tuple[tuple[str, str, bool], ...]:
    """The index as the full tree (the core and the built-in plugins) says it."""
    command = typer.main.get_command(build_cli(PluginHost(load_entry_points=False, core=False)))
    assert isinstance(command, Group)
    tidy_help(command)
    return listing(command)


def write_index() -> None:
    """Rewrite ui/cli/help_index.py's list from the full tree."""
    path = Path(help_index.__file__).resolve()
    head = path.read_text().split("COMMANDS: ")[0]
    rows = "".join(f"    {row!r},\n" for row in derived())
    path.write_text(f"{head}COMMANDS: tuple[tuple[str, str, bool], ...] = (\n{rows})\n")
    # as `make lint` wants it (the rows above are one line each)
    subprocess.run([sys.executable, "-m", "ruff", "format", "-q", str(path)], check=False)


def test_the_index_lists_what_the_full_tree_has() -> None:
    assert derived() == help_index.COMMANDS, (
        "a command or its help changed: `.venv/bin/python tests/ui/cli/test_help_index.py` "
        "rewrites ctx.ui.cli.help_index from the full tree"
    )


def test_help_reads_as_the_full_tree_would_and_loads_no_command_module() -> None:
    fast = _python("from ctx.ui.cli.root import run; run(['--help'])")
    assert fast == _python(FULL_HELP)
    assert "save" in fast and "issues" in fast
    loaded = json.loads(_python(LOADED).strip().splitlines()[-1])
    assert loaded == ["ctx.ui.cli.clicklib", "ctx.ui.cli.help_index", "ctx.ui.cli.root"]


def test_ctx_alone_prints_the_help_once() -> None:
    alone = _python("from ctx.ui.cli.root import run; run([])")
    assert alone.count("Usage: ctx") == 1
    group = _python("from ctx.ui.cli.root import run; run(['keys'])")
    assert group.count("Usage: ctx keys") == 1


if __name__ == "__main__":
    write_index()
