"""The README's five-minute tour runs from start to finish against a real ctxd, line by line."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ctxd import clean_env, ctx, free_port, start_server, stop, wait_healthy

pytestmark = pytest.mark.slow  # scheduled first (tests/conftest.py)

README = Path(__file__).resolve().parents[1] / "README.md"


def tour_commands() -> list[str]:
    """The shell commands of the tour's code blocks (continuations joined, comments dropped)."""
    text = README.read_text(encoding="utf-8")
    tour = text.split("## Five-minute tour", 1)[1].split("\n## ", 1)[0]
    commands = []
    for block in re.findall(r"```sh\n(.*?)```", tour, flags=re.DOTALL):
        joined = re.sub(r"\\\n\s*", " ", block)
        for line in joined.splitlines():
            line = line.strip()
            if not line or line.startswith("#") or line.startswith(("source ", "export ")):
                continue
            commands.append(re.sub(r"\s+#[^'\"]*$", "", line))
    return commands


def test_the_tour_has_the_commands_it_should() -> None:
    commands = tour_commands()
    assert len(commands) > 20
    assert any(c.startswith("ctx query") and "--explain" in c for c in commands)
    assert any(c.startswith("curl ") for c in commands)


@pytest.mark.skipif(shutil.which("curl") is None, reason="the tour's HTTP part uses curl")
def test_every_tour_command_succeeds(tmp_path: Path, database_url: str) -> None:
    env = {**clean_env(tmp_path / "home"), "CTX_DATABASE_URL": database_url}
    env["CTX_SERVER_PORT"] = str(free_port())
    init = json.loads(ctx(env, "init", "--json").stdout)
    server = start_server(env)
    try:
        wait_healthy(init["url"], server)
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir()
        shim = bin_dir / "ctx"  # `ctx` on PATH: this interpreter's ctx
        shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m ctx.ui.cli "$@"\n')
        shim.chmod(0o755)
        user = {
            **env,
            "CTX_URL": init["url"],
            "CTX_API_KEY": init["api_key"],
            "PATH": f"{bin_dir}{os.pathsep}{env['PATH']}",
        }
        stored_prefix = None
        for command in tour_commands():
            if stored_prefix:
                command = command.replace("3f2a", stored_prefix)
            result = subprocess.run(
                ["bash", "-o", "pipefail", "-c", command],
                env=user,
                capture_output=True,
                text=True,
                timeout=180,
            )
            assert result.returncode == 0, f"{command}\n{result.stdout}\n{result.stderr}"
            assert "Traceback" not in result.stderr, command
            if command.startswith("ctx save") and stored_prefix is None:
                stored_prefix = result.stdout.split()[1][:8]  # "created <id> …"
            if command.startswith("curl "):
                body = json.loads(result.stdout)
                assert "error" not in body, (command, body)
    finally:
        assert stop(server) == 0
