"""The workbench's test browser: a TestClient with a session, as a browser would use one."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from ctx.core import App, access

CSRF_RE = re.compile(r'name="csrf_token" value="([^"]+)"')
SIGNIN_RE = re.compile(r'name="signin_token" value="([^"]+)"')


class Browser:
    """A TestClient with a session: ``get``/``post`` as a browser would send them, ``htmx``
    adds the headers htmx sends, ``csrf`` is the session's token."""

    def __init__(self, client: TestClient, key: str) -> None:
        self.client = client
        self.key = key
        self.csrf = ""

    def sign_in(self) -> Any:
        page = self.client.get("/signin")
        token = SIGNIN_RE.search(page.text)
        assert token, page.text
        answer = self.client.post(
            "/signin",
            data={"api_key": self.key, "signin_token": token.group(1), "next": "/"},
            follow_redirects=False,
        )
        assert answer.status_code == 303, answer.text
        home = self.client.get("/")
        found = CSRF_RE.search(home.text)
        assert found, home.text
        self.csrf = found.group(1)
        return answer

    def get(self, url: str, htmx: bool = False, **kw: Any) -> Any:
        headers = {"HX-Request": "true"} if htmx else {}
        headers.update(kw.pop("headers", {}))
        return self.client.get(url, headers=headers, **kw)

    def post(self, url: str, data: dict[str, Any] | None = None, htmx: bool = False,
             csrf: bool = True, **kw: Any) -> Any:  # fmt: skip
        body = dict(data or {})
        if csrf:
            body.setdefault("csrf_token", self.csrf)
        headers = {"HX-Request": "true"} if htmx else {}
        headers.update(kw.pop("headers", {}))
        kw.setdefault("follow_redirects", False)
        return self.client.post(url, data=body, headers=headers, **kw)


def make_key(app: App, home: str, allowed: list[str] | None = None, admin: bool = False) -> str:
    with app.connection() as conn:
        _, token = access.create_key(
            conn, name=f"web-{home}", home_scope=home, allowed_scopes=allowed, is_admin=admin
        )
    return token
