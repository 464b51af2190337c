"""The sync where it is easy to lose or double something: resolutions that keep the other
side's other edits, bodies that repeat titles, milestones kept here, comments of issues met late,
a scope linked again, one bad record among good ones, renamed repositories, lost access, and
webhooks that cannot be verified."""

from __future__ import annotations

from datetime import UTC, datetime

from github_server import webhook_delivery
from sync_kit import HOOK_SECRET, Synced


def _conflicted_body(synced: Synced) -> tuple[int, int]:
    gh, repo = synced.gh, synced.repo
    n = gh.add_issue(repo, "Title", "Base")
    synced.sync()
    number = synced.local(n)["number"]
    synced.api("PATCH", f"/{number}", json={"body": "Ours", "labels": ["mine"]})
    gh.edit_issue(repo, n, body="Theirs", title="Remote title")
    assert synced.sync()["conflicts"] == 1
    return n, number


def test_taking_local_keeps_the_remote_edit_of_another_field(synced: Synced) -> None:
    n, _ = _conflicted_body(synced)
    (conflict,) = synced.conflicts()
    assert conflict["fields"] == ["body"]
    synced.api("POST", f"/sync/conflicts/{conflict['id']}/resolve", json={"take": "local"})
    synced.drain()
    remote, local = synced.repo.issues[n], synced.local(n)
    assert remote["body"] == local["body"] == "Ours"
    assert remote["title"] == local["title"] == "Remote title"
    assert remote["labels"] == local["labels"] == ["mine"]


def test_taking_remote_keeps_the_local_edit_of_another_field(synced: Synced) -> None:
    n, _ = _conflicted_body(synced)
    (conflict,) = synced.conflicts()
    synced.api("POST", f"/sync/conflicts/{conflict['id']}/resolve", json={"take": "remote"})
    synced.drain()
    synced.sync()
    remote, local = synced.repo.issues[n], synced.local(n)
    assert remote["body"] == local["body"] == "Theirs"
    assert remote["labels"] == local["labels"] == ["mine"]
    assert remote["title"] == local["title"] == "Remote title"


def test_labels_added_on_both_sides_are_a_union_not_a_conflict(synced: Synced) -> None:
    gh, repo = synced.gh, synced.repo
    n = gh.add_issue(repo, "Labelled", "", labels=["a", "gone"])
    synced.sync()
    number = synced.local(n)["number"]
    synced.api("PATCH", f"/{number}", json={"labels": ["a", "gone", "ours"]})
    gh.edit_issue(repo, n, labels=["a", "theirs"])
    report = synced.sync()
    assert report["conflicts"] == 0
    assert sorted(repo.issues[n]["labels"]) == ["a", "ours", "theirs"]
    assert synced.local(n)["labels"] == ["a", "ours", "theirs"]


def test_a_remote_body_that_repeats_the_title_is_never_erased(synced: Synced) -> None:
    gh, repo = synced.gh, synced.repo
    n = gh.add_issue(repo, "Same words", "Same words")
    synced.sync()
    gh.add_comment(repo, n, "bump")  # the issue is listed again
    synced.sync()
    synced.sync()
    assert repo.issues[n]["body"] == "Same words"


def test_a_milestone_set_here_stays_until_the_forge_sets_one(synced: Synced) -> None:
    gh, repo = synced.gh, synced.repo
    n = gh.add_issue(repo, "Planned", "")
    synced.sync()
    number = synced.local(n)["number"]
    synced.api("PATCH", f"/{number}", json={"milestone": "v2"})
    gh.edit_issue(repo, n, title="Planned, retitled")
    synced.sync()
    assert synced.local(n)["milestone"] == "v2"
    repo.issues[n]["milestone"] = gh.milestone(repo, 3, "v3")
    gh.edit_issue(repo, n, body="now with a milestone")
    synced.sync()
    assert synced.local(n)["milestone"] == "v3"


def test_comments_of_an_issue_met_late_are_fetched_with_it(synced: Synced) -> None:
    gh, repo = synced.gh, synced.repo
    bad = gh.add_issue(repo, "Too many labels", "", labels=[f"l{i}" for i in range(60)])
    gh.add_comment(repo, bad, "an old comment")
    assert synced.sync()["skipped"] == 2  # the issue, and its comment with it
    gh.edit_issue(repo, bad, labels=["fixed"])  # fixed on GitHub: the issue comes in
    synced.sync()
    assert [c["body"] for c in synced.local(bad)["comments"]] == ["an old comment"]


