"""The example plugin in ``docs/examples`` works as a real, pip-installed third-party plugin.

The module installs it into the running environment (non-editable, so it is an ordinary installed
distribution with a ``ctx`` entry point) and uninstalls it at the end. Every check runs in a fresh
interpreter, because entry points are read when a process builds its plugin manager.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow  # scheduled first (tests/conftest.py)

ROOT = Path(__file__).resolve().parents[1]
PLUGIN_SOURCE = ROOT / "docs" / "examples" / "ctx-example-plugin"
DIST = "ctx-example-plugin"
ENTRY_POINT = "example"
HOOKS = ["register_block_types", "register_commands", "register_operations", "register_settings"]
TIMEOUT = 180

INFOS_SCRIPT = """
import json
from dataclasses import asdict
from ctx.core.runtime import PluginHost
print(json.dumps([asdict(info) for info in PluginHost().infos()]))
"""

APP_SCRIPT = """
import json, sys
from pathlib import Path
from ctx.core import App
app = App(database_url=sys.argv[1], home=Path(sys.argv[2]))
app.open()
try:
    spec = app.block_type("meeting-note")
    with app.connection() as conn:
        row = conn.execute(
            "SELECT source FROM context_block_types WHERE name = 'meeting-note'"
        ).fetchone()
    greeted = None
    if "example.greet" in app.operations:  # the declared operation, served as a derived route
        from fastapi.testclient import TestClient
        from ctx.core.access import create_key
        from ctx.ui import create_app
        with app.connection() as conn:
            _, token = create_key(conn, name="example", home_scope="example")
        with TestClient(create_app(app)) as client:
            answer = client.post("/api/example/greet", json={"name": "Ada"},
                                 headers={"X-Context-Key": token})
            refused = client.post("/api/example/greet", json={"name": "Ada", "x": 1},
                                  headers={"X-Context-Key": token})
        greeted = [answer.status_code, answer.json(), refused.status_code,
                   "example_greet" in app.tools]
    print(json.dumps({
        "greeted": greeted,
        "types": sorted(app.block_types),
        "meeting_note": vars(spec) if spec else None,
        "source": row["source"] if row else None,
        "greeting": app.settings["example.greeting"],
    }))
finally:
    app.close()
"""


def _pip(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pip", *args],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )


def _is_installed() -> bool:
    try:
        importlib.metadata.version(DIST)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    was_installed = _is_installed()
    # Build from a copy, so setuptools' build/ and *.egg-info never land in the repository.
    source = tmp_path_factory.mktemp("plugin") / PLUGIN_SOURCE.name
    shutil.copytree(
        PLUGIN_SOURCE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__")
    )
    install = ["install", "--no-deps", "--quiet", str(source)]
    # --no-build-isolation builds with the setuptools already installed, with no index needed.
    # setuptools < 70.1 also needs the `wheel` package for that; without it, let pip fetch the
    # build backend from its configured (possibly offline) index instead.
    result = _pip(*install[:2], "--no-build-isolation", *install[2:])
    if result.returncode != 0:
        first = result
        result = _pip(*install)
        if result.returncode != 0:
            pytest.fail(
                f"pip could not install {DIST}:\n{first.stdout}{first.stderr}\n"
                f"{result.stdout}{result.stderr}"
            )
    try:
        yield
    finally:
        if not was_installed:
            _pip("uninstall", "--yes", "--quiet", DIST)


def _run(args: list[str], tmp_path: Path, **env_extra: str) -> str:
    """Run ``python ARGS`` in a fresh interpreter with a clean ctx environment; return stdout."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CTX_")}
    env["CTX_HOME"] = str(tmp_path / "home")
    env.update(env_extra)
    result = subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,  # not the repository root, so only installed packages are importable
        timeout=TIMEOUT,
    )
    assert result.returncode == 0, f"{args} failed:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def _infos(tmp_path: Path, **env_extra: str) -> list[dict[str, Any]]:
    return json.loads(_run(["-c", INFOS_SCRIPT], tmp_path, **env_extra))


def _cli(tmp_path: Path, *args: str, **env_extra: str) -> str:
    return _run(["-m", "ctx.ui.cli", *args], tmp_path, **env_extra)


def _example(infos: list[dict[str, Any]]) -> dict[str, Any] | None:
    return next((info for info in infos if info["name"] == ENTRY_POINT), None)


