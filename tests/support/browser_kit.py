"""Real headless Chromium for the workbench's end-to-end tests, driven by Playwright for Python.

The browser is Debian's ``chromium`` package (``.ci/run`` installs it); Playwright downloads
nothing. Every page's console is watched: a Content-Security-Policy violation or a script error
fails the test that caused it, so inline scripts or styles cannot creep in unnoticed.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@contextmanager
def chromium() -> Iterator[Any]:
    """A launched browser (``playwright.sync_api.Browser``)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()


class Watched:
    """A page with its console problems collected."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.problems: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.problems.append(f"page error: {exc}"))

    def _console(self, message: Any) -> None:
        text = message.text
        if text.startswith("Failed to load resource") and "status of 5" not in text:
            return  # a 4xx a test provokes on purpose (a wrong key, a refused action)
        if message.type == "error" or "Content Security Policy" in text:
            self.problems.append(text)


def sign_in(page: Any, base: str, key: str) -> None:
    page.goto(f"{base}/signin")
    page.get_by_label("API key").fill(key)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{base}/")


def shot(page: Any, name: str) -> None:
    """Save a screenshot as ``$CTX_SCREENSHOTS/<name>.png`` when that variable names a folder
    (``make screenshots`` sets it to docs/screenshots); otherwise nothing."""
    folder = os.environ.get("CTX_SCREENSHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, f"{name}.png"))
