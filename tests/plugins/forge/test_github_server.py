"""The loopback GitHub server (tests/support/github_server.py) against GitHub's own descriptions.

Every 2xx body the server sends is checked against the response schema in GitHub's published
OpenAPI description (npm @octokit/openapi); answers are compared with real exchanges recorded by
octokit (npm @octokit/fixtures). Both come from tests/support/forge, installed by npm: without npm
these tests skip. The clients are githubkit (what the sync uses) and httpx for raw wire checks.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import forge_data
import httpx
import jsonschema
import pytest
from github_server import ROUTES, GitHubServer, Repo, sign, webhook_delivery
from githubkit import GitHub
from githubkit.exception import (
    PrimaryRateLimitExceeded,
    RequestFailed,
    SecondaryRateLimitExceeded,
)

TOKEN = "ghp_loopback"
NEXT = "2026-03-10"  # githubkit's default API version, with breaking changes over 2022-11-28
AUTH = {"Authorization": f"Bearer {TOKEN}", "Accept": "application/vnd.github+json"}


@pytest.fixture(scope="module")
def data() -> forge_data.ForgeData:
    found = forge_data.forge_data()
    if found is None:
        pytest.skip(forge_data.missing_reason())
    return found


@pytest.fixture(scope="module")
def schemas(data: forge_data.ForgeData) -> forge_data.OpenAPISchemas:
    loaded = forge_data.openapi_schemas()
    assert loaded is not None
    return loaded


@pytest.fixture
def server(schemas: forge_data.OpenAPISchemas) -> Iterator[GitHubServer]:
    with GitHubServer(token=TOKEN, schemas=schemas) as running:
        yield running
        assert running.schema_errors == []  # nothing the server sent drifted from GitHub's shapes


@pytest.fixture
def repo(server: GitHubServer) -> Repo:
    return server.add_repo("octo-org", "hello")


@pytest.fixture
def http(server: GitHubServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.base_url, headers=AUTH, timeout=10) as client:
        yield client


def githubkit(server: GitHubServer, **options: Any) -> GitHub:
    options = {"http_cache": False, "auto_retry": False} | options
    return GitHub(TOKEN, base_url=server.base_url + "/", timeout=10, **options)


def rels(link: str | None) -> list[str]:
    return [part.split('rel="')[1].rstrip('"') for part in (link or "").split(", ") if part]


# -- pagination ---------------------------------------------------------------------------------


def test_githubkit_pages_through_every_issue(server: GitHubServer, repo: Repo) -> None:
    numbers = [server.add_issue(repo, f"issue {i}") for i in range(7)]
    gh = githubkit(server)
    seen = [
        issue.number
        for issue in gh.rest.paginate(
            gh.rest.issues.list_for_repo, owner="octo-org", repo="hello", per_page=3
        )
    ]
    assert seen == sorted(numbers, reverse=True)  # created, newest first: GitHub's default
    # githubkit asks for page 1 without a page number and stops at the first short page
    assert [httpx.URL(r.path).params.get("page") for r in server.requests] == [None, "2", "3"]
    # githubkit names its API version on the first request only: Link pages get the base one
    assert [r.headers.get("x-github-api-version") for r in server.requests] == [
        "2026-03-10",
        None,
        None,
    ]


def test_link_headers_lead_through_the_pages(server: GitHubServer, repo: Repo, http) -> None:
    for i in range(7):
        server.add_issue(repo, f"issue {i}", state="closed" if i % 2 else "open")
    url: str | None = "/repos/octo-org/hello/issues?state=all&per_page=3"
    pages, links = [], []
    while url:
        answer = http.get(url)
        assert answer.status_code == 200
        pages.append([issue["number"] for issue in answer.json()])
        links.append(rels(answer.headers.get("link")))
        url = answer.links.get("next", {}).get("url")
    assert pages == [[7, 6, 5], [4, 3, 2], [1]]
    assert links == [["next", "last"], ["prev", "next", "last", "first"], ["prev", "first"]]
    assert "state=all" in server.requests[-1].path  # the filter travels with the links


def test_pagination_replays_the_recorded_exchange(data, server: GitHubServer, http) -> None:
    """octokit's paginate-issues scenario: 13 issues, per_page=3, five pages. The loopback server,
    seeded with the same issues, answers the same requests with the same pages, keys and links."""
    recorded = data.scenario("paginate-issues")
    repo = server.add_repo("octokit-fixture-org", "paginate-issues")
    server.seed_issues(repo, [issue for exchange in recorded for issue in exchange["response"]])
    url: str | None = "/repos/octokit-fixture-org/paginate-issues/issues?per_page=3"
    for exchange in recorded:
        assert url is not None
        answer = http.get(url)
        assert answer.status_code == exchange["status"]
        ours, theirs = answer.json(), exchange["response"]
        assert [i["number"] for i in ours] == [i["number"] for i in theirs]
        assert [sorted(i) for i in ours] == [sorted(i) for i in theirs]
        assert [sorted(i["user"]) for i in ours] == [sorted(i["user"]) for i in theirs]
        assert [i["created_at"] for i in ours] == [i["created_at"] for i in theirs]
        assert rels(answer.headers.get("link")) == rels(exchange["headers"].get("link"))
        recorded_names = {h for h in exchange["headers"] if h.startswith("x-ratelimit-")}
        assert recorded_names <= {h.lower() for h in answer.headers}
        url = answer.links.get("next", {}).get("url")
    assert url is None


def test_labels_match_the_recorded_exchange(data, server: GitHubServer, http) -> None:
    recorded = data.scenario("labels")[0]
    repo = server.add_repo("octokit-fixture-org", "labels")
    for label in recorded["response"]:
        server.add_label(repo, label["name"], label["color"], label["description"])
    answer = http.get("/repos/octokit-fixture-org/labels/labels?per_page=100")
    assert answer.status_code == recorded["status"]
    for ours, theirs in zip(answer.json(), recorded["response"], strict=True):
        # archived_at/archived_by came after the recording (githubkit's models require them)
        assert set(ours) - set(theirs) == {"archived_at", "archived_by"}
        assert set(theirs) <= set(ours)
    assert {(x["name"], x["color"]) for x in answer.json()} == {
        (x["name"], x["color"]) for x in recorded["response"]
    }


def test_created_issue_matches_the_recorded_exchange(data, server: GitHubServer, http) -> None:
    recorded = data.scenario("add-labels-to-issue")[0]
    server.add_repo("octokit-fixture-org", "add-labels-to-issue")
    answer = http.post(recorded["path"], json=recorded["body"])
    assert answer.status_code == recorded["status"] == 201
    assert sorted(answer.json()) == sorted(recorded["response"])
    assert answer.headers["location"].endswith(
        "/repos/octokit-fixture-org/add-labels-to-issue/issues/1"
    )


def test_pull_requests_are_listed_and_flagged(server: GitHubServer, repo: Repo, http) -> None:
    server.add_issue(repo, "an issue")
    server.add_issue(repo, "a pull request", pull_request=True)
    listed = {i["title"]: i for i in http.get("/repos/octo-org/hello/issues").json()}
    assert "pull_request" not in listed["an issue"]
    assert listed["a pull request"]["pull_request"]["url"].endswith("/pulls/2")


# -- incremental reads --------------------------------------------------------------------------


def test_a_repeated_conditional_get_is_a_free_304(server: GitHubServer, repo: Repo, http) -> None:
    server.add_issue(repo, "cached")
    first = http.get("/repos/octo-org/hello/issues")
    etag, remaining = first.headers["etag"], first.headers["x-ratelimit-remaining"]
    again = http.get("/repos/octo-org/hello/issues", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == etag
    assert again.headers["x-ratelimit-remaining"] == remaining  # a 304 costs no rate limit
    server.edit_issue(repo, 1, title="changed")
    changed = http.get("/repos/octo-org/hello/issues", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.json()[0]["title"] == "changed"
    assert int(changed.headers["x-ratelimit-remaining"]) == int(remaining) - 1
    # githubkit sends the validator too, and sees the 304 as an answer without a body
    gh = githubkit(server)
    item = gh.rest.issues.get("octo-org", "hello", 1)
    etag = item.headers["etag"]
    base_version = http.get("/repos/octo-org/hello/issues/1")
    assert etag != base_version.headers["etag"]  # another API version, another representation
    not_modified = gh.rest.issues.get("octo-org", "hello", 1, headers={"If-None-Match": etag})
    assert not_modified.status_code == 304
    remaining = base_version.headers["x-ratelimit-remaining"]
    assert not_modified.headers["x-ratelimit-remaining"] == remaining


def test_since_selects_what_changed(server: GitHubServer, repo: Repo) -> None:
    for i in range(3):
        server.add_issue(repo, f"issue {i}")
    cursor = server.now + timedelta(seconds=1)
    server.edit_issue(repo, 2, body="edited on GitHub")
    comment = server.add_comment(repo, 3, "a remote comment")
    gh = githubkit(server)
    changed = gh.rest.issues.list_for_repo(
        "octo-org", "hello", state="all", since=cursor, sort="updated", direction="asc"
    ).parsed_data
    assert [i.number for i in changed] == [2, 3]  # the comment touched issue 3 too
    comments = gh.rest.issues.list_comments_for_repo("octo-org", "hello", since=cursor)
    assert [c.id for c in comments.parsed_data] == [comment]


# -- writes -------------------------------------------------------------------------------------


def test_create_edit_close_and_comment_round_trip(server: GitHubServer, repo: Repo) -> None:
    gh = githubkit(server)
    created = gh.rest.issues.create(
        "octo-org", "hello", title="Sync me", body="from ctx", labels=["bug"], assignees=["ada"]
    ).parsed_data
    assert (created.number, created.state, created.state_reason) == (1, "open", None)
    assert [label.name for label in created.labels] == ["bug"]  # type: ignore[union-attr]
    assert [u.login for u in created.assignees or []] == ["ada"]
    closed = gh.rest.issues.update(
        "octo-org", "hello", 1, title="Synced", state="closed", state_reason="not_planned"
    ).parsed_data
    assert (closed.title, closed.state, closed.state_reason) == ("Synced", "closed", "not_planned")
    assert closed.closed_at is not None and closed.closed_by is not None
    reopened = gh.rest.issues.update("octo-org", "hello", 1, state="open").parsed_data
    assert (reopened.state_reason, reopened.closed_at) == ("reopened", None)
    comment = gh.rest.issues.create_comment("octo-org", "hello", 1, body="first").parsed_data
    edited = gh.rest.issues.update_comment("octo-org", "hello", comment.id, body="second")
    assert edited.parsed_data.body == "second"
    assert edited.parsed_data.updated_at > comment.updated_at
    listed = gh.rest.issues.list_comments("octo-org", "hello", 1).parsed_data
    assert [c.body for c in listed] == ["second"]
    assert gh.rest.issues.get("octo-org", "hello", 1).parsed_data.comments == 1
    labels = gh.rest.issues.list_labels_for_repo("octo-org", "hello").parsed_data
    assert [label.name for label in labels] == ["bug"]
    methods = [(r.method, r.path.split("?")[0]) for r in server.requests]
    assert ("POST", "/repos/octo-org/hello/issues") in methods
    assert server.requests[0].body["title"] == "Sync me"
    assert server.requests[0].headers["authorization"] == f"token {TOKEN}"  # githubkit's scheme


def test_an_issue_without_a_title_is_refused(server: GitHubServer, repo: Repo, http) -> None:
    answer = http.post("/repos/octo-org/hello/issues", json={"body": "no title"})
    assert answer.status_code == 422
    assert answer.json()["errors"][0] == {
        "resource": "Issue",
        "code": "missing_field",
        "field": "title",
    }


# -- failures -----------------------------------------------------------------------------------


def test_an_exhausted_rate_limit_is_a_403(server: GitHubServer, repo: Repo, http) -> None:
    server.exhaust_rate_limit(reset_in=60)
    answer = http.get("/repos/octo-org/hello/issues")
    assert answer.status_code == 403
    assert answer.json()["message"].startswith("API rate limit exceeded")
    assert answer.headers["x-ratelimit-remaining"] == "0"
    assert int(answer.headers["x-ratelimit-reset"]) >= int(time.time()) + 58
    gh = githubkit(server)
    with pytest.raises(PrimaryRateLimitExceeded) as raised:
        gh.rest.issues.list_for_repo("octo-org", "hello")
    assert raised.value.retry_after.total_seconds() > 50


def test_the_rate_limit_comes_back_at_its_reset(server: GitHubServer, repo: Repo, http) -> None:
    server.exhaust_rate_limit(reset_in=1)
    assert http.get("/repos/octo-org/hello/issues").status_code == 403
    time.sleep(1.1)
    answer = http.get("/repos/octo-org/hello/issues")
    assert answer.status_code == 200
    assert int(answer.headers["x-ratelimit-remaining"]) == server.rate_limit - 1


def test_a_secondary_limit_is_a_429_with_retry_after(
    server: GitHubServer, repo: Repo, http
) -> None:
    server.secondary_limit(retry_after=1, count=2)
    answer = http.get("/repos/octo-org/hello/issues")
    assert answer.status_code == 429 and answer.headers["retry-after"] == "1"
    assert "secondary rate limit" in answer.json()["message"]
    gh = githubkit(server)
    with pytest.raises(SecondaryRateLimitExceeded):
        gh.rest.issues.list_for_repo("octo-org", "hello")
    server.secondary_limit(retry_after=1)
    started = time.monotonic()
    patient = githubkit(server, auto_retry=True)
    assert patient.rest.issues.list_for_repo("octo-org", "hello").status_code == 200
    assert time.monotonic() - started >= 0.9  # githubkit waited as told, then retried


def test_a_deleted_issue_is_gone(server: GitHubServer, repo: Repo, http) -> None:
    server.add_issue(repo, "doomed")
    server.delete_issue(repo, 1)
    answer = http.get("/repos/octo-org/hello/issues/1")
    assert answer.status_code == 410
    assert answer.json()["message"] == "This issue was deleted"
    assert http.get("/repos/octo-org/hello/issues?state=all").json() == []
    gh = githubkit(server)
    with pytest.raises(RequestFailed) as raised:
        gh.rest.issues.get("octo-org", "hello", 1)
    assert raised.value.response.status_code == 410


def test_a_transferred_issue_redirects(server: GitHubServer, repo: Repo, http) -> None:
    other = server.add_repo("octo-org", "elsewhere")
    server.add_issue(other, "already there")
    server.add_issue(repo, "moving", body="keep me")
    new_number = server.transfer_issue(repo, 1, other)
    answer = http.get("/repos/octo-org/hello/issues/1")
    assert answer.status_code == 301
    assert answer.headers["location"] == f"{server.base_url}/repositories/{other.id}/issues/2"
    assert answer.json()["message"] == "Moved Permanently"
    gh = githubkit(server)
    moved = gh.rest.issues.get("octo-org", "hello", 1).parsed_data
    assert (moved.number, moved.body) == (new_number, "keep me")
    assert moved.repository_url.endswith("/repos/octo-org/elsewhere")


def test_a_wrong_token_is_refused(server: GitHubServer, repo: Repo, http) -> None:
    answer = http.get("/repos/octo-org/hello/issues", headers={"Authorization": "Bearer nope"})
    assert answer.status_code == 401
    assert answer.json() == {
        "message": "Bad credentials",
        "documentation_url": "https://docs.github.com/rest",
        "status": "401",
    }
    stranger = GitHub("nope", base_url=server.base_url + "/", http_cache=False)
    with pytest.raises(RequestFailed) as raised:
        stranger.rest.issues.get("octo-org", "hello", 1)
    assert raised.value.response.status_code == 401


def test_an_unknown_repository_is_not_found(server: GitHubServer, http) -> None:
    answer = http.get("/repos/nobody/nothing/issues")
    assert answer.status_code == 404 and answer.json()["message"] == "Not Found"


# -- webhooks -----------------------------------------------------------------------------------


class Receiver:
    """What the sync's webhook endpoint must do: check the HMAC, refuse a replayed delivery."""

    def __init__(self, secret: str) -> None:
        self.secret, self.seen, self.events = secret, set[str](), list[tuple[str, Any]]()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                mac = hmac.new(receiver.secret.encode(), body, hashlib.sha256).hexdigest()
                delivery = self.headers["X-GitHub-Delivery"]
                if not hmac.compare_digest(f"sha256={mac}", self.headers["X-Hub-Signature-256"]):
                    status = 401
                elif delivery in receiver.seen:
                    status = 409
                else:
                    receiver.seen.add(delivery)
                    receiver.events.append((self.headers["X-GitHub-Event"], json.loads(body)))
                    status = 202
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/api/forge/github/webhook"


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    running = Receiver("s3cret")
    yield running
    running.httpd.shutdown()
    running.httpd.server_close()


