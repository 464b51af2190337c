"""A GitHub REST server on loopback, for tests of the issue sync: GitHub's wire format, in memory.

Runs ``http.server.ThreadingHTTPServer`` on 127.0.0.1 in a background thread, holds repositories
in memory (``add_repo``, ``add_issue``, ``add_label``, ``add_comment``, ``seed_issues`` from a
recorded fixture) and records every request (``requests``). It answers, as api.github.com does:

* ``GET|POST /repos/{owner}/{repo}/issues`` (``state``, ``since``, ``sort``, ``direction``,
  ``per_page``, ``page``; pull requests are listed, flagged by a ``pull_request`` key), and
  ``GET|PATCH /repos/{owner}/{repo}/issues/{number}``;
* ``GET|POST /repos/{owner}/{repo}/issues/{number}/comments``, ``GET .../issues/comments``
  (``since``), ``GET|PATCH .../issues/comments/{id}``; ``GET /repos/{owner}/{repo}/labels``;
* the same under ``/repositories/{id}/...``, where ``Link`` headers and redirects point;
* ``Link`` pagination (first, prev, next, last), ``ETag`` on every GET and ``If-None-Match`` → 304
  without a body and without costing rate limit; ``x-ratelimit-*`` headers on every answer;
* ``exhaust_rate_limit()`` → 403 "API rate limit exceeded" with remaining 0, ``secondary_limit()``
  → 429 with ``retry-after``; ``delete_issue`` → 410 Gone; ``transfer_issue`` → 301 with
  ``Location``; a wrong token → 401 "Bad credentials".

Answers follow the request's ``X-GitHub-Api-Version``: 2022-11-28 when absent, as on GitHub;
2026-03-10 (githubkit's default) drops the singular ``assignee``; any other gets a 400. With
``schemas`` set (``forge_data.openapi_schemas()``), every 2xx JSON body is checked against the
response schema GitHub publishes for the operation in that version; failures land in
``schema_errors``. ``edit_issue`` changes an issue as a person on github.com would.

``webhook_delivery`` builds a signed ``issues`` / ``issue_comment`` delivery and ``send()`` posts
it; ``with_bad_signature()`` spoils it; sending one twice is a replay (same delivery id).

Loaded by path like the other support modules (``tests/`` is not a package).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import threading
import time
import uuid
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import httpx

DOCS = "https://docs.github.com/rest"
HTML = "https://github.com"
START = datetime(2026, 1, 1, tzinfo=UTC)
ISSUE_LIST_KEYS_WITHOUT = ("closed_by",)  # list items omit it; single issues carry it
BASE_VERSION = "2022-11-28"  # GitHub's answer when a request names no X-GitHub-Api-Version
NEXT_VERSION = "2026-03-10"  # drops the singular `assignee` from issues
API_VERSIONS = (BASE_VERSION, NEXT_VERSION)


def _iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _parse_iso(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@dataclass
class RecordedRequest:
    method: str
    path: str  # with the query string
    headers: dict[str, str]  # names lowercased
    body: Any  # the parsed JSON body; None when there is none


@dataclass
class Repo:
    id: int
    owner: str
    name: str
    issues: dict[int, dict[str, Any]] = field(default_factory=dict)
    comments: dict[int, dict[str, Any]] = field(default_factory=dict)
    labels: dict[str, dict[str, Any]] = field(default_factory=dict)
    deleted: set[int] = field(default_factory=set)
    moved: dict[int, tuple[int, int]] = field(default_factory=dict)  # number -> (repo id, number)


class Reply(Exception):
    """An answer other than the route's own: raised anywhere in a route."""

    def __init__(self, status: int, body: Any = None, headers: dict[str, str] | None = None):
        self.status, self.body, self.headers = status, body, headers or {}


def error(status: int, message: str, docs: str = DOCS) -> Reply:
    return Reply(status, {"message": message, "documentation_url": docs, "status": str(status)})


