from __future__ import annotations

from typing import Any


def test_suggest_finds_a_near_duplicate(alice: Any, client: Any) -> None:
    alice.create(
        "Login fails with expired password token",
        body="Signing in with an expired password reset token shows a server error page.",
    )
    alice.create("Dark mode colours", body="The sidebar is too bright in dark mode.")
    client.post(
        "/api/store",
        json={"title": "Password reset tokens", "content": "Reset tokens expire after an hour."},
        headers=alice.headers,
    )
    r = alice.call(
        "POST",
        "/suggest",
        json={"title": "Expired password token breaks login", "body": "server error on sign in"},
    )
    assert r.status_code == 200, r.text
    found = r.json()
    assert found["duplicates"][0]["title"] == "Login fails with expired password token"
    assert all(d["block_type"] == "issue" for d in found["duplicates"])
    assert "Password reset tokens" in [x["title"] for x in found["related"]]


def test_guard_calls_a_draft_that_repeats_an_issue_a_near_duplicate(
    alice: Any, bob: Any, app: Any
) -> None:
    from ctx.core.runtime import drain

    title = "Uploads over 2 GB fail with a timeout"
    body = "Any upload larger than two gigabytes stops after sixty seconds with a 504."
    alice.create(title, body=body)
    alice.create("Dark mode colours", body="The sidebar is too bright in dark mode.")
    bob.create(title, body=body)  # another scope: alice must not hear of it
    drain(app, "embed")
    found = alice.call("POST", "/suggest", json={"title": title, "body": body}).json()
    first = found["duplicates"][0]
    assert first["title"] == title and first["verdict"] == "near_duplicate"
    assert first["similarity"] > 0.95 and first["scope"] == "repo-a"
    assert all(d["scope"] == "repo-a" for d in found["duplicates"])
    other = alice.call("POST", "/suggest", json={"title": "Dark theme", "body": "colours"}).json()
    assert all(d["verdict"] != "near_duplicate" for d in other["duplicates"])