def test_signed_webhooks_verify_and_replays_are_visible(
    server: GitHubServer, repo: Repo, receiver: Receiver, schemas
) -> None:
    server.add_issue(repo, "hooked")
    comment = server.add_comment(repo, 1, "hello")
    opened = webhook_delivery("issues", server.issue_event(repo, 1, "opened"), "s3cret")
    assert opened.signature == sign(opened.body, "s3cret")
    assert opened.send(receiver.url).status_code == 202
    assert opened.send(receiver.url).status_code == 409  # the same delivery id again
    assert opened.with_bad_signature().send(receiver.url).status_code == 401
    commented = webhook_delivery(
        "issue_comment", server.comment_event(repo, comment, "created"), "s3cret"
    )
    assert commented.headers["X-GitHub-Delivery"] != opened.headers["X-GitHub-Delivery"]
    assert commented.send(receiver.url).status_code == 202
    assert [(event, body["action"]) for event, body in receiver.events] == [
        ("issues", "opened"),
        ("issue_comment", "created"),
    ]
    schemas.validate("webhook-issues-opened", receiver.events[0][1])
    schemas.validate("webhook-issue-comment-created", receiver.events[1][1])
    edited = server.issue_event(repo, 1, "edited", changes={"title": {"from": "hooked before"}})
    schemas.validate("webhook-issues-edited", edited)