@dataclass
class GitHubServer:
    token: str | None = "ghp_loopback"  # None: any or no token passes
    login: str = "ctx-bot"  # the token's user
    rate_limit: int = 5000
    schemas: Any = None  # forge_data.OpenAPISchemas: check every 2xx body against GitHub's schema
    schema_errors: list[str] = field(default_factory=list)
    requests: list[RecordedRequest] = field(default_factory=list)
    now: datetime = START  # the store's clock: each write advances it by a second
    repos: dict[int, Repo] = field(default_factory=dict)
    remaining: int = -1  # set from rate_limit in __post_init__
    reset_at: int = 0
    secondary: list[int] = field(default_factory=list)  # retry-after seconds, one per request
    renamed: dict[str, int] = field(default_factory=dict)  # old "owner/name" -> repository id
    api_version: str = BASE_VERSION  # the X-GitHub-Api-Version of the request being answered
    _ids: int = 1000
    _lock: threading.RLock = field(default_factory=threading.RLock)
    _httpd: ThreadingHTTPServer | None = None

    def __post_init__(self) -> None:
        self.remaining = self.rate_limit
        self.reset_at = int(time.time()) + 3600

    # -- life cycle ---------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        assert self._httpd is not None, "server not started"
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def start(self) -> GitHubServer:
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        self._httpd.daemon_threads = True
        threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> GitHubServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def reset(self) -> None:
        """Forget repositories, requests and rate-limit state (the port stays)."""
        with self._lock:
            self.reset_at = int(time.time()) + 3600
            self.repos.clear()
            self.renamed.clear()
            self.requests.clear()
            self.schema_errors.clear()
            self.secondary.clear()
            self.remaining = self.rate_limit
            self.now = START

    # -- scripted behaviour -------------------------------------------------------------------

    def exhaust_rate_limit(self, reset_in: int = 60) -> None:
        self.remaining, self.reset_at = 0, int(time.time()) + reset_in

    def secondary_limit(self, retry_after: int = 1, count: int = 1) -> None:
        self.secondary.extend([retry_after] * count)

    # -- the store ----------------------------------------------------------------------------

    def _next_id(self) -> int:
        self._ids += 1
        return self._ids

    def _tick(self) -> str:
        self.now += timedelta(seconds=1)
        return _iso(self.now)

    def add_repo(self, owner: str, name: str) -> Repo:
        with self._lock:
            repo = Repo(self._next_id(), owner, name)
            self.repos[repo.id] = repo
            return repo

    def repo(self, owner: str, name: str) -> Repo:
        for repo in self.repos.values():
            if (repo.owner.lower(), repo.name.lower()) == (owner.lower(), name.lower()):
                return repo
        raise KeyError(f"{owner}/{name}")

    def add_label(
        self, repo: Repo, name: str, color: str = "ededed", description: str | None = None
    ) -> dict[str, Any]:
        with self._lock:
            label = {"id": self._next_id(), "name": name, "color": color}
            label |= {"description": description, "default": False}
            return repo.labels.setdefault(name, label)

    def add_issue(self, repo: Repo, title: str, body: str | None = None, **fields: Any) -> int:
        """Store an issue (``labels``, ``assignees``, ``state``, ``user``, ``pull_request``...)."""
        with self._lock:
            number = max([*repo.issues, *repo.deleted, *repo.moved, 0]) + 1
            stamp = self._tick()
            issue = {"id": self._next_id(), "number": number, "title": title, "body": body}
            issue |= {"state": "open", "state_reason": None, "labels": [], "assignees": []}
            issue |= {"user": self.login, "comments": 0, "locked": False, "closed_by": None}
            issue |= {"created_at": stamp, "updated_at": stamp, "closed_at": None}
            issue |= {"pull_request": False, "milestone": None}
            issue |= fields
            for name in issue["labels"]:
                self.add_label(repo, name)
            repo.issues[number] = issue
            return number

    def seed_issues(self, repo: Repo, recorded: list[dict[str, Any]]) -> None:
        """Store issues as a recorded GitHub answer lists them (numbers, titles, times kept)."""
        with self._lock:
            for item in recorded:
                keep = ("id", "number", "title", "body", "state", "state_reason", "comments")
                issue = {key: item.get(key) for key in keep}
                issue |= {"labels": [label["name"] for label in item["labels"]]}
                issue |= {"assignees": [user["login"] for user in item["assignees"]]}
                issue |= {"user": item["user"]["login"], "locked": item["locked"]}
                issue |= {key: item[key] for key in ("created_at", "updated_at", "closed_at")}
                issue |= {"pull_request": "pull_request" in item, "milestone": None}
                issue["closed_by"] = None
                for label in item["labels"]:
                    self.add_label(repo, label["name"], label["color"], label.get("description"))
                repo.issues[issue["number"]] = issue

    def add_comment(self, repo: Repo, number: int, body: str, user: str | None = None) -> int:
        with self._lock:
            stamp = self._tick()
            comment = {"id": self._next_id(), "issue": number, "body": body}
            comment |= {"user": user or self.login, "created_at": stamp, "updated_at": stamp}
            repo.comments[comment["id"]] = comment
            issue = repo.issues[number]
            issue["comments"] += 1
            issue["updated_at"] = stamp
            return comment["id"]

    def edit_issue(self, repo: Repo, number: int, **changes: Any) -> None:
        """Change an issue as a person on github.com would (the sync's remote edit)."""
        with self._lock:
            self._apply(repo, repo.issues[number], changes)

    def rename_repo(self, repo: Repo, name: str) -> None:
        """Rename: the old name's paths answer 301 to the repository's id, as on GitHub."""
        with self._lock:
            self.renamed[f"{repo.owner}/{repo.name}".lower()] = repo.id
            repo.name = name

    def milestone(self, repo: Repo, number: int, title: str) -> dict[str, Any]:
        """A milestone object as issues carry it (set ``issue["milestone"]`` to it)."""
        url = f"{self.api_url(repo)}/milestones/{number}"
        stamp = _iso(self.now)
        return {
            "url": url,
            "html_url": f"{HTML}/{repo.owner}/{repo.name}/milestone/{number}",
            "labels_url": f"{url}/labels",
            "id": 9000 + number,
            "node_id": f"MI_{number}",
            "number": number,
            "state": "open",
            "title": title,
            "description": None,
            "creator": self.user(self.login),
            "open_issues": 1,
            "closed_issues": 0,
            "created_at": stamp,
            "updated_at": stamp,
            "closed_at": None,
            "due_on": None,
        }

    def delete_issue(self, repo: Repo, number: int) -> None:
        with self._lock:
            del repo.issues[number]
            repo.deleted.add(number)

    def transfer_issue(self, repo: Repo, number: int, to: Repo) -> int:
        with self._lock:
            issue = repo.issues.pop(number)
            fields = {k: v for k, v in issue.items() if k not in ("id", "number", "comments")}
            new_number = self.add_issue(to, **fields)
            repo.moved[number] = (to.id, new_number)
            return new_number

    def _apply(self, repo: Repo, issue: dict[str, Any], changes: dict[str, Any]) -> None:
        for key in ("title", "body", "milestone"):
            if key in changes:
                issue[key] = changes[key]
        if "labels" in changes:
            names = [lab if isinstance(lab, str) else lab["name"] for lab in changes["labels"]]
            for name in names:
                self.add_label(repo, name)  # GitHub creates labels it does not know
            issue["labels"] = names
        if "assignees" in changes:
            issue["assignees"] = list(changes["assignees"])
        stamp = self._tick()
        state = changes.get("state")
        if state == "closed" and issue["state"] != "closed":
            issue |= {"state": "closed", "closed_at": stamp, "closed_by": self.login}
            issue["state_reason"] = changes.get("state_reason") or "completed"
        elif issue["state"] == "closed" and changes.get("state_reason"):
            issue["state_reason"] = changes["state_reason"]  # a closed issue's reason changes
        elif state == "open" and issue["state"] != "open":
            issue |= {"state": "open", "closed_at": None, "closed_by": None}
            issue["state_reason"] = "reopened"
        issue["updated_at"] = stamp

    # -- GitHub's shapes ----------------------------------------------------------------------

    def api_url(self, repo: Repo) -> str:
        return f"{self.base_url}/repos/{repo.owner}/{repo.name}"

    def user(self, login: str) -> dict[str, Any]:
        url = f"{self.base_url}/users/{login}"
        user_id = int(hashlib.sha256(login.encode()).hexdigest()[:6], 16)
        return {
            "login": login,
            "id": user_id,
            "node_id": f"U_{user_id}",
            "avatar_url": f"https://avatars.githubusercontent.com/u/{user_id}?v=4",
            "gravatar_id": "",
            "url": url,
            "html_url": f"{HTML}/{login}",
            "followers_url": f"{url}/followers",
            "following_url": f"{url}/following{{/other_user}}",
            "gists_url": f"{url}/gists{{/gist_id}}",
            "starred_url": f"{url}/starred{{/owner}}{{/repo}}",
            "subscriptions_url": f"{url}/subscriptions",
            "organizations_url": f"{url}/orgs",
            "repos_url": f"{url}/repos",
            "events_url": f"{url}/events{{/privacy}}",
            "received_events_url": f"{url}/received_events",
            "type": "User",
            "site_admin": False,
        }

    def label_json(self, repo: Repo, name: str) -> dict[str, Any]:
        label = repo.labels[name]
        return {
            "id": label["id"],
            "node_id": f"LA_{label['id']}",
            "url": f"{self.api_url(repo)}/labels/{name}",
            "name": name,
            "color": label["color"],
            "default": label["default"],
            "description": label["description"],
            # newer than the pinned description: githubkit-schemas' Label requires them, and an
            # added field reaches every API version (githubkit follows Link pages unversioned)
            "archived_at": None,
            "archived_by": None,
        }

    def issue_json(self, repo: Repo, issue: dict[str, Any], *, listed: bool = False) -> dict:
        url = f"{self.api_url(repo)}/issues/{issue['number']}"
        html = f"{HTML}/{repo.owner}/{repo.name}/issues/{issue['number']}"
        assignees = [self.user(login) for login in issue["assignees"]]
        closed_by = issue["closed_by"]
        out = {
            "url": url,
            "repository_url": self.api_url(repo),
            "labels_url": f"{url}/labels{{/name}}",
            "comments_url": f"{url}/comments",
            "events_url": f"{url}/events",
            "html_url": html,
            "id": issue["id"],
            "node_id": f"I_{issue['id']}",
            "number": issue["number"],
            "title": issue["title"],
            "user": self.user(issue["user"]),
            "labels": [self.label_json(repo, name) for name in issue["labels"]],
            "state": issue["state"],
            "locked": issue["locked"],
            "assignee": assignees[0] if assignees else None,
            "assignees": assignees,
            "milestone": issue["milestone"],
            "comments": issue["comments"],
            "created_at": issue["created_at"],
            "updated_at": issue["updated_at"],
            "closed_at": issue["closed_at"],
            "author_association": "OWNER" if issue["user"] == repo.owner else "MEMBER",
            "active_lock_reason": None,
            "body": issue["body"],
            "closed_by": self.user(closed_by) if closed_by else None,
            "reactions": _reactions(f"{url}/reactions"),
            "timeline_url": f"{url}/timeline",
            "performed_via_github_app": None,
            "state_reason": issue["state_reason"],
        }
        if issue["pull_request"]:
            pull = f"{self.api_url(repo)}/pulls/{issue['number']}"
            html_pull = html.replace("/issues/", "/pull/")
            out["pull_request"] = {"url": pull, "html_url": html_pull, "merged_at": None}
            out["pull_request"] |= {"diff_url": f"{html_pull}.diff"}
            out["pull_request"] |= {"patch_url": f"{html_pull}.patch"}
        if listed:
            for key in ISSUE_LIST_KEYS_WITHOUT:
                out.pop(key)
        if self.api_version >= NEXT_VERSION:  # the description's breaking change for 2026-03-10
            out.pop("assignee")
        return out

    def comment_json(self, repo: Repo, comment: dict[str, Any]) -> dict[str, Any]:
        issue_url = f"{self.api_url(repo)}/issues/{comment['issue']}"
        html = f"{HTML}/{repo.owner}/{repo.name}/issues/{comment['issue']}"
        return {
            "url": f"{self.api_url(repo)}/issues/comments/{comment['id']}",
            "html_url": f"{html}#issuecomment-{comment['id']}",
            "issue_url": issue_url,
            "id": comment["id"],
            "node_id": f"IC_{comment['id']}",
            "user": self.user(comment["user"]),
            "created_at": comment["created_at"],
            "updated_at": comment["updated_at"],
            "author_association": "OWNER" if comment["user"] == repo.owner else "MEMBER",
            "body": comment["body"],
            "reactions": _reactions(
                f"{self.api_url(repo)}/issues/comments/{comment['id']}/reactions"
            ),
            "performed_via_github_app": None,
        }

    def repository_json(self, repo: Repo) -> dict[str, Any]:
        """A repository as webhook payloads carry it (``repository-webhooks``)."""
        url, full = self.api_url(repo), f"{repo.owner}/{repo.name}"
        templated = {  # name -> the path after the repository's API URL, as GitHub writes it
            "archive": "/{archive_format}{/ref}",
            "assignees": "/assignees{/user}",
            "blobs": "/git/blobs{/sha}",
            "branches": "/branches{/branch}",
            "collaborators": "/collaborators{/collaborator}",
            "comments": "/comments{/number}",
            "commits": "/commits{/sha}",
            "compare": "/compare/{base}...{head}",
            "contents": "/contents/{+path}",
            "git_commits": "/git/commits{/sha}",
            "git_refs": "/git/refs{/sha}",
            "git_tags": "/git/tags{/sha}",
            "issue_comment": "/issues/comments{/number}",
            "issue_events": "/issues/events{/number}",
            "issues": "/issues{/number}",
            "keys": "/keys{/key_id}",
            "labels": "/labels{/name}",
            "milestones": "/milestones{/number}",
            "notifications": "/notifications{?since,all,participating}",
            "pulls": "/pulls{/number}",
            "releases": "/releases{/id}",
            "statuses": "/statuses/{sha}",
            "trees": "/git/trees{/sha}",
        }
        plain = ("contributors", "deployments", "downloads", "events", "forks", "hooks")
        plain += ("languages", "merges", "stargazers", "subscribers", "subscription", "tags")
        plain += ("teams",)
        stamp = _iso(START)
        open_issues = sum(1 for issue in repo.issues.values() if issue["state"] == "open")
        return (
            {"id": repo.id, "node_id": f"R_{repo.id}", "name": repo.name, "full_name": full}
            | {"private": False, "owner": self.user(repo.owner), "html_url": f"{HTML}/{full}"}
            | {"description": None, "fork": False, "url": url}
            | {f"{name}_url": url + path for name, path in templated.items()}
            | {f"{name}_url": f"{url}/{name}" for name in plain}
            | {"created_at": stamp, "updated_at": stamp, "pushed_at": stamp}
            | {"git_url": f"git://github.com/{full}.git", "ssh_url": f"git@github.com:{full}.git"}
            | {"clone_url": f"{HTML}/{full}.git", "svn_url": f"{HTML}/{full}", "homepage": None}
            | {"size": 0, "stargazers_count": 0, "watchers_count": 0, "language": None}
            | {"has_issues": True, "has_projects": True, "has_downloads": True}
            | {"has_wiki": True, "has_pages": False, "forks_count": 0, "mirror_url": None}
            | {"archived": False, "disabled": False, "open_issues_count": open_issues}
            | {"license": None, "forks": 0, "open_issues": open_issues, "watchers": 0}
            | {"default_branch": "main"}
        )

    # -- webhooks -----------------------------------------------------------------------------

    def issue_event(self, repo: Repo, number: int, action: str, **extra: Any) -> dict:
        """The payload of an ``issues`` webhook (``changes=...`` for an edit)."""
        issue = self.issue_json(repo, repo.issues[number])
        return {"action": action, "issue": issue, **extra} | self._event_tail(repo)

    def comment_event(self, repo: Repo, comment_id: int, action: str, **extra: Any) -> dict:
        """The payload of an ``issue_comment`` webhook."""
        comment = repo.comments[comment_id]
        issue = self.issue_json(repo, repo.issues[comment["issue"]])
        body = {"action": action, "issue": issue, "comment": self.comment_json(repo, comment)}
        return body | extra | self._event_tail(repo)

    def _event_tail(self, repo: Repo) -> dict[str, Any]:
        return {"repository": self.repository_json(repo), "sender": self.user(self.login)}


