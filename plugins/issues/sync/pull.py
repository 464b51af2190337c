"""Reconciling remote records with local ones: each remote issue or comment met in a listing or
fetched by number is merged three ways against its base, and the merged version is written on
whichever side lacks it. Local writes carry their history row and new base in one transaction.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from ctx.core import BlockChanges, NotFound, StoreRequest, get_block, store_block, update_block
from ctx.plugins.issues import records
from ctx.plugins.issues.sync import merge, state
from ctx.plugins.issues.sync.forge import ForgeError, Gone, Moved, RemoteComment, RemoteIssue
from ctx.plugins.issues.sync.run import Run, guarded, listing_pages
from ctx.plugins.issues.types import (
    COMMENT,
    COMMENT_CATEGORY,
    ISSUE,
    ISSUE_CATEGORY,
    issue_title,
)

ADOPT_SLACK = timedelta(minutes=5)  # clock skew between us and the forge, for adopting creates


class ChangedMeanwhile(ForgeError):
    """The local record was written while this run worked on it; the next run merges again."""


def listing(run: Run, name: str, fetch: Any, handle: Any) -> None:
    for page in listing_pages(run, name, fetch):
        for item in page.items:
            guarded(run, handle, item)


def local_block(run: Run, block_id: str) -> dict[str, Any] | None:
    try:
        return get_block(run.app, run.who, block_id)
    except NotFound:  # deleted here: the remote record stays untouched
        return None


def refresh_number(run: Run, number: int) -> None:
    """Fetch one remote issue now and reconcile it (a gone one unlinks its local twin)."""
    base = state.base_by_number(run.app, run.link_id, number)
    try:
        remote = run.forge.get_issue(number)
    except (Gone, Moved) as exc:
        if base is not None:
            mark_gone(run, base, exc)
        return
    finally:
        run.report.requests += 1
    reconcile_issue(run, remote)


def mark_gone(run: Run, base: dict[str, Any], exc: ForgeError) -> None:
    why = f"moved:{exc.location}" if isinstance(exc, Moved) else "deleted"
    state.mark_gone(run.app, str(base["block_id"]), why)
    run.report.gone += 1
    if base["kind"] == "issue":
        issue = local_block(run, str(base["block_id"]))
        if issue is not None:
            records.record(run.app, issue, run.actor(None), "unlinked", None, {"reason": why})


# -- issues ----------------------------------------------------------------------------------


def reconcile_issue(run: Run, remote: RemoteIssue) -> None:
    if remote.is_pull:
        run.pulls.add(remote.number)
        return
    base = state.base_by_forge_id(run.app, run.link_id, "issue", remote.forge_id)
    theirs = merge.remote_issue(remote)
    if base is None:
        twin = _twin(run, remote, theirs)
        if twin is None:
            _create_local_issue(run, remote, theirs)
            return
        base = twin
    merged = _merged(run, base, "issue", theirs, remote.forge_id, remote.number)
    if merged is not None:
        block, mine, result = merged
        _settle_issue(run, base, block, remote, mine, theirs, result)


def _merged(
    run: Run,
    base: dict[str, Any],
    kind: str,
    theirs: merge.Snapshot,
    forge_id: int,
    forge_number: int,
) -> tuple[dict[str, Any], merge.Snapshot, merge.Snapshot] | None:
    """The local record, its snapshot and the three-way merge with the remote one; None when
    there is nothing to settle (unlinked, deleted here, a conflict open or just opened)."""
    if base["gone"] is not None:
        return None
    block = local_block(run, str(base["block_id"]))
    if block is None or state.open_conflict(run.app, str(base["block_id"])):
        return None
    mine = merge.local_issue(block) if kind == "issue" else merge.local_comment(block)
    result = merge.three_way(base["snapshot"], mine, theirs)
    if not result.clean:
        record_conflict(
            run, base, block, kind, mine, theirs, result.conflicts, forge_id, forge_number
        )
        return None
    return block, mine, result.merged


def _twin(run: Run, remote: RemoteIssue, theirs: merge.Snapshot) -> dict[str, Any] | None:
    """The local issue a remote one without a base already is, as a base to merge against:

    - a create this link sent and a stopped run never noted (same title and body, made after
      the note): what was sent is the base, so the usual merge carries over what the create did
      not (a close, a later edit);
    - an issue synced before the scope was unlinked and linked again (its metadata holds the
      forge id): no base is known, so any difference is a conflict, never a silent choice.
    """
    since = None if remote.created_at is None else remote.created_at + ADOPT_SLACK
    pending = state.pending_match(run.app, run.link_id, "issue", theirs, None, since)
    if pending is not None and local_block(run, pending) is not None:
        return {"snapshot": theirs, "block_id": pending, "gone": None}
    known = state.issue_by_forge_id(run.app, run.link["scope"], run.link["repo"], remote.forge_id)
    if known is not None and local_block(run, known) is not None:
        return {"snapshot": None, "block_id": known, "gone": None}
    return None


def _settle_issue(
    run: Run,
    base: dict[str, Any],
    block: dict[str, Any],
    remote: RemoteIssue,
    mine: merge.Snapshot,
    theirs: merge.Snapshot,
    merged: merge.Snapshot,
) -> None:
    to_remote = merge.changed_fields(theirs, merged)
    if "state_reason" in to_remote:  # a forge takes a reason only with its state
        to_remote["state"] = merged["state"]
    if to_remote:
        run.renew()
        remote = run.forge.update_issue(remote.number, to_remote)
        run.report.requests += 1
        run.report.pushed += 1
        merged = merge.remote_issue(remote)
    to_local = merge.changed_fields(mine, merged)
    if to_local or _forge_meta_differs(block, remote, run):
        apply_local_issue(run, block, remote, to_local, merged)
        run.report.pulled += 1 if to_local else 0
    elif merged != base["snapshot"]:
        with run.app.connection() as conn:
            state.save_base_in(
                conn, run.link_id, block["id"], "issue", remote.forge_id, remote.number, merged
            )
            state.end_create_in(conn, block["id"])


def _forge_meta(remote: RemoteIssue, run: Run, block: dict[str, Any]) -> dict[str, Any]:
    """The forge's facts in the issue's metadata. A milestone set on the forge is copied; one
    set only here stays (the forge names milestones by number, so it is not pushed)."""
    meta = {
        "forge": run.link["forge"],
        "forge_repo": run.link["repo"],
        "forge_id": remote.forge_id,
        "forge_number": remote.number,
        "url": remote.url,
    }
    if remote.milestone:
        meta["milestone"] = remote.milestone
    return meta


def _forge_meta_differs(block: dict[str, Any], remote: RemoteIssue, run: Run) -> bool:
    meta = block["metadata"]
    return any(meta.get(k) != v for k, v in _forge_meta(remote, run, block).items())


def _create_local_issue(run: Run, remote: RemoteIssue, theirs: merge.Snapshot) -> None:
    number = records.next_number(run.app, run.link["scope"])
    meta = {
        "number": number,
        "state": theirs["state"],
        "state_reason": theirs["state_reason"],
        "labels": theirs["labels"],
        "assignees": theirs["assignees"],
        "author": remote.author,
        **_forge_meta(remote, run, {}),
    }
    meta = {k: v for k, v in meta.items() if v is not None}

    def also(conn: Any, block: dict[str, Any], action: str) -> None:
        new = {"title": theirs["title"], "forge_number": remote.number}
        records.record_in(conn, block, run.actor(remote.author), "synced", None, new)
        state.save_base_in(
            conn, run.link_id, block["id"], "issue", remote.forge_id, remote.number, theirs
        )

    store_block(
        run.app,
        run.who,
        StoreRequest(
            title=issue_title(number, theirs["title"]),
            content=theirs["body"] or theirs["title"],
            category=ISSUE_CATEGORY,
            block_type=ISSUE,
            meta=meta,
        ),
        origin="sync",
        also=also,
    )
    run.report.created_local += 1
    if remote.comments and run.link["comments_since"] is not None:
        # the comments listing is past this issue's older comments (it was skipped or moved in)
        for comment in run.forge.issue_comments(remote.number):
            guarded(run, reconcile_comment, comment)
        run.report.requests += 1


def apply_local_issue(
    run: Run,
    block: dict[str, Any],
    remote: RemoteIssue,
    to_local: dict[str, Any],
    merged: merge.Snapshot,
) -> None:
    """Write the merged version here and make it the base, in one transaction; if the issue
    was written meanwhile (after this run read it), leave it for the next run to merge."""
    meta = {**block["metadata"], **_forge_meta(remote, run, block)}
    for name in ("state", "state_reason", "labels", "assignees"):
        meta[name] = merged[name]
    if merged["state"] == "open" and block["metadata"].get("state") == "closed":
        meta["state_reason"] = "reopened"
    meta = {k: v for k, v in meta.items() if v is not None}
    fields: dict[str, Any] = {"meta": meta}
    if "title" in to_local:
        fields["title"] = issue_title(block["metadata"]["number"], merged["title"])
    if "title" in to_local or "body" in to_local:
        fields["content"] = merged["body"] or merged["title"]
    old = {k: merge.local_issue(block).get(k) for k in to_local}

    def also(conn: Any, stored: dict[str, Any], action: str) -> None:
        if to_local:
            records.record_in(conn, stored, run.actor(None), "synced", old, to_local)
        state.save_base_in(
            conn, run.link_id, stored["id"], "issue", remote.forge_id, remote.number, merged
        )
        state.end_create_in(conn, stored["id"])

    unchanged_since_read(run, block)
    update_block(run.app, run.who, block["id"], BlockChanges(**fields), also=also)


def unchanged_since_read(run: Run, block: dict[str, Any]) -> None:
    fresh = local_block(run, block["id"])
    if fresh is None or fresh["updated_at"] != block["updated_at"]:
        raise ChangedMeanwhile("it was written here during the sync; it is merged next run")


def record_conflict(
    run: Run,
    base: dict[str, Any],
    block: dict[str, Any],
    kind: str,
    mine: merge.Snapshot,
    theirs: merge.Snapshot,
    fields: tuple[str, ...],
    forge_id: int,
    forge_number: int,
) -> None:
    """Open a conflict (one per record while it is open); the issue's history says so. A twin
    found without a base (a scope linked again) gets its base row here, so resolving it works
    as for any other record."""
    number = int(block["metadata"]["number"])
    with run.app.connection() as conn:
        opened = state.record_conflict_in(
            conn,
            {
                "link_id": run.link_id,
                "block_id": block["id"],
                "kind": kind,
                "scope": block["scope"],
                "number": number,
                "fields": list(fields),
                "base": base["snapshot"],
                "local": mine,
                "remote": theirs,
            },
        )
        if opened and base["snapshot"] is None:  # a twin met again: the pair needs its row
            state.save_base_in(conn, run.link_id, block["id"], kind, forge_id, forge_number, theirs)
        if opened and kind == "issue":
            records.record_in(
                conn, block, run.actor(None), "conflict", None, {"fields": list(fields)}
            )
    if opened:
        run.report.conflicts += 1


# -- comments --------------------------------------------------------------------------------


def reconcile_comment(run: Run, remote: RemoteComment) -> None:
    issue_base = state.base_by_number(run.app, run.link_id, remote.issue_number)
    if issue_base is None and remote.issue_number not in run.pulls:
        # an issue this link has not met yet (created after the issue listing, or skipped
        # before): fetch it first; a pull request is remembered and its comments left alone
        refresh_number(run, remote.issue_number)
        issue_base = state.base_by_number(run.app, run.link_id, remote.issue_number)
    if issue_base is None:
        return
    base = state.base_by_forge_id(run.app, run.link_id, "comment", remote.forge_id)
    theirs = merge.remote_comment(remote)
    if base is None:
        since = None if remote.created_at is None else remote.created_at + ADOPT_SLACK
        pending = state.pending_match(
            run.app, run.link_id, "comment", theirs, remote.issue_number, since
        )
        twin = pending or state.comment_by_forge_id(run.app, run.link["scope"], remote.forge_id)
        block = None if twin is None else local_block(run, twin)
        if block is None:
            _create_local_comment(run, issue_base, remote, theirs)
            return
        base = {"snapshot": None if pending is None else theirs, "block_id": twin, "gone": None}
    found = _merged(run, base, "comment", theirs, remote.forge_id, remote.issue_number)
    if found is None:
        return
    block, mine, merged = found
    if merged != theirs:
        run.renew()
        remote = run.forge.update_comment(remote.forge_id, merged["body"])
        run.report.requests += 1
        run.report.pushed += 1
        merged = merge.remote_comment(remote)
    if merged != mine or block["metadata"].get("forge_id") != remote.forge_id:
        save_local_comment(run, block, remote, merged, pulled=merged != mine)
    elif merged != base["snapshot"]:
        with run.app.connection() as conn:
            state.save_base_in(
                conn, run.link_id, block["id"], "comment", remote.forge_id,
                remote.issue_number, merged,
            )  # fmt: skip
            state.end_create_in(conn, block["id"])


def _create_local_comment(
    run: Run, issue_base: dict[str, Any], remote: RemoteComment, theirs: merge.Snapshot
) -> None:
    issue = get_block(run.app, run.who, str(issue_base["block_id"]))
    meta = {
        "issue_id": issue["id"],
        "number": issue["metadata"]["number"],
        "author": remote.author,
        "forge_id": remote.forge_id,
    }

    def also(conn: Any, block: dict[str, Any], action: str) -> None:
        new = {"comment_id": block["id"], "forge_id": remote.forge_id}
        records.record_in(conn, issue, run.actor(remote.author), "commented", None, new)
        state.save_base_in(
            conn, run.link_id, block["id"], "comment", remote.forge_id,
            remote.issue_number, theirs,
        )  # fmt: skip

    store_block(
        run.app,
        run.who,
        StoreRequest(
            title=f"#{issue['metadata']['number']} comment {remote.forge_id}",
            content=theirs["body"] or "(empty)",
            category=COMMENT_CATEGORY,
            block_type=COMMENT,
            meta={k: v for k, v in meta.items() if v is not None},
        ),
        origin="sync",
        also=also,
    )
    run.report.created_local += 1


def save_local_comment(
    run: Run, block: dict[str, Any], remote: RemoteComment, merged: merge.Snapshot, pulled: bool
) -> None:
    """Write the comment's merged body and forge id here with its new base, in one transaction."""

    def also(conn: Any, stored: dict[str, Any], action: str) -> None:
        state.save_base_in(
            conn, run.link_id, stored["id"], "comment", remote.forge_id,
            remote.issue_number, merged,
        )  # fmt: skip
        state.end_create_in(conn, stored["id"])

    meta = {**block["metadata"], "forge_id": remote.forge_id}
    changes = (
        BlockChanges(meta=meta, content=merged["body"] or "(empty)")
        if pulled
        else (BlockChanges(meta=meta))
    )
    unchanged_since_read(run, block)
    update_block(run.app, run.who, block["id"], changes, also=also)
    run.report.pulled += 1 if pulled else 0