# -- the schemas themselves ---------------------------------------------------------------------


def test_every_route_has_a_published_schema(schemas: forge_data.OpenAPISchemas) -> None:
    for method, _, path, _ in ROUTES:
        status = 201 if method == "POST" else 200
        assert schemas.response_schema(method, path, status) is not None, (method, path)


def test_the_schema_check_catches_drift(server: GitHubServer, repo: Repo, schemas) -> None:
    server.add_issue(repo, "shape")
    issue = server.issue_json(repo, repo.issues[1])
    schemas.validate("issue", issue)
    for broken in ({**issue, "id": "1"}, {k: v for k, v in issue.items() if k != "number"}):
        with pytest.raises(jsonschema.ValidationError):
            schemas.validate("issue", broken)
    with pytest.raises(jsonschema.ValidationError):
        schemas.validate("issue", {**issue, "state_reason": "bored"})
    schemas.validate("issue", {**issue, "body": None, "state_reason": None})  # nullable


def test_reset_forgets_everything(server: GitHubServer, repo: Repo, http) -> None:
    server.add_issue(repo, "x")
    http.get("/repos/octo-org/hello/issues")
    server.exhaust_rate_limit()
    server.reset()
    assert (server.repos, server.requests, server.remaining) == ({}, [], server.rate_limit)


