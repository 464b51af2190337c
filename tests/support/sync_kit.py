"""A scope linked to a loopback GitHub repository, for the issue sync's tests."""

from __future__ import annotations

from typing import Any

from github_server import GitHubServer, Repo

from ctx.core import App
from ctx.core.access import set_secret
from ctx.core.runtime import drain

TOKEN = "ghp_loopback"
HOOK_SECRET = "whsec-loopback"
SCOPE = "octo-hello"


class Synced:
    """A scope linked to the loopback repository, with keys and REST helpers."""

    def __init__(self, app: App, client: Any, keys: Any, gh: GitHubServer, repo: Repo) -> None:
        self.app, self.client, self.gh, self.repo = app, client, gh, repo
        with app.connection() as conn:
            set_secret(conn, app.seal_key, "gh-token", TOKEN)
            set_secret(conn, app.seal_key, "gh-hook", HOOK_SECRET)
        self.admin = {"X-Context-Key": keys.make("admin-home", admin=True)}
        self.key = {"X-Context-Key": keys.make(SCOPE)}
        r = client.post(
            "/api/issues/sync/links",
            json={
                "scope": SCOPE,
                "repo": f"{repo.owner}/{repo.name}",
                "base_url": gh.base_url,
                "token_secret": "gh-token",
                "webhook_secret": "gh-hook",
            },
            headers=self.admin,
        )
        assert r.status_code == 201, r.text
        self.link = r.json()

    def sync(self) -> dict[str, Any]:
        r = self.client.post("/api/issues/sync", json={}, headers=self.key)
        assert r.status_code == 200, r.text
        return dict(r.json())

    def api(self, method: str, path: str, **kwargs: Any) -> Any:
        return self.client.request(method, "/api/issues" + path, headers=self.key, **kwargs)

    def issues(self) -> list[dict[str, Any]]:
        r = self.api("GET", "", params={"limit": 200})
        assert r.status_code == 200, r.text
        return sorted(r.json()["issues"], key=lambda i: i.get("forge_number") or 0)

    def local(self, forge_number: int) -> dict[str, Any]:
        found = [i for i in self.issues() if i.get("forge_number") == forge_number]
        assert len(found) == 1, found
        r = self.api("GET", f"/{found[0]['number']}")
        assert r.status_code == 200, r.text
        return dict(r.json())

    def conflicts(self) -> list[dict[str, Any]]:
        r = self.api("GET", "/sync/conflicts")
        assert r.status_code == 200, r.text
        return list(r.json()["conflicts"])

    def drain(self) -> int:
        return drain(self.app, "issues.sync")
