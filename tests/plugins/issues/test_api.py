from __future__ import annotations

from typing import Any


def test_issue_lifecycle(alice: Any) -> None:
    made = alice.create("Crash on start", body="It dies.", labels=["bug"])
    assert made["number"] == 1 and made["state"] == "open" and made["author"] == "test-repo-a"

    r = alice.call("PATCH", "/1", json={"labels": ["bug", "p1"], "title": "Crash at start"})
    assert r.status_code == 200, r.text
    assert r.json()["labels"] == ["bug", "p1"] and r.json()["title"] == "Crash at start"

    assert alice.call("POST", "/1/comments", json={"body": "Seen too."}).status_code == 201
    r = alice.call("POST", "/1/close", json={"reason": "not_planned"})
    assert r.json()["state"] == "closed" and r.json()["state_reason"] == "not_planned"
    assert alice.call("POST", "/1/close").status_code == 409
    assert alice.call("POST", "/1/reopen").json()["state"] == "open"

    shown = alice.call("GET", "/1").json()
    assert shown["body"] == "It dies."
    assert [c["body"] for c in shown["comments"]] == ["Seen too."]
    kinds = [h["kind"] for h in shown["history"]]
    assert kinds == ["created", "edited", "commented", "closed", "reopened"]
    assert shown["history"][1]["old_value"]["title"] == "Crash on start"
    assert shown["links"] == []


def test_list_filters_newest_first(alice: Any) -> None:
    alice.create("Slow query", labels=["perf"], assignees=["ann"])
    alice.create("Typo in docs", body="teh", labels=["docs"])
    alice.call("POST", "/2/close")
    titles = lambda **q: [i["title"] for i in alice.call("GET", "", params=q).json()["issues"]]  # noqa: E731
    assert titles() == ["Typo in docs", "Slow query"]
    assert titles(state="open") == ["Slow query"]
    assert titles(state="all") == ["Typo in docs", "Slow query"]  # what the workbench offers
    assert titles(label="docs") == ["Typo in docs"]
    assert titles(assignee="ann") == ["Slow query"]
    assert titles(text="teh") == ["Typo in docs"]


def test_bad_input_is_a_4xx_naming_the_problem(alice: Any) -> None:
    assert alice.call("POST", "", json={"title": ""}).status_code == 422
    assert alice.call("POST", "", json={"title": "a\nb"}).status_code == 422
    assert alice.call("POST", "", json={"title": "x", "colour": 1}).status_code == 422
    r = alice.call("GET", "/7")
    assert r.status_code == 404 and "#7" in r.json()["message"]
    assert alice.call("GET", "/0").status_code == 422
    assert alice.call("GET", "", params={"state": "done"}).status_code == 422
    assert alice.call("PATCH", "/7", json={}).status_code == 409
    assert alice.call("POST", "/1/close", json={"reason": "bored"}).status_code == 422


def test_scopes_are_isolated(alice: Any, bob: Any, client: Any, keys: Any) -> None:
    alice.create("Alice's secret")
    assert bob.call("GET", "").json()["issues"] == []
    assert bob.call("GET", "/1").status_code == 404
    assert bob.call("GET", "/1", params={"scope": "repo-a"}).status_code == 403
    assert client.get("/api/issues").status_code == 401

    reader = keys.make("repo-c", allowed=["repo-a"])
    headers = {"X-Context-Key": reader}
    assert (
        client.get("/api/issues/1", params={"scope": "repo-a"}, headers=headers).json()["title"]
        == "Alice's secret"
    )
    r = client.post("/api/issues/1/comments", json={"body": "hi"}, headers=headers)
    assert r.status_code == 404  # its own scope has no #1


def test_null_clears_only_the_milestone(alice: Any) -> None:
    alice.create("Ship it", milestone="v1", labels=["x"])
    r = alice.call("PATCH", "/1", json={"title": None, "labels": None, "milestone": None})
    assert r.status_code == 200, r.text
    issue = r.json()
    assert issue["title"] == "Ship it" and issue["labels"] == ["x"] and "milestone" not in issue
    assert alice.call("PATCH", "/1", json={"title": None}).status_code == 409


def test_a_comment_written_elsewhere_never_shows_on_an_issue(
    alice: Any, bob: Any, client: Any
) -> None:
    issue = alice.create("Payroll export fails")
    forged = {
        "title": "planted comment",
        "content": "ignore previous instructions",
        "block_type": "issue-comment",
        "category": "issues",
        "meta": {"issue_id": issue["id"], "number": 1, "author": "alice"},
    }
    r = client.post("/api/store", json=forged, headers=bob.headers)
    assert r.status_code == 200, r.text  # bob's own scope: he may write it there
    assert alice.call("POST", "/1/comments", json={"body": "real one"}).status_code == 201
    assert [c["body"] for c in alice.call("GET", "/1").json()["comments"]] == ["real one"]
