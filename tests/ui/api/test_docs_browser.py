"""/docs renders in a real Chromium, offline, with no CSP violation (Swagger UI is vendored)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from live import live_server

from ctx.core import App

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium (.ci/run installs Debian's chromium)")
def test_the_api_docs_render_in_a_browser(app: App, tmp_path: Path) -> None:
    assert CHROMIUM is not None
    with live_server(app) as url:
        result = subprocess.run(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--enable-logging=stderr",
                f"--user-data-dir={tmp_path / 'chromium'}",
                "--virtual-time-budget=10000",
                "--dump-dom",
                f"{url}/docs",
            ],
            capture_output=True,
            text=True,
            timeout=180,
        )
    dom = result.stdout
    assert 'class="swagger-ui' in dom, result.stderr[-2000:]
    assert "/api/query" in dom and "opblock" in dom  # the operations were rendered
    assert "Authorize" in dom  # the security schemes arrived too
    refused = [line for line in result.stderr.splitlines() if "Refused to" in line]
    assert not refused, refused