def test_without_npm_the_forge_tests_skip(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forge_data.shutil, "which", lambda name: None)
    assert "npm is not installed" in (forge_data._npm_ci() or "")


def test_answers_follow_the_requested_api_version(server: GitHubServer, repo: Repo, http) -> None:
    server.add_issue(repo, "versioned", assignees=["ada"])
    base = http.get("/repos/octo-org/hello/issues/1").json()
    assert base["assignee"]["login"] == "ada"
    newer = http.get("/repos/octo-org/hello/issues/1", headers={"X-GitHub-Api-Version": NEXT})
    assert "assignee" not in newer.json()  # the description's breaking change for 2026-03-10
    refused = http.get("/repos/octo-org/hello/issues/1", headers={"X-GitHub-Api-Version": "1999"})
    assert refused.status_code == 400


def test_versioned_schemas_apply_the_breaking_changes(server: GitHubServer, repo: Repo, schemas):
    assert NEXT in schemas.api_versions()
    server.add_issue(repo, "versioned")
    issue = server.issue_json(repo, repo.issues[1])
    without_assignee = {k: v for k, v in issue.items() if k != "assignee"}
    schemas.validate("issue", without_assignee, NEXT)
    with pytest.raises(jsonschema.ValidationError):
        schemas.validate("issue", without_assignee)  # 2022-11-28 requires it


def test_list_filters(server: GitHubServer, repo: Repo, http) -> None:
    server.add_issue(repo, "open bug", labels=["bug"])
    server.add_issue(repo, "closed bug", labels=["bug"], state="closed")
    server.add_issue(repo, "open idea", labels=["idea"])

    def titles(query: str) -> list[str]:
        return [i["title"] for i in http.get(f"/repos/octo-org/hello/issues?{query}").json()]

    assert titles("") == ["open idea", "open bug"]
    assert titles("state=closed") == ["closed bug"]
    assert titles("state=all&labels=bug&direction=asc") == ["open bug", "closed bug"]
    assert http.get("/repos/octo-org/hello/issues?state=shut").status_code == 422
    first = server.add_comment(repo, 1, "one")
    cursor = server.now + timedelta(seconds=1)
    second = server.add_comment(repo, 1, "two")
    comments = http.get(
        f"/repos/octo-org/hello/issues/1/comments?since={cursor:%Y-%m-%dT%H:%M:%SZ}"
    )
    assert [c["id"] for c in comments.json()] == [second] != [first]
