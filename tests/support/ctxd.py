"""A real ``ctxd`` process for end-to-end tests, driven through the ``ctx`` command line."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

CLI = [sys.executable, "-m", "ctx.ui.cli"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def clean_env(home: Path) -> dict[str, str]:
    """The caller's environment without any CTX_ setting, with its own home, no plugins and
    PostgreSQL's memory defaults (an embedded cluster that ``ctx init`` sized for the machine
    would take a restart, and several run at once)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CTX_")}
    env["CTX_HOME"] = str(home)
    env["CTX_LOAD_PLUGINS"] = ""
    env["CTX_PG_MEMORY"] = "off"
    return env


def ctx(
    env: dict[str, str], *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *args], env=env, input=stdin, capture_output=True, text=True, timeout=120
    )


def start_server(env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*CLI, "serve", *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def wait_healthy(url: str, proc: subprocess.Popen[Any]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"ctxd exited early: {proc.stderr.read() if proc.stderr else ''}")
        try:
            if httpx.get(url + "/health", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise AssertionError("ctxd did not become healthy")


def stop(proc: subprocess.Popen[Any]) -> int:
    proc.send_signal(signal.SIGTERM)
    return proc.wait(timeout=60)


class StderrLog:
    """Reads a server's stderr while it runs (a full pipe would block the server's logging,
    and with it every thread that logs); ``text()`` once the server exited."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stderr is not None
        self._stream = proc.stderr
        self._lines: list[str] = []
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        for line in self._stream:
            self._lines.append(line)

    def so_far(self, last: int = 40) -> str:
        """The last lines read yet (for a failing assertion to show)."""
        return "".join(self._lines[-last:])

    def text(self) -> str:
        self._thread.join(30)
        return "".join(self._lines)