def test_a_scope_linked_again_doubles_nothing(synced: Synced) -> None:
    gh, repo = synced.gh, synced.repo
    n = gh.add_issue(repo, "From GitHub", "")
    gh.add_comment(repo, n, "a remote comment")
    synced.api("POST", "", json={"title": "From ctx", "body": "local"})
    synced.sync()
    assert len(repo.issues) == 2 and len(synced.issues()) == 2
    r = synced.client.delete(f"/api/issues/sync/links/{synced.link['id']}", headers=synced.admin)
    assert r.status_code == 200, r.text
    body = {"scope": synced.link["scope"], "repo": "octo-org/hello", "token_secret": "gh-token",
            "base_url": gh.base_url}  # fmt: skip
    r = synced.client.post("/api/issues/sync/links", json=body, headers=synced.admin)
    assert r.status_code == 201, r.text
    report = synced.sync()
    assert report["created_local"] == report["created_remote"] == 0, report
    assert report["conflicts"] == 0
    assert len(repo.issues) == 2 and len(synced.issues()) == 2
    assert len(repo.comments) == 1 and len(synced.local(n)["comments"]) == 1
    number = synced.local(n)["number"]
    synced.api("PATCH", f"/{number}", json={"body": "synced again"})
    synced.sync()
    assert repo.issues[n]["body"] == "synced again"


def test_one_failing_record_does_not_hold_back_the_others(synced: Synced) -> None:
    gh, repo = synced.gh, synced.repo
    doomed = gh.add_issue(repo, "Deleted quietly", "")
    fine = gh.add_issue(repo, "Fine", "")
    synced.sync()
    gh.delete_issue(repo, doomed)  # no webhook: nothing noticed it
    synced.api("POST", f"/{synced.local(doomed)['number']}/comments", json={"body": "hello?"})
    synced.api("PATCH", f"/{synced.local(fine)['number']}", json={"title": "Fine, edited here"})
    report = synced.sync()
    assert report["error"] is None
    assert repo.issues[fine]["title"] == "Fine, edited here"
    assert report["gone"] == 1  # the comment's create found the issue gone
    assert synced.sync()["error"] is None


def test_a_renamed_repository_is_a_clear_error(synced: Synced) -> None:
    synced.gh.add_issue(synced.repo, "One", "")
    synced.sync()
    synced.gh.rename_repo(synced.repo, "hello-renamed")
    report = synced.sync()
    assert "renamed or transferred" in report["error"]
    assert "point the link at the new name" in report["error"]


def test_lost_access_unlinks_nothing(synced: Synced) -> None:
    gh, repo = synced.gh, synced.repo
    n = gh.add_issue(repo, "Visible", "")
    synced.sync()
    number = synced.local(n)["number"]
    hidden = repo.issues.pop(n)  # a 404, as for a token that lost the repository
    synced.api("PATCH", f"/{number}", json={"body": "edited"})
    report = synced.sync()
    assert report["gone"] == 0 and report["skipped"] == 1
    assert "cannot see it" in report["problems"][0]
    repo.issues[n] = hidden
    synced.sync()
    assert repo.issues[n]["body"] == "edited"


def test_a_targeted_run_does_not_postpone_the_periodic_pull(synced: Synced) -> None:
    gh, repo = synced.gh, synced.repo
    n = gh.add_issue(repo, "Hooked", "")
    synced.sync()
    with synced.app.connection() as conn:
        conn.execute("UPDATE issue_forge_links SET next_pull_at = now() - interval '1 minute'")
    gh.edit_issue(repo, n, body="v2")
    delivery = webhook_delivery("issues", gh.issue_event(repo, n, "edited"), HOOK_SECRET)
    assert delivery.send_with(synced.client).status_code == 202
    synced.drain()
    with synced.app.connection() as conn:
        due = conn.execute("SELECT next_pull_at FROM issue_forge_links").fetchone()
    assert due["next_pull_at"] <= datetime.now(UTC)


def test_webhooks_that_cannot_be_verified_say_401_and_nothing_more(synced: Synced) -> None:
    gh, repo = synced.gh, synced.repo
    n = gh.add_issue(repo, "Hooked", "")
    event = gh.issue_event(repo, n, "edited")
    with synced.app.connection() as conn:
        conn.execute("DELETE FROM context_secrets WHERE name = 'gh-hook'")
    r = webhook_delivery("issues", event, HOOK_SECRET).send_with(synced.client)
    assert r.status_code == 401 and "gh-hook" not in r.text
    odd = webhook_delivery("issues", {**event, "issue": "x"}, HOOK_SECRET)
    assert odd.send_with(synced.client).status_code == 401
    junk = webhook_delivery("issues", {"repository": {"full_name": 5}}, HOOK_SECRET)
    assert junk.send_with(synced.client).status_code == 401