@pytest.mark.usefixtures("installed")
def test_entry_point_is_loaded(tmp_path: Path) -> None:
    info = _example(_infos(tmp_path))
    assert info is not None, "the example plugin was not loaded through its entry point"
    assert info == {"name": ENTRY_POINT, "source": DIST, "version": "0.1.0", "hooks": HOOKS}


@pytest.mark.usefixtures("installed")
def test_load_plugins_limits_entry_points(tmp_path: Path) -> None:
    assert _example(_infos(tmp_path, CTX_LOAD_PLUGINS="")) is None
    assert _example(_infos(tmp_path, CTX_LOAD_PLUGINS="other")) is None
    assert _example(_infos(tmp_path, CTX_LOAD_PLUGINS=f"other, {ENTRY_POINT}")) is not None
    # Built-ins are not entry points: they load whatever CTX_LOAD_PLUGINS says.
    assert any(i["source"] == "builtin" for i in _infos(tmp_path, CTX_LOAD_PLUGINS=""))


@pytest.mark.usefixtures("installed")
def test_app_seeds_block_type_and_setting(database_url: str, tmp_path: Path) -> None:
    args = ["-c", APP_SCRIPT, database_url, str(tmp_path / "home")]
    out = json.loads(_run(args, tmp_path, CTX_EXAMPLE_GREETING="Moin"))
    assert "meeting-note" in out["types"]
    note = out["meeting_note"]
    assert note["retrieval_policy"] == "damped"
    assert note["retrieval_factor"] == pytest.approx(0.8)
    assert note["temporal_extract"] is True
    assert out["source"] == ENTRY_POINT  # the row records which plugin proposed it
    assert out["greeting"] == "Moin"
    # the operation: one declaration, a route (unknown fields refused) and an MCP tool
    assert out["greeted"] == [200, {"text": "Moin, Ada!"}, 422, True]


@pytest.mark.usefixtures("installed")
def test_app_without_the_plugin_has_no_meeting_note(database_url: str, tmp_path: Path) -> None:
    script = APP_SCRIPT.replace('app.settings["example.greeting"]', "None")
    args = ["-c", script, database_url, str(tmp_path / "home")]
    out = json.loads(_run(args, tmp_path, CTX_LOAD_PLUGINS=""))
    assert "meeting-note" not in out["types"]
    assert out["greeted"] is None


@pytest.mark.usefixtures("installed")
def test_cli_command(tmp_path: Path) -> None:
    assert "Hello, Ada!" in _cli(tmp_path, "example-hello", "--name", "Ada")
    out = _cli(tmp_path, "example-hello", "--name", "Ada", CTX_EXAMPLE_GREETING="Moin")
    assert "Moin, Ada!" in out


@pytest.mark.usefixtures("installed")
def test_help_lists_the_plugin_command(tmp_path: Path) -> None:
    """``ctx --help`` lists the core from its index and an installed plugin's commands for real."""
    out = _cli(tmp_path, "--help", COLUMNS="200")
    assert "example-hello" in out and "save" in out


@pytest.mark.usefixtures("installed")
def test_cli_lists_the_plugin(tmp_path: Path) -> None:
    rows = json.loads(_cli(tmp_path, "plugins", "--json"))
    info = _example(rows)
    assert info is not None, f"`ctx plugins --json` does not list {ENTRY_POINT!r}: {rows}"
    assert info["source"] == DIST
    assert info["version"] == "0.1.0"
    assert info["hooks"] == HOOKS


def test_the_plugin_uses_the_public_api_only() -> None:
    """Everything it takes from ctx comes from ``ctx.core`` and ``ctx.ui``, the documented plugin
    API."""
    import ast

    def of_ctx(name: str) -> bool:
        return name == "ctx" or name.startswith("ctx.")

    trees = [ast.parse(p.read_text()) for p in (PLUGIN_SOURCE / "ctx_example_plugin").glob("*.py")]
    nodes = [node for tree in trees for node in ast.walk(tree)]
    from_ctx = {
        node.module
        for node in nodes
        if isinstance(node, ast.ImportFrom) and node.module and of_ctx(node.module)
    }
    plain = {
        alias.name
        for node in nodes
        if isinstance(node, ast.Import)
        for alias in node.names
        if of_ctx(alias.name)
    }
    assert from_ctx == {"ctx.core", "ctx.ui"} and not plain
