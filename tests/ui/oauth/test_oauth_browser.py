"""The sign-in form in a real Chromium: typing the key and pressing Connect lands on the client's
redirect URI. Chromium applies the form page's CSP ``form-action`` to the redirect after the post,
so this fails unless the page allows the redirect URI's origin (the control case shows it does).

Chromium is driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``): no
websocket library, no driver."""

from __future__ import annotations

import fcntl
import json
import os
import queue
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from authlib.common.security import generate_token
from authlib.integrations.httpx_client import OAuth2Client
from live import live_server

from ctx.core import App

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="needs Chromium (.ci/run installs Debian's chromium)"
)


@pytest.fixture
def callback() -> Iterator[tuple[str, list[str]]]:
    """The client's redirect URI: a loopback listener that records what reaches it."""
    seen: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path.startswith("/callback"):  # not the favicon
                seen.append(self.path)
            self.send_response(200)
            self.send_header("content-type", "text/plain")
            self.end_headers()
            self.wfile.write(b"signed in")

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/callback", seen
    finally:
        server.shutdown()


class DevTools:
    """Chromium with the DevTools protocol on fds 3 (commands in) and 4 (events out)."""

    def __init__(self, profile: Path) -> None:
        commands_in, self._commands = os.pipe()
        self._events_out, events_in = os.pipe()
        # far from 3 and 4, so placing them there in the child cannot overwrite one another
        child_in, child_out = (
            fcntl.fcntl(commands_in, fcntl.F_DUPFD, 20),
            fcntl.fcntl(events_in, fcntl.F_DUPFD, 20),
        )
        for fd in (commands_in, events_in):
            os.close(fd)

        def place_fds() -> None:
            os.dup2(child_in, 3)
            os.dup2(child_out, 4)

        self.proc = subprocess.Popen(
            [
                str(CHROMIUM),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={profile}",
                "--remote-debugging-pipe",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            pass_fds=(3, 4, child_in, child_out),
            preexec_fn=place_fds,
        )
        os.close(child_in)
        os.close(child_out)
        self.events: queue.Queue[dict[str, Any]] = queue.Queue()
        self._replies: dict[int, queue.Queue[dict[str, Any]]] = {}
        self._next = 0
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        buffer = b""
        while chunk := os.read(self._events_out, 65536):
            buffer += chunk
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                message = json.loads(raw)
                if "id" in message and message["id"] in self._replies:
                    self._replies[message["id"]].put(message)
                else:
                    self.events.put(message)

    def send(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        self._next += 1
        reply: queue.Queue[dict[str, Any]] = queue.Queue()
        self._replies[self._next] = reply
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if session:
            message["sessionId"] = session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        answer = reply.get(timeout=30)
        assert "error" not in answer, answer
        return dict(answer.get("result", {}))

    def wait_for(self, method: str, timeout: float = 30) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            event = self.events.get(timeout=max(0.1, deadline - time.monotonic()))
            if event.get("method") == method:
                return event

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=30)
        self._reader.join(timeout=10)  # ends at the pipe's end of file
        os.close(self._commands)
        os.close(self._events_out)


@pytest.mark.parametrize("allow_redirect", [True, False], ids=["page-csp", "control-self-only"])
def test_connect_in_a_real_browser_reaches_the_redirect_uri(
    app: App,
    keys: Any,
    tmp_path: Path,
    callback: tuple[str, list[str]],
    monkeypatch: pytest.MonkeyPatch,
    allow_redirect: bool,
) -> None:
    redirect, seen = callback
    if not allow_redirect:  # the control: the API's default CSP, which forgets the redirect
        from ctx.ui.oauth import authorize

        monkeypatch.setattr(authorize, "FORM_CSP", authorize.FORM_CSP.replace(" {redirect}", ""))
    key = keys.make("alpha")
    with live_server(app) as base:
        registered = httpx.post(
            f"{base}/register",
            json={"redirect_uris": [redirect], "token_endpoint_auth_method": "none"},
        ).json()
        verifier = generate_token(48)
        client = OAuth2Client(
            client_id=registered["client_id"], redirect_uri=redirect, code_challenge_method="S256"
        )
        url, state = client.create_authorization_url(
            f"{base}/authorize", state="xyz", code_verifier=verifier
        )
        browser = DevTools(tmp_path / "chromium")
        try:
            target = browser.send("Target.createTarget", url="about:blank")["targetId"]
            session = browser.send("Target.attachToTarget", targetId=target, flatten=True)[
                "sessionId"
            ]
            browser.send("Page.enable", session)
            browser.send("Log.enable", session)
            browser.send("Page.navigate", session, url=url)
            browser.wait_for("Page.loadEventFired")
            browser.send(
                "Runtime.evaluate",
                session,
                expression=(
                    f"document.getElementById('api_key').value = {json.dumps(key)};"
                    "document.querySelector('button[value=allow]').click();"
                ),
            )
            deadline = time.monotonic() + (20 if allow_redirect else 5)
            while not seen and time.monotonic() < deadline:
                time.sleep(0.1)
            time.sleep(0.2)  # let the console catch up
            logs = []
            while not browser.events.empty():
                event = browser.events.get()
                if event.get("method") == "Log.entryAdded":
                    logs.append(event["params"]["entry"]["text"])
        finally:
            browser.close()
        refused = [line for line in logs if "form-action" in line]
        if not allow_redirect:
            assert not seen and refused, logs
            return
        assert not refused, refused
        assert len(seen) == 1, logs
        back = parse_qs(urlsplit(seen[0]).query)
        assert back["state"] == [state]
        token = httpx.post(
            f"{base}/token",
            data={
                "grant_type": "authorization_code",
                "client_id": registered["client_id"],
                "code": back["code"][0],
                "redirect_uri": redirect,
                "code_verifier": verifier,
            },
        )
        assert token.json()["access_token"] == key
