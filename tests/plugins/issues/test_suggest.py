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
