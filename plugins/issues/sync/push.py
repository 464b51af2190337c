"""Pushing: records that exist only here are created on the remote (noted first, so a run cut
off after the create adopts its twin instead of doubling it), and records changed here since
their last sync are reconciled against the remote version fetched fresh."""

from __future__ import annotations

from typing import Any

from ctx.core import get_block
from ctx.plugins.issues.sync import merge, state
from ctx.plugins.issues.sync.forge import Gone, Moved
from ctx.plugins.issues.sync.pull import (
    apply_local_issue,
    local_block,
    mark_gone,
    reconcile_comment,
    refresh_number,
    save_local_comment,
)
from ctx.plugins.issues.sync.run import Run, guarded


def push_new(run: Run) -> None:
    """Create on the remote what exists only here: issues, then comments on synced issues."""
    for row in state.unsynced_issues(run.app, run.link_id, run.link["scope"], run.link["repo"]):
        guarded(run, _create_issue, row["id"])
    for row in state.unsynced_comments(run.app, run.link_id, run.link["scope"]):
        guarded(run, _create_comment, row["id"])


def _create_issue(run: Run, block_id: str) -> None:
    block = get_block(run.app, run.who, block_id)
    mine = merge.local_issue(block)
    fields = {k: mine[k] for k in ("title", "body", "labels", "assignees")}
    run.renew()
    state.begin_create(run.app, run.link_id, block["id"], "issue", mine, None)
    remote = run.forge.create_issue(fields)
    run.report.requests += 1
    if mine["state"] == "closed":
        remote = run.forge.update_issue(
            remote.number, {"state": "closed", "state_reason": mine["state_reason"]}
        )
        run.report.requests += 1
    run.report.created_remote += 1
    theirs = merge.remote_issue(remote)
    # what the forge kept (it may drop an assignee it does not know) becomes the issue here;
    # the history row says what changed
    apply_local_issue(run, block, remote, merge.changed_fields(mine, theirs), theirs)


def _create_comment(run: Run, block_id: str) -> None:
    block = get_block(run.app, run.who, block_id)
    issue_base = state.base_of_block(run.app, block["metadata"]["issue_id"])
    if issue_base is None or issue_base["gone"] is not None:
        return
    mine = merge.local_comment(block)
    number = int(issue_base["forge_number"])
    run.renew()
    state.begin_create(run.app, run.link_id, block["id"], "comment", mine, number)
    try:
        comment = run.forge.create_comment(number, block["content"])
    except (Gone, Moved) as exc:  # the issue went away on the remote
        mark_gone(run, issue_base, exc)
        return
    finally:
        run.report.requests += 1
    run.report.created_remote += 1
    save_local_comment(run, block, comment, merge.remote_comment(comment), pulled=False)


def push_changed(run: Run) -> None:
    """Records changed here since their last sync: fetch the remote one fresh and reconcile, so
    a remote edit made meanwhile is merged, never overwritten."""
    for row in state.locally_changed(run.app, run.link_id):
        block = local_block(run, row["id"])
        if block is None:
            continue
        snapshot = (
            merge.local_issue(block) if row["kind"] == "issue" else merge.local_comment(block)
        )
        if merge.digest(snapshot) != row["hash"]:
            refresh_record(run, row)


def refresh_blocks(run: Run, block_ids: list[str]) -> None:
    """Reconcile the given records against their remote versions fetched now."""
    for block_id in block_ids:
        base = state.base_of_block(run.app, block_id)
        if base is not None and base["gone"] is None:
            refresh_record(run, base)


def refresh_record(run: Run, base: dict[str, Any]) -> None:
    if base["kind"] == "issue":
        guarded(run, refresh_number, int(base["forge_number"]))
        return
    guarded(run, _refresh_comment, base)


def _refresh_comment(run: Run, base: dict[str, Any]) -> None:
    try:
        remote = run.forge.get_comment(int(base["forge_id"]))
    except (Gone, Moved) as exc:
        mark_gone(run, base, exc)
        return
    finally:
        run.report.requests += 1
    reconcile_comment(run, remote)
