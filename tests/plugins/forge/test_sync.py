"""Two-way issue sync against the loopback GitHub server, through REST, the job and webhooks."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from github_server import webhook_delivery
from sync_kit import HOOK_SECRET, SCOPE, Synced


def test_a_first_sync_pulls_issues_and_comments_but_not_pull_requests(synced: Synced) -> None:
    gh, repo = synced.gh, synced.repo
    one = gh.add_issue(repo, "Crash on start", "It crashes.", labels=["bug"], assignees=["mona"])
    gh.add_issue(repo, "A pull request", "diff", pull_request=True)
    two = gh.add_issue(repo, "Docs typo", None, state="closed", state_reason="completed")
    gh.add_comment(repo, one, "Seen it too.", user="hubot")
    report = synced.sync()
    assert report["created_local"] == 3  # two issues, one comment
    assert report["error"] is None and report["conflicts"] == 0
    issues = synced.issues()
    assert [i["forge_number"] for i in issues] == [one, two]
    crash = synced.local(one)
    assert crash["title"] == "Crash on start" and crash["body"] == "It crashes."
    assert crash["labels"] == ["bug"] and crash["assignees"] == ["mona"]
    assert crash["forge"] == "github" and crash["forge_repo"] == "octo-org/hello"
    assert crash["url"] == f"https://github.com/octo-org/hello/issues/{one}"
    assert [c["body"] for c in crash["comments"]] == ["Seen it too."]
    assert crash["comments"][0]["author"] == "hubot"
    assert crash["history"][0]["kind"] == "synced"
    assert synced.local(two)["state"] == "closed"


def test_an_unchanged_remote_answers_304_and_costs_no_rate_limit(synced: Synced) -> None:
    gh, repo = synced.gh, synced.repo
    for n in range(130):  # two pages of 100
        gh.add_issue(repo, f"Issue {n}", f"Body {n}")
    first = synced.sync()
    assert first["created_local"] == 130
    assert len(synced.issues()) == 130
    before = gh.remaining
    second = synced.sync()
    assert second["not_modified"] == 2  # issues and comments listings
    assert second["created_local"] == second["pulled"] == second["pushed"] == 0
    assert gh.remaining == before  # 304s are free
    sent = [r for r in gh.requests if r.method == "GET"][-2:]
    assert all(r.headers.get("if-none-match") for r in sent)


def test_local_issues_and_comments_are_created_remotely(synced: Synced) -> None:
    r = synced.api("POST", "", json={"title": "Made here", "body": "Local body", "labels": ["x"]})
    assert r.status_code == 201, r.text
    number = r.json()["number"]
    report = synced.sync()
    assert report["created_remote"] == 1
    remote = list(synced.repo.issues.values())
    assert [(i["title"], i["body"], i["labels"]) for i in remote] == [
        ("Made here", "Local body", ["x"])
    ]
    shown = synced.api("GET", f"/{number}").json()
    assert shown["forge_number"] == remote[0]["number"] and shown["url"]
    assert synced.api("POST", f"/{number}/comments", json={"body": "From ctx"}).status_code == 201
    assert synced.sync()["created_remote"] == 1
    assert [c["body"] for c in synced.repo.comments.values()] == ["From ctx"]
    again = synced.sync()  # nothing new: nothing created twice
    assert again["created_remote"] == again["created_local"] == 0
    assert len(synced.repo.issues) == 1 and len(synced.repo.comments) == 1
    assert len(synced.issues()) == 1


def test_edits_on_both_sides_to_different_fields_merge(synced: Synced) -> None:
    gh, repo = synced.gh, synced.repo
    n = gh.add_issue(repo, "Old title", "Body")
    synced.sync()
    local = synced.local(n)
    r = synced.api("PATCH", f"/{local['number']}", json={"labels": ["triaged"]})
    assert r.status_code == 200, r.text
    gh.edit_issue(repo, n, title="New title")
    report = synced.sync()
    assert report["conflicts"] == 0 and report["pushed"] >= 1 and report["pulled"] >= 1
    assert repo.issues[n]["title"] == "New title" and repo.issues[n]["labels"] == ["triaged"]
    merged = synced.local(n)
    assert merged["title"] == "New title" and merged["labels"] == ["triaged"]
    assert synced.sync()["pushed"] == 0  # settled


def test_a_local_close_and_a_remote_reopen_follow_each_other(synced: Synced) -> None:
    gh, repo = synced.gh, synced.repo
    n = gh.add_issue(repo, "Close me", "")
    synced.sync()
    number = synced.local(n)["number"]
    assert synced.api("POST", f"/{number}/close", json={"reason": "not_planned"}).status_code == 200
    synced.sync()
    assert repo.issues[n]["state"] == "closed" and repo.issues[n]["state_reason"] == "not_planned"
    gh.edit_issue(repo, n, state="open")
    synced.sync()
    assert synced.local(n)["state"] == "open"


def test_both_sides_changing_one_field_opens_a_conflict_and_loses_nothing(synced: Synced) -> None:
    gh, repo = synced.gh, synced.repo
    n = gh.add_issue(repo, "Title", "Base body")
    synced.sync()
    number = synced.local(n)["number"]
    assert synced.api("PATCH", f"/{number}", json={"body": "Local body"}).status_code == 200
    gh.edit_issue(repo, n, body="Remote body")
    report = synced.sync()
    assert report["conflicts"] == 1
    assert repo.issues[n]["body"] == "Remote body"  # neither side overwritten
    assert synced.local(n)["body"] == "Local body"
    (conflict,) = synced.conflicts()
    assert conflict["fields"] == ["body"] and conflict["number"] == number
    assert conflict["base"]["body"] == "Base body"
    assert conflict["local"]["body"] == "Local body"
    assert conflict["remote"]["body"] == "Remote body"
    assert synced.sync()["conflicts"] == 0  # one record, not one per run
    assert len(synced.conflicts()) == 1
    assert any(h["kind"] == "conflict" for h in synced.local(n)["history"])

    r = synced.api("POST", f"/sync/conflicts/{conflict['id']}/resolve", json={"take": "local"})
    assert r.status_code == 200, r.text
    assert synced.drain() == 1
    assert repo.issues[n]["body"] == "Local body"
    assert synced.conflicts() == []
    again = synced.api("POST", f"/sync/conflicts/{conflict['id']}/resolve", json={"take": "remote"})
    assert again.status_code == 409


def test_taking_the_remote_side_of_a_conflict_updates_the_local_issue(synced: Synced) -> None:
    gh, repo = synced.gh, synced.repo
    n = gh.add_issue(repo, "Title", "Body")
    synced.sync()
    number = synced.local(n)["number"]
    synced.api("PATCH", f"/{number}", json={"title": "Ours"})
    gh.edit_issue(repo, n, title="Theirs")
    synced.sync()
    (conflict,) = synced.conflicts()
    r = synced.api("POST", f"/sync/conflicts/{conflict['id']}/resolve", json={"take": "remote"})
    assert r.status_code == 200, r.text
    synced.drain()
    assert synced.local(n)["title"] == "Theirs" and repo.issues[n]["title"] == "Theirs"


def test_comment_edits_flow_both_ways(synced: Synced) -> None:
    gh, repo = synced.gh, synced.repo
    n = gh.add_issue(repo, "Talk", "")
    cid = gh.add_comment(repo, n, "first words")
    synced.sync()
    repo.comments[cid] |= {"body": "edited there", "updated_at": gh._tick()}
    synced.sync()
    (comment,) = synced.local(n)["comments"]
    assert comment["body"] == "edited there"
    r = synced.client.post(
        "/api/manage",
        json={"action": "update", "id": comment["id"], "changes": {"content": "edited here"}},
        headers=synced.key,
    )
    assert r.status_code == 200, r.text
    synced.sync()
    assert repo.comments[cid]["body"] == "edited here"


def test_a_deleted_remote_issue_unlinks_the_local_one_and_keeps_it(synced: Synced) -> None:
    gh, repo = synced.gh, synced.repo
    n = gh.add_issue(repo, "Doomed", "Body")
    synced.sync()
    number = synced.local(n)["number"]
    event = gh.issue_event(repo, n, "deleted")
    gh.delete_issue(repo, n)
    r = webhook_delivery("issues", event, HOOK_SECRET).send_with(synced.client)
    assert r.status_code == 202, r.text
    assert synced.drain() == 1
    kept = synced.api("GET", f"/{number}").json()
    assert kept["title"] == "Doomed"
    assert kept["history"][-1]["kind"] == "unlinked"
    assert kept["history"][-1]["new_value"] == {"reason": "deleted"}
    synced.api("PATCH", f"/{number}", json={"body": "still editable"})
    assert synced.sync()["error"] is None  # an unlinked issue is not pushed again


def test_a_transferred_remote_issue_is_unlinked_with_its_new_place(synced: Synced) -> None:
    gh, repo = synced.gh, synced.repo
    other = gh.add_repo("octo-org", "elsewhere")
    n = gh.add_issue(repo, "Moving", "Body")
    synced.sync()
    number = synced.local(n)["number"]
    gh.transfer_issue(repo, n, other)
    synced.api("PATCH", f"/{number}", json={"labels": ["moved?"]})
    report = synced.sync()
    assert report["gone"] == 1 and report["error"] is None
    last = synced.api("GET", f"/{number}").json()["history"][-1]
    assert last["kind"] == "unlinked" and last["new_value"]["reason"].startswith("moved:")
    assert f"/repositories/{other.id}/issues/" in last["new_value"]["reason"]


def test_a_rate_limit_pauses_the_link_and_the_job_resumes_from_its_cursor(synced: Synced) -> None:
    gh, repo = synced.gh, synced.repo
    for n in range(150):
        gh.add_issue(repo, f"Issue {n}", "")
    gh.remaining = 1  # the first page passes, the second is refused
    report = synced.sync()
    assert report["rate_limited_until"] is not None
    assert len(synced.issues()) == 100  # the first page is kept
    link = synced.api("GET", "/sync/links").json()["links"][0]
    assert link["paused_until"] is not None and link["issues_since"] is not None
    r = synced.client.post("/api/issues/sync", json={}, headers=synced.key)
    assert r.status_code == 409 and "rate limit pauses this link" in r.json()["message"]
    gh.remaining = 5000
    with synced.app.connection() as conn:  # the reset time has come
        conn.execute("UPDATE issue_forge_links SET paused_until = now() - interval '1 second'")
    resumed = synced.sync()
    assert resumed["rate_limited_until"] is None
    assert resumed["created_local"] == 50  # resumed, nothing made twice
    assert len(synced.issues()) == 150


def test_a_secondary_limit_requeues_the_job_until_retry_after(synced: Synced) -> None:
    synced.gh.add_issue(synced.repo, "One", "")
    synced.gh.secondary_limit(retry_after=30)
    with synced.app.connection() as conn:
        from ctx.plugins.issues.sync.jobs import queue_sync

        queue_sync(conn, synced.link["id"])
    synced.drain()
    with synced.app.connection() as conn:
        job = conn.execute(
            "SELECT status, attempts, run_after FROM context_jobs WHERE kind = 'issues.sync'"
        ).fetchone()
    assert job["status"] == "queued" and job["attempts"] == 0
    assert (job["run_after"] - datetime.now(UTC)).total_seconds() > 20
    assert synced.issues() == []


def test_webhooks_are_verified_and_taken_once(synced: Synced) -> None:
    gh, repo = synced.gh, synced.repo
    n = gh.add_issue(repo, "Hooked", "v1")
    synced.sync()
    gh.edit_issue(repo, n, body="v2")
    delivery = webhook_delivery("issues", gh.issue_event(repo, n, "edited"), HOOK_SECRET)
    bad = delivery.with_bad_signature().send_with(synced.client)
    assert bad.status_code == 401 and bad.json()["error"] == "unauthorized"
    assert synced.drain() == 0
    assert delivery.send_with(synced.client).status_code == 202
    assert synced.drain() == 1
    assert synced.local(n)["body"] == "v2"
    replay = delivery.send_with(synced.client)
    assert replay.status_code == 202 and replay.json()["status"] == "duplicate"
    from dataclasses import replace

    renamed = replace(delivery, delivery_id="another-id").send_with(synced.client)
    assert renamed.json()["status"] == "duplicate"  # the same body under a new id
    assert synced.drain() == 0


def test_a_wrong_token_is_reported_not_raised(synced: Synced) -> None:
    synced.gh.token = "ghp_other"
    report = synced.sync()
    assert "token" in report["error"] and "401" in report["error"]
    link = synced.api("GET", "/sync/links").json()["links"][0]
    assert link["last_error"] == report["error"]
    assert link["token_secret"] == "gh-token" and "ghp_" not in str(link)


def test_only_admins_link_and_bad_links_are_refused(synced: Synced) -> None:
    body = {"scope": "s2", "repo": "octo-org/x", "token_secret": "gh-token"}
    assert (
        synced.client.post("/api/issues/sync/links", json=body, headers=synced.key).status_code
        == 403
    )
    for bad, field in (
        ({**body, "repo": "not a repo"}, "repo"),
        ({**body, "token_secret": "missing"}, "token_secret"),
        ({**body, "scope": SCOPE}, "scope"),
    ):
        r = synced.client.post("/api/issues/sync/links", json=bad, headers=synced.admin)
        assert r.status_code in (409, 422), r.text
        assert r.json()["field"] == field
    r = synced.client.post(
        "/api/issues/sync/links", json={**body, "forge": "nowhere"}, headers=synced.admin
    )
    assert r.status_code == 404 and "github" in r.json()["message"]


def test_the_sweep_queues_due_links_and_skips_paused_ones(synced: Synced) -> None:
    from ctx.plugins.issues.sync.jobs import sweep

    synced.gh.add_issue(synced.repo, "Pulled by the job", "")
    assert sweep(synced.app) == 1  # a new link is due at once
    assert sweep(synced.app) == 0  # already queued
    assert synced.drain() == 1
    assert [i["title"] for i in synced.issues()] == ["Pulled by the job"]
    assert sweep(synced.app) == 0  # next pull in interval_s
    with synced.app.connection() as conn:
        conn.execute(
            "UPDATE issue_forge_links SET next_pull_at = now(), "
            "paused_until = now() + interval '1 hour'"
        )
    assert sweep(synced.app) == 0


def test_a_create_cut_off_before_it_was_noted_is_adopted_not_doubled(synced: Synced) -> None:
    """A run that created an issue and a comment on GitHub and stopped before saving their bases
    (the pending rows say so): the next run links the twins instead of pulling them as new."""
    from ctx.plugins.issues.sync import merge, state

    gh, repo = synced.gh, synced.repo
    n = gh.add_issue(repo, "Synced first", "")
    synced.sync()
    number = synced.local(n)["number"]
    made = synced.api("POST", "", json={"title": "Cut off", "body": "half way", "labels": ["x"]})
    closed = made.json()
    synced.api("POST", f"/{closed['number']}/close", json={"reason": "completed"})
    synced.api("POST", f"/{number}/comments", json={"body": "a comment cut off"})
    comment_id = synced.local(n)["comments"][0]["id"]
    issue = synced.api("GET", f"/{closed['number']}").json()
    block = {"title": f"#{issue['number']} Cut off", "content": "half way", "metadata": issue}
    link_id = synced.link["id"]
    state.begin_create(synced.app, link_id, issue["id"], "issue", merge.local_issue(block), None)
    state.begin_create(synced.app, link_id, comment_id, "comment", {"body": "a comment cut off"}, n)
    gh.now = datetime.now(UTC)  # GitHub's clock is the real one: the twin is made after the note
    twin = gh.add_issue(repo, "Cut off", "half way", labels=["x"])  # what the cut-off run sent
    gh.add_comment(repo, n, "a comment cut off")
    report = synced.sync()
    assert report["created_local"] == 0 and report["created_remote"] == 0
    assert len(repo.issues) == 2 and len(repo.comments) == 1
    assert len(synced.issues()) == 2
    assert repo.issues[twin]["state"] == "closed"  # the merge carried the close over
    assert synced.local(twin)["id"] == issue["id"]
    with synced.app.connection() as conn:
        left = conn.execute("SELECT count(*) AS n FROM issue_sync_pending").fetchone()["n"]
    assert left == 0


def test_one_run_per_link_at_a_time(synced: Synced) -> None:
    from ctx.plugins.issues.sync import state
    from ctx.plugins.issues.sync.jobs import queue_sync

    assert state.take_run(synced.app, synced.link["id"], "00000000-0000-0000-0000-000000000001")
    r = synced.client.post("/api/issues/sync", json={}, headers=synced.key)
    assert r.status_code == 409 and "already running" in r.json()["message"]
    with synced.app.connection() as conn:
        queue_sync(conn, synced.link["id"])
    synced.drain()
    with synced.app.connection() as conn:
        job = conn.execute(
            "SELECT status, attempts FROM context_jobs WHERE kind = 'issues.sync'"
        ).fetchone()
    assert job["status"] == "queued" and job["attempts"] == 0  # back later, not failed
    state.end_run(synced.app, synced.link["id"], "00000000-0000-0000-0000-000000000001")
    assert synced.sync()["busy"] is False


def test_a_remote_issue_the_local_rules_refuse_is_skipped_and_reported(synced: Synced) -> None:
    gh, repo = synced.gh, synced.repo
    gh.add_issue(repo, "Fine", "")
    bad = gh.add_issue(repo, "Too many labels", "", labels=[f"l{i}" for i in range(60)])
    gh.add_issue(repo, "Also fine", "")
    report = synced.sync()
    assert report["skipped"] == 1 and report["created_local"] == 2
    assert report["problems"][0].startswith(f"remote issue #{bad}: issue metadata.labels")
    assert sorted(i["title"] for i in synced.issues()) == ["Also fine", "Fine"]


def test_the_sync_switch_stops_runs_and_the_interval_setting_is_the_default(
    synced: Synced,
) -> None:
    from ctx.core.runtime import set_setting
    from ctx.plugins.issues.sync.jobs import queue_sync, sweep

    assert synced.link["interval_s"] == 300  # issues.sync_interval_s
    set_setting(synced.app, "issues.sync_enabled", False)
    synced.gh.add_issue(synced.repo, "Waits", "")
    r = synced.client.post("/api/issues/sync", json={}, headers=synced.key)
    assert r.status_code == 409 and "issues.sync_enabled" in r.json()["message"]
    assert sweep(synced.app) == 0
    with synced.app.connection() as conn:
        queue_sync(conn, synced.link["id"])
    synced.drain()
    assert synced.issues() == [] and synced.gh.requests == []
    set_setting(synced.app, "issues.sync_enabled", True)
    set_setting(synced.app, "issues.sync_interval_s", 60)
    body = {"scope": "other", "repo": "octo-org/other", "token_secret": "gh-token"}
    made = synced.client.post("/api/issues/sync/links", json=body, headers=synced.admin)
    assert made.status_code == 201 and made.json()["interval_s"] == 60
    assert synced.sync()["created_local"] == 1


def test_a_pull_of_the_issues_octokit_recorded_keeps_their_fields(synced: Synced) -> None:
    """octokit's paginate-issues scenario (13 real recorded issues), served and synced: every
    issue arrives with its title, body, state and labels as GitHub recorded them."""
    import forge_data

    data = forge_data.forge_data()
    if data is None:
        pytest.skip(forge_data.missing_reason())
    recorded = [i for ex in data.scenario("paginate-issues") for i in ex["response"]]
    synced.gh.seed_issues(synced.repo, recorded)
    report = synced.sync()
    assert report["error"] is None and report["skipped"] == 0
    issues = [i for i in recorded if "pull_request" not in i]
    assert report["created_local"] == len(issues) > 0
    for want in issues:
        got = synced.local(want["number"])
        assert got["title"] == want["title"]
        assert got["state"] == want["state"]
        assert sorted(got["labels"]) == sorted(label["name"] for label in want["labels"])
        assert (got["body"] or "") in ((want["body"] or "").strip(), want["title"])
