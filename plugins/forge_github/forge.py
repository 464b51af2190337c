"""The GitHub forge: REST calls through githubkit, answers turned into the engine's records."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from githubkit import GitHub
from githubkit.exception import RateLimitExceeded, RequestError, RequestFailed
from githubkit.response import Response

from ctx.plugins.issues.sync.forge import (
    AuthFailed,
    BadSignature,
    ForgeError,
    ForgeLink,
    ForgeRateLimited,
    Gone,
    Moved,
    Page,
    RemoteComment,
    RemoteIssue,
    Unreachable,
    WebhookEvent,
)

API_VERSION = "2022-11-28"  # the version GitHub Enterprise Server and github.com both answer
PER_PAGE = 100
TIMEOUT_S = 20.0
REPO = re.compile(r"[A-Za-z0-9_.-]{1,100}/[A-Za-z0-9_.-]{1,100}")
ISSUE_NUMBER = re.compile(r"/issues/(\d+)$")
T = TypeVar("T")


def _when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _login(user: Any) -> str | None:
    return user.get("login") if isinstance(user, dict) else None


def issue_of(item: dict[str, Any]) -> RemoteIssue:
    labels = [lab if isinstance(lab, str) else lab.get("name", "") for lab in item["labels"]]
    milestone = item.get("milestone")
    return RemoteIssue(
        forge_id=int(item["id"]),
        number=int(item["number"]),
        title=str(item["title"]),
        body=item.get("body") or "",
        state=item["state"],
        state_reason=item.get("state_reason"),
        labels=tuple(name for name in labels if name),
        assignees=tuple(a["login"] for a in item.get("assignees") or []),
        milestone=milestone.get("title") if isinstance(milestone, dict) else None,
        author=_login(item.get("user")),
        url=item.get("html_url"),
        updated_at=_when(item["updated_at"]),
        is_pull="pull_request" in item,
        comments=int(item.get("comments") or 0),
        created_at=_when(item["created_at"]) if item.get("created_at") else None,
    )


def comment_of(item: dict[str, Any]) -> RemoteComment:
    found = ISSUE_NUMBER.search(item["issue_url"])
    if found is None:
        raise ForgeError(f"a comment without an issue number: {item['issue_url']!r}")
    return RemoteComment(
        forge_id=int(item["id"]),
        issue_number=int(found.group(1)),
        body=item.get("body") or "",
        author=_login(item.get("user")),
        url=item.get("html_url"),
        updated_at=_when(item["updated_at"]),
        created_at=_when(item["created_at"]) if item.get("created_at") else None,
    )


def _message(failed: RequestFailed) -> str:
    try:
        return str(failed.response.raw_response.json().get("message", ""))
    except (ValueError, AttributeError):
        return failed.response.raw_response.text[:200]


@contextmanager
def _errors() -> Iterator[None]:
    """githubkit's exceptions as the engine's."""
    try:
        yield
    except RateLimitExceeded as exc:
        until = datetime.now(UTC) + max(exc.retry_after, timedelta(seconds=1))
        raise ForgeRateLimited(until, f"GitHub rate limit: {_message(exc)}") from None
    except RequestFailed as exc:
        status, message = exc.response.status_code, _message(exc)
        if status == 401:
            raise AuthFailed(f"GitHub answered 401: {message}") from None
        if status == 410:
            raise Gone(f"GitHub answered 410: {message}") from None
        if status in (403, 429) and "rate limit" in message.lower():
            # a secondary limit without its headers: GitHub asks for at least a minute
            raise ForgeRateLimited(datetime.now(UTC) + timedelta(seconds=60), message) from None
        if status == 404:
            message += " (deleted, or the token cannot see it)"
        raise ForgeError(f"GitHub answered {status}: {message}") from None
    except RequestError as exc:
        raise Unreachable(f"cannot reach GitHub: {type(exc.exc).__name__}") from None


class GitHubForge:
    """One repository on one GitHub (or GitHub Enterprise) server."""

    def __init__(self, link: ForgeLink, token: str, *, transport: Any = None) -> None:
        self.owner, self.repo = link.repo.split("/", 1)
        self.gh = GitHub(
            token,
            base_url=(link.base_url.rstrip("/") + "/") if link.base_url else None,
            timeout=TIMEOUT_S,
            http_cache=False,
            auto_retry=False,
            follow_redirects=False,
            transport=transport,
        )
        self.headers = {"X-GitHub-Api-Version": API_VERSION}

    def close(self) -> None:
        client = getattr(self.gh, "_sync_client", None)
        if client is not None:
            client.close()

    def _call(self, send: Callable[..., Response[Any]], **kwargs: Any) -> Response[Any]:
        with _errors():
            response = send(self.owner, self.repo, headers=self.headers, **kwargs)
        if response.status_code == 301:
            raise Moved(response.headers.get("location", "elsewhere"))
        return response

    def _page(
        self,
        send: Callable[..., Response[Any]],
        read: Callable[[dict[str, Any]], T],
        since: datetime | None,
        page: int,
        etag: str | None,
        **kwargs: Any,
    ) -> Page:
        headers = {**self.headers, **({"If-None-Match": etag} if etag else {})}
        params: dict[str, Any] = {"sort": "updated", "direction": "asc", "per_page": PER_PAGE}
        if since is not None:
            params["since"] = since
        with _errors():
            response = send(self.owner, self.repo, headers=headers, page=page, **params, **kwargs)
        if response.status_code == 304:
            return Page(etag=etag, not_modified=True)
        if 300 <= response.status_code < 400:
            where = response.headers.get("location", "elsewhere")
            raise ForgeError(
                f"GitHub redirects {self.owner}/{self.repo} to {where} (renamed or transferred): "
                "point the link at the new name"
            )
        items = [read(item) for item in json.loads(response.content or b"[]")]
        has_next = 'rel="next"' in response.headers.get("link", "")
        return Page(items, response.headers.get("etag"), has_next)

    def list_issues(self, since: datetime | None, page: int, etag: str | None) -> Page:
        return self._page(
            self.gh.rest.issues.list_for_repo, issue_of, since, page, etag, state="all"
        )

    def list_comments(self, since: datetime | None, page: int, etag: str | None) -> Page:
        return self._page(self.gh.rest.issues.list_comments_for_repo, comment_of, since, page, etag)

    def get_issue(self, number: int) -> RemoteIssue:
        response = self._call(self.gh.rest.issues.get, issue_number=number)
        return issue_of(response.json())

    def issue_comments(self, number: int) -> list[RemoteComment]:
        found: list[RemoteComment] = []
        for page in range(1, 1000):
            response = self._call(
                self.gh.rest.issues.list_comments, issue_number=number, per_page=PER_PAGE,
                page=page,
            )  # fmt: skip
            found += [comment_of(item) for item in response.json()]
            if 'rel="next"' not in response.headers.get("link", ""):
                break
        return found

    def create_issue(self, fields: dict[str, Any]) -> RemoteIssue:
        response = self._call(self.gh.rest.issues.create, data=_issue_body(fields))
        return issue_of(response.json())

    def update_issue(self, number: int, fields: dict[str, Any]) -> RemoteIssue:
        response = self._call(
            self.gh.rest.issues.update, issue_number=number, data=_issue_body(fields)
        )
        return issue_of(response.json())

    def get_comment(self, forge_id: int) -> RemoteComment:
        response = self._call(self.gh.rest.issues.get_comment, comment_id=forge_id)
        return comment_of(response.json())

    def create_comment(self, number: int, body: str) -> RemoteComment:
        response = self._call(
            self.gh.rest.issues.create_comment, issue_number=number, data={"body": body}
        )
        return comment_of(response.json())

    def update_comment(self, forge_id: int, body: str) -> RemoteComment:
        response = self._call(
            self.gh.rest.issues.update_comment, comment_id=forge_id, data={"body": body}
        )
        return comment_of(response.json())


def _issue_body(fields: dict[str, Any]) -> dict[str, Any]:
    """The engine's fields as GitHub's issue body (same names, lists as lists)."""
    body = {
        k: v
        for k, v in fields.items()
        if k in ("title", "body", "state", "state_reason", "labels", "assignees")
    }
    if "state" in body and body["state"] == "open":
        body.pop("state_reason", None)
    return body


class GitHubKind:
    name = "github"

    def check_repo(self, repo: str) -> str:
        repo = repo.strip().strip("/")
        if not REPO.fullmatch(repo):
            raise ValueError(f"a GitHub repository is owner/name, not {repo!r}")
        return repo

    def open(self, link: ForgeLink, token: str) -> GitHubForge:
        return GitHubForge(link, token)

    def read_webhook(self, headers: Mapping[str, str], body: bytes) -> WebhookEvent:
        h = {k.lower(): v for k, v in headers.items()}
        delivery, event = h.get("x-github-delivery"), h.get("x-github-event")
        if not delivery or not event:
            raise BadSignature("not a GitHub delivery: X-GitHub-Delivery or X-GitHub-Event missing")
        try:
            payload = json.loads(body)
        except ValueError:
            raise BadSignature("the delivery's body is not JSON") from None
        payload = payload if isinstance(payload, dict) else {}
        repository = payload.get("repository")
        repo = repository.get("full_name") if isinstance(repository, dict) else None
        repo = repo if isinstance(repo, str) else ""
        if event not in ("issues", "issue_comment"):
            return WebhookEvent(delivery, repo, "ping" if event == "ping" else "other")
        issue = payload.get("issue")
        number = issue.get("number") if isinstance(issue, dict) else None
        numbers = (number,) if isinstance(number, int) and number > 0 else ()
        return WebhookEvent(delivery, repo, "issue" if event == "issues" else "comment", numbers)

    def verify_webhook(self, headers: Mapping[str, str], body: bytes, secret: str) -> None:
        given = {k.lower(): v for k, v in headers.items()}.get("x-hub-signature-256", "")
        wanted = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
        if not hmac.compare_digest(given.encode(), wanted.encode()):
            raise BadSignature("the X-Hub-Signature-256 does not match the link's webhook secret")


FORGE = GitHubKind()