def _reactions(url: str) -> dict[str, Any]:
    counts = dict.fromkeys(("+1", "-1", "laugh", "hooray", "confused", "heart", "rocket"), 0)
    return {"url": url, "total_count": 0, **counts, "eyes": 0}


@dataclass(frozen=True)
class WebhookDelivery:
    event: str
    delivery_id: str
    body: bytes
    signature: str

    @property
    def headers(self) -> dict[str, str]:
        return {
            "Content-Type": "application/json",
            "User-Agent": "GitHub-Hookshot/loopback",
            "X-GitHub-Event": self.event,
            "X-GitHub-Delivery": self.delivery_id,
            "X-GitHub-Hook-ID": "1",
            "X-Hub-Signature-256": self.signature,
        }

    def with_bad_signature(self) -> WebhookDelivery:
        return replace(self, signature=sign(b"not the body", "not the secret"))

    def send_with(self, client: Any, path: str = "/api/forge/github/webhook") -> Any:
        """Post it through an in-process client (a FastAPI TestClient)."""
        return client.post(path, content=self.body, headers=self.headers)

    def send(self, url: str, client: httpx.Client | None = None) -> httpx.Response:
        if client is not None:
            return client.post(url, content=self.body, headers=self.headers)
        return httpx.post(url, content=self.body, headers=self.headers, timeout=10)


def sign(body: bytes, secret: str) -> str:
    """GitHub's ``X-Hub-Signature-256``: ``sha256=`` and the HMAC-SHA256 of the body, in hex."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def webhook_delivery(event: str, payload: dict[str, Any], secret: str) -> WebhookDelivery:
    body = json.dumps(payload, separators=(",", ":")).encode()
    return WebhookDelivery(event, str(uuid.uuid4()), body, sign(body, secret))


# -- the REST routes --------------------------------------------------------------------------

Answer = tuple[int, Any, dict[str, str]]
RATE_DOCS = "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"
ISSUE_DOCS = "https://docs.github.com/rest/issues/issues#get-an-issue"


def _int(query: dict[str, str], name: str, default: int) -> int:
    try:
        return int(query.get(name, default))
    except ValueError:
        raise error(422, f"Invalid value for parameter '{name}'") from None


def _paginate(
    server: GitHubServer, repo: Repo, rest: str, query: dict[str, str], items: list[Any]
) -> tuple[list[Any], dict[str, str]]:
    """One page of ``items`` and GitHub's ``Link`` header (prev, next, last, first)."""
    per_page = max(1, min(_int(query, "per_page", 30), 100))
    page = max(1, _int(query, "page", 1))
    last = max(1, -(-len(items) // per_page))

    def link(number: int, rel: str) -> str:
        params = {k: v for k, v in query.items() if k != "page"} | {"page": str(number)}
        return f'<{server.base_url}/repositories/{repo.id}/{rest}?{urlencode(params)}>; rel="{rel}"'

    links = []
    if page > 1:
        links.append(link(page - 1, "prev"))
    if page < last:
        links += [link(page + 1, "next"), link(last, "last")]
    if page > 1:
        links.append(link(1, "first"))
    headers = {"Link": ", ".join(links)} if links else {}
    return items[(page - 1) * per_page : page * per_page], headers


def _since(query: dict[str, str], items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if "since" not in query:
        return items
    try:
        since = _parse_iso(query["since"])
    except ValueError:
        raise error(422, "Invalid value for parameter 'since'") from None
    return [item for item in items if _parse_iso(item["updated_at"]) >= since]


def _issue(server: GitHubServer, repo: Repo, number: int) -> dict[str, Any]:
    if number in repo.deleted:
        raise error(410, "This issue was deleted", ISSUE_DOCS)
    if number in repo.moved:
        repo_id, new_number = repo.moved[number]
        location = f"{server.base_url}/repositories/{repo_id}/issues/{new_number}"
        body = {"message": "Moved Permanently", "url": location, "documentation_url": ISSUE_DOCS}
        raise Reply(301, body, {"Location": location})
    if number not in repo.issues:
        raise error(404, "Not Found", ISSUE_DOCS)
    return repo.issues[number]


def list_issues(server: GitHubServer, repo: Repo, rest: str, q: dict, body: Any) -> Answer:
    state = q.get("state", "open")
    if state not in ("open", "closed", "all"):
        raise error(422, "Validation Failed")
    items = [i for i in repo.issues.values() if state in ("all", i["state"])]
    if q.get("labels"):
        wanted = set(q["labels"].split(","))
        items = [i for i in items if wanted <= set(i["labels"])]
    key = {"created": "created_at", "updated": "updated_at", "comments": "comments"}.get(
        q.get("sort", "created"), "created_at"
    )
    items = sorted(_since(q, items), key=lambda i: (i[key], i["number"]))
    if q.get("direction", "desc") == "desc":
        items.reverse()
    page, headers = _paginate(server, repo, rest, q, items)
    return 200, [server.issue_json(repo, i, listed=True) for i in page], headers


def create_issue(server: GitHubServer, repo: Repo, rest: str, q: dict, body: Any) -> Answer:
    if not isinstance(body, dict) or not isinstance(body.get("title"), str | int):
        missing = {"resource": "Issue", "code": "missing_field", "field": "title"}
        raise Reply(
            422, {"message": "Validation Failed", "errors": [missing], "documentation_url": DOCS}
        )
    fields = {k: body[k] for k in ("labels", "assignees", "milestone") if body.get(k) is not None}
    labels = [lab if isinstance(lab, str) else lab["name"] for lab in fields.pop("labels", [])]
    number = server.add_issue(repo, str(body["title"]), body.get("body"), labels=labels, **fields)
    issue = server.issue_json(repo, repo.issues[number])
    return 201, issue, {"Location": issue["url"]}


def get_issue(server: GitHubServer, repo: Repo, rest: str, q: dict, body: Any) -> Answer:
    number = int(rest.split("/")[1])
    return 200, server.issue_json(repo, _issue(server, repo, number)), {}


def update_issue(server: GitHubServer, repo: Repo, rest: str, q: dict, body: Any) -> Answer:
    issue = _issue(server, repo, int(rest.split("/")[1]))
    if not isinstance(body, dict) or body.get("state", "open") not in ("open", "closed"):
        raise error(422, "Validation Failed")
    server._apply(repo, issue, body)
    return 200, server.issue_json(repo, issue), {}


def list_issue_comments(server: GitHubServer, repo: Repo, rest: str, q: dict, body: Any) -> Answer:
    number = int(rest.split("/")[1])
    _issue(server, repo, number)
    items = _since(q, [c for c in repo.comments.values() if c["issue"] == number])
    page, headers = _paginate(server, repo, rest, q, sorted(items, key=lambda c: c["id"]))
    return 200, [server.comment_json(repo, c) for c in page], headers


def create_comment(server: GitHubServer, repo: Repo, rest: str, q: dict, body: Any) -> Answer:
    number = int(rest.split("/")[1])
    _issue(server, repo, number)
    if not isinstance(body, dict) or not isinstance(body.get("body"), str):
        raise error(422, 'Invalid request.\n\n"body" wasn\'t supplied.')
    comment_id = server.add_comment(repo, number, body["body"])
    comment = server.comment_json(repo, repo.comments[comment_id])
    return 201, comment, {"Location": comment["url"]}


def list_repo_comments(server: GitHubServer, repo: Repo, rest: str, q: dict, body: Any) -> Answer:
    key = "updated_at" if q.get("sort") == "updated" else "created_at"
    items = sorted(_since(q, list(repo.comments.values())), key=lambda c: (c[key], c["id"]))
    if "sort" in q and q.get("direction", "desc") == "desc":
        items.reverse()
    page, headers = _paginate(server, repo, rest, q, items)
    return 200, [server.comment_json(repo, c) for c in page], headers


def _comment(repo: Repo, rest: str) -> dict[str, Any]:
    comment = repo.comments.get(int(rest.rsplit("/", 1)[1]))
    if comment is None:
        raise error(404, "Not Found", "https://docs.github.com/rest/issues/comments")
    return comment


def get_comment(server: GitHubServer, repo: Repo, rest: str, q: dict, body: Any) -> Answer:
    return 200, server.comment_json(repo, _comment(repo, rest)), {}


def update_comment(server: GitHubServer, repo: Repo, rest: str, q: dict, body: Any) -> Answer:
    comment = _comment(repo, rest)
    if not isinstance(body, dict) or not isinstance(body.get("body"), str):
        raise error(422, 'Invalid request.\n\n"body" wasn\'t supplied.')
    comment |= {"body": body["body"], "updated_at": server._tick()}
    return 200, server.comment_json(repo, comment), {}


def list_labels(server: GitHubServer, repo: Repo, rest: str, q: dict, body: Any) -> Answer:
    page, headers = _paginate(server, repo, rest, q, sorted(repo.labels, key=str.lower))
    return 200, [server.label_json(repo, name) for name in page], headers


ROUTES = [  # (method, path after the repository, GitHub's OpenAPI path, handler)
    ("GET", r"issues", "/repos/{owner}/{repo}/issues", list_issues),
    ("POST", r"issues", "/repos/{owner}/{repo}/issues", create_issue),
    ("GET", r"issues/comments", "/repos/{owner}/{repo}/issues/comments", list_repo_comments),
    (
        "GET",
        r"issues/comments/\d+",
        "/repos/{owner}/{repo}/issues/comments/{comment_id}",
        get_comment,
    ),
    (
        "PATCH",
        r"issues/comments/\d+",
        "/repos/{owner}/{repo}/issues/comments/{comment_id}",
        update_comment,
    ),
    ("GET", r"issues/\d+", "/repos/{owner}/{repo}/issues/{issue_number}", get_issue),
    ("PATCH", r"issues/\d+", "/repos/{owner}/{repo}/issues/{issue_number}", update_issue),
    (
        "GET",
        r"issues/\d+/comments",
        "/repos/{owner}/{repo}/issues/{issue_number}/comments",
        list_issue_comments,
    ),
    (
        "POST",
        r"issues/\d+/comments",
        "/repos/{owner}/{repo}/issues/{issue_number}/comments",
        create_comment,
    ),
    ("GET", r"labels", "/repos/{owner}/{repo}/labels", list_labels),
]
REPO_PATH = re.compile(r"/repos/([^/]+)/([^/]+)/(.+)|/repositories/(\d+)/(.+)")


def _authenticate(server: GitHubServer, headers: dict[str, str]) -> None:
    if server.token is None:
        return
    given = headers.get("authorization", "")
    if not given:
        raise error(401, "Requires authentication")
    scheme, _, token = given.partition(" ")
    if scheme.lower() not in ("bearer", "token") or token != server.token:
        raise error(401, "Bad credentials")


def _check_rate_limit(server: GitHubServer) -> None:
    if time.time() >= server.reset_at:
        server.remaining, server.reset_at = server.rate_limit, int(time.time()) + 3600
    if server.remaining <= 0:
        message = f"API rate limit exceeded for user ID {server.user(server.login)['id']}."
        raise Reply(403, {"message": message, "documentation_url": RATE_DOCS})
    if server.secondary:
        wait = server.secondary.pop(0)
        message = "You have exceeded a secondary rate limit. Please wait a few minutes before you try again."
        docs = f"{RATE_DOCS}#about-secondary-rate-limits"
        raise Reply(
            429, {"message": message, "documentation_url": docs}, {"Retry-After": str(wait)}
        )


def _route(
    server: GitHubServer, method: str, path: str, query: dict, body: Any
) -> tuple[Answer, str]:
    found = REPO_PATH.fullmatch(path.rstrip("/"))
    if found is None:
        raise error(404, "Not Found")
    owner, name, rest, repo_id, rest_by_id = found.groups()
    renamed = server.renamed.get(f"{owner}/{name}".lower()) if owner else None
    if renamed is not None:  # GitHub redirects a renamed repository's old paths
        location = f"{server.base_url}/repositories/{renamed}/{rest}"
        body = {"message": "Moved Permanently", "url": location, "documentation_url": DOCS}
        raise Reply(301, body, {"Location": location})
    try:
        repo = server.repos[int(repo_id)] if repo_id else server.repo(owner, name)
    except KeyError:
        raise error(404, "Not Found") from None
    rest = rest or rest_by_id
    for verb, pattern, template, handler in ROUTES:
        if verb == method and re.fullmatch(pattern, rest):
            return handler(server, repo, rest, query, body), template
    raise error(404, "Not Found")


def answer(server: GitHubServer, method: str, raw_path: str, headers: dict, body: Any) -> Answer:
    """Status, JSON body (None: none) and headers for one request."""
    split = urlsplit(raw_path)
    query = dict(parse_qsl(split.query))
    extra = {
        "X-GitHub-Api-Version-Selected": "2022-11-28",
        "X-GitHub-Request-Id": uuid.uuid4().hex[:16].upper(),
    }
    charged = True
    with server._lock:
        try:
            server.api_version = headers.get("x-github-api-version", BASE_VERSION)
            if server.api_version not in API_VERSIONS:
                version = server.api_version
                server.api_version = BASE_VERSION
                raise error(400, f"Unsupported 'X-GitHub-Api-Version' header: {version}")
            _authenticate(server, headers)
            _check_rate_limit(server)
            (status, payload, route_headers), template = _route(
                server, method, split.path, query, body
            )
            extra |= route_headers
            if method == "GET" and status == 200:
                etag = 'W/"' + hashlib.sha256(json.dumps(payload).encode()).hexdigest()[:32] + '"'
                extra["ETag"] = etag
                wanted = {tag.strip() for tag in headers.get("if-none-match", "").split(",")}
                if etag in wanted or etag[2:] in wanted:
                    status, payload, charged = 304, None, False
            if server.schemas is not None and 200 <= status < 300 and payload is not None:
                try:
                    server.schemas.validate_response(
                        method, template, status, payload, server.api_version
                    )
                except Exception as exc:
                    server.schema_errors.append(f"{method} {template} {status}: {exc}"[:2000])
        except Reply as reply:
            status, payload = reply.status, reply.body
            extra |= reply.headers
            charged = status not in (401, 403)
        if charged:
            server.remaining -= 1
        extra |= {
            "X-RateLimit-Limit": str(server.rate_limit),
            "X-RateLimit-Remaining": str(max(server.remaining, 0)),
            "X-RateLimit-Reset": str(server.reset_at),
            "X-RateLimit-Used": str(server.rate_limit - max(server.remaining, 0)),
            "X-RateLimit-Resource": "core",
        }
        server.api_version = BASE_VERSION  # webhook payloads and direct calls get the base shape
    return status, payload, extra


def _make_handler(server: GitHubServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass

        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = raw.decode(errors="replace")
            headers = {k.lower(): v for k, v in self.headers.items()}
            server.requests.append(RecordedRequest(self.command, self.path, headers, body))
            status, payload, out_headers = answer(server, self.command, self.path, headers, body)
            data = b"" if payload is None else json.dumps(payload).encode()
            self.send_response(status)
            for name, value in out_headers.items():
                self.send_header(name, value)
            if status != 304:
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if status != 304:
                self.wfile.write(data)

        do_GET = do_POST = do_PATCH = do_DELETE = do_PUT = _serve

    return Handler
