"""One sync run of a link: pull the remote's changes, reconcile each record three ways, push
what changed only here. Every step is idempotent, so a run cut short (a rate limit, a crash)
is simply run again: cursors are saved page by page and bases record what both sides agree on.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any, cast

from ctx.core import (
    App,
    BlockChanges,
    CtxError,
    NotFound,
    Principal,
    StoreRequest,
    get_block,
    store_block,
    update_block,
)
from ctx.plugins.issues import records
from ctx.plugins.issues.sync import merge, state
from ctx.plugins.issues.sync.forge import (
    AuthFailed,
    Forge,
    ForgeError,
    ForgeLink,
    Gone,
    Moved,
    Page,
    RateLimited,
    RemoteComment,
    RemoteIssue,
    forge_kind,
)
from ctx.plugins.issues.types import (
    COMMENT,
    COMMENT_CATEGORY,
    ISSUE,
    ISSUE_CATEGORY,
    issue_title,
)

log = logging.getLogger("ctx.plugins.issues.sync")
MAX_PAGES = 1000  # a listing that never ends is a forge bug; stop rather than loop
MAX_PROBLEMS = 10


@dataclass
class Report:
    pulled: int = 0  # local records changed from the remote
    pushed: int = 0  # remote records changed from here
    created_local: int = 0
    created_remote: int = 0
    conflicts: int = 0
    gone: int = 0
    not_modified: int = 0  # listings answered 304
    requests: int = 0
    rate_limited_until: str | None = None
    error: str | None = None
    busy: bool = False  # another run of the link was under way: nothing was done
    skipped: int = 0  # records the local rules refused (see problems)
    problems: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Run:
    app: App
    link: dict[str, Any]
    forge: Forge
    report: Report = field(default_factory=Report)

    @property
    def who(self) -> Principal:
        name = f"{self.link['forge']} sync"
        return Principal(key_id=cast(str, None), name=name, home_scope=self.link["scope"])

    @property
    def link_id(self) -> int:
        return int(self.link["id"])

    def actor(self, login: str | None) -> str:
        return f"{self.link['forge']}:{login}" if login else f"{self.link['forge']} sync"


def open_forge(app: App, link: dict[str, Any]) -> Forge:
    kind = forge_kind(link["forge"])
    token = app.reveal_secret(link["token_secret"])
    bound = ForgeLink(link["id"], link["scope"], link["forge"], link["repo"], link["base_url"])
    return kind.open(bound, token)


def sync_link(
    app: App, link_id: int, numbers: list[int] | None = None, blocks: list[str] | None = None
) -> Report:
    """Run a sync of the link: all of it (incremental), or only the given remote issue numbers
    and local records (a webhook's hint, a resolved conflict)."""
    link = state.link(app, link_id)
    token = str(uuid.uuid4())
    if not state.take_run(app, link_id, token):
        return Report(busy=True)
    try:
        report, paused = _run(app, link, numbers, blocks)
    finally:
        state.end_run(app, link_id, token)
    state.finish_run(app, link_id, report.as_dict(), report.error, paused)
    return report


def _run(
    app: App, link: dict[str, Any], numbers: list[int] | None, blocks: list[str] | None
) -> tuple[Report, datetime | None]:
    report = Report()
    try:
        forge = open_forge(app, link)
    except (ForgeError, CtxError) as exc:  # an unknown forge, a missing or unreadable secret
        report.error = str(exc)
        return report, None
    run = Run(app, link, forge, report)
    paused: datetime | None = None
    try:
        if numbers is None and blocks is None:
            pull_issues(run)
            pull_comments(run)
            push_new(run)
            push_changed(run)
        else:
            for number in numbers or []:
                guarded(run, refresh_number, number)
            refresh_blocks(run, blocks or [])
    except RateLimited as exc:
        paused = exc.until
        report.rate_limited_until = exc.until.isoformat()
    except AuthFailed as exc:
        report.error = f"the forge refused the token: {exc}"
    except ForgeError as exc:
        report.error = str(exc)
    finally:
        forge.close()
    return report, paused


# -- pulling ---------------------------------------------------------------------------------


def _listing(run: Run, name: str, fetch: Any, handle: Any) -> None:
    """Walk a listing from its saved cursor, keyset style: after each page the cursor moves to
    the newest time seen, so records updated meanwhile are met again rather than skipped. The
    run ends with a request whose URL the next run repeats with the saved ETag (a 304 when
    nothing changed)."""
    since: datetime | None = run.link[f"{name}_since"]
    etag: str | None = run.link[f"{name}_etag"]
    page_no = 1
    for _ in range(MAX_PAGES):
        page: Page = fetch(since, page_no, etag if page_no == 1 else None)
        etag = None  # the saved ETag belongs to the first request's URL only
        run.report.requests += 1
        if page.not_modified:
            run.report.not_modified += 1
            return
        for item in page.items:
            guarded(run, handle, item)
        newest = max((item.updated_at for item in page.items), default=since)
        if newest == since:
            if page.has_next:  # a full page of one instant: step by page number
                page_no += 1
                continue
            if page_no == 1:  # this request is the one the next run repeats
                state.save_cursor(run.app, run.link_id, name, since, page.etag)
            return
        state.save_cursor(run.app, run.link_id, name, newest, None)
        since, page_no = newest, 1
    log.warning("listing %s of link %s did not end after %d pages", name, run.link_id, MAX_PAGES)


def guarded(run: Run, handle: Any, item: Any) -> None:
    """Reconcile one record; one the local rules refuse (a remote issue with more labels than
    the issue type allows, say) is reported and skipped, never the end of the run."""
    try:
        handle(run, item)
    except CtxError as exc:
        run.report.skipped += 1
        if len(run.report.problems) < MAX_PROBLEMS:
            if isinstance(item, int):
                what = f"issue #{item}"
            elif isinstance(item, RemoteIssue):
                what = f"issue #{item.number}"
            else:
                what = f"comment {getattr(item, 'forge_id', '?')}"
            run.report.problems.append(f"remote {what}: {exc.message}")


def pull_issues(run: Run) -> None:
    _listing(run, "issues", run.forge.list_issues, reconcile_issue)


def pull_comments(run: Run) -> None:
    _listing(run, "comments", run.forge.list_comments, reconcile_comment)


def refresh_number(run: Run, number: int) -> None:
    base = state.base_by_number(run.app, run.link_id, number)
    try:
        remote = run.forge.get_issue(number)
    except (Gone, Moved) as exc:
        if base is not None:
            _gone(run, base, exc)
        return
    finally:
        run.report.requests += 1
    reconcile_issue(run, remote)


def _gone(run: Run, base: dict[str, Any], exc: ForgeError) -> None:
    why = f"moved:{exc.location}" if isinstance(exc, Moved) else "deleted"
    state.mark_gone(run.app, str(base["block_id"]), why)
    run.report.gone += 1
    if base["kind"] == "issue":
        issue = get_block(run.app, run.who, str(base["block_id"]))
        records.record(run.app, issue, run.actor(None), "unlinked", None, {"reason": why})


def _local(run: Run, block_id: str) -> dict[str, Any] | None:
    try:
        return get_block(run.app, run.who, block_id)
    except NotFound:  # deleted here: the remote record stays untouched
        return None


def reconcile_issue(run: Run, remote: RemoteIssue) -> None:
    if remote.is_pull:
        return
    base = state.base_by_forge_id(run.app, run.link_id, "issue", remote.forge_id)
    theirs = merge.remote_issue(remote)
    if base is None:
        adopted = state.pending_match(run.app, run.link_id, "issue", theirs, None)
        block = None if adopted is None else _local(run, adopted)
        if block is None:
            _create_local_issue(run, remote, theirs)
            return
        base = _adopt(run, block["id"], "issue", remote.forge_id, remote.number, theirs)
    if base["gone"] is not None:
        return
    block = _local(run, str(base["block_id"]))
    if block is None or state.open_conflict(run.app, str(base["block_id"])):
        return
    mine = merge.local_issue(block)
    result = merge.three_way(base["snapshot"], mine, theirs)
    if not result.clean:
        _conflict(run, base, block, "issue", mine, theirs, result.conflicts)
        return
    _settle_issue(run, base, block, remote, mine, theirs, result.merged)


def _adopt(
    run: Run, block_id: str, kind: str, forge_id: int, number: int, theirs: merge.Snapshot
) -> dict[str, Any]:
    """A local record whose create reached the remote in a run that stopped before noting it:
    the remote one is its twin. Link them with the remote version as the base, so the usual
    merge carries over whatever the create did not (a close, a later edit)."""
    with run.app.connection() as conn:
        state.save_base_in(conn, run.link_id, block_id, kind, forge_id, number, theirs)
        state.end_create_in(conn, block_id)
    found = state.base_of_block(run.app, block_id)
    assert found is not None
    return found


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
        remote = run.forge.update_issue(remote.number, to_remote)
        run.report.requests += 1
        run.report.pushed += 1
        merged = merge.remote_issue(remote)
    to_local = merge.changed_fields(mine, merged)
    meta = block["metadata"]
    forge_meta = {k: v for k, v in _issue_meta(remote, run.link).items()}
    if to_local or any(meta.get(k) != v for k, v in forge_meta.items()):
        _apply_local_issue(run, block, remote, to_local, merged)
        run.report.pulled += 1 if to_local else 0
    elif merged != base["snapshot"]:
        state.save_base(
            run.app, run.link_id, block["id"], "issue", remote.forge_id, remote.number, merged
        )


def _issue_meta(remote: RemoteIssue, link: dict[str, Any]) -> dict[str, Any]:
    meta: dict[str, Any] = {
        "forge": link["forge"],
        "forge_repo": link["repo"],
        "forge_id": remote.forge_id,
        "forge_number": remote.number,
        "url": remote.url,
        "milestone": remote.milestone,
    }
    return meta


def _create_local_issue(run: Run, remote: RemoteIssue, theirs: merge.Snapshot) -> None:
    number = records.next_number(run.app, run.link["scope"])
    meta = {
        "number": number,
        "state": theirs["state"],
        "state_reason": theirs["state_reason"],
        "labels": theirs["labels"],
        "assignees": theirs["assignees"],
        "author": remote.author,
        **_issue_meta(remote, run.link),
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


def _apply_local_issue(
    run: Run,
    block: dict[str, Any],
    remote: RemoteIssue,
    to_local: dict[str, Any],
    merged: merge.Snapshot,
) -> None:
    """Write the merged version here and make it the base, in one transaction."""
    meta = {**block["metadata"], **_issue_meta(remote, run.link)}
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

    update_block(run.app, run.who, block["id"], BlockChanges(**fields), also=also)


def _conflict(
    run: Run,
    base: dict[str, Any],
    block: dict[str, Any],
    kind: str,
    mine: merge.Snapshot,
    theirs: merge.Snapshot,
    fields: tuple[str, ...],
) -> None:
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
        if opened and kind == "issue":
            records.record_in(
                conn, block, run.actor(None), "conflict", None, {"fields": list(fields)}
            )
    if opened:
        run.report.conflicts += 1


def reconcile_comment(run: Run, remote: RemoteComment) -> None:
    issue_base = state.base_by_number(run.app, run.link_id, remote.issue_number)
    if issue_base is None:  # a pull request's comment, or an issue this link does not hold
        return
    base = state.base_by_forge_id(run.app, run.link_id, "comment", remote.forge_id)
    theirs = merge.remote_comment(remote)
    if base is None:
        adopted = state.pending_match(run.app, run.link_id, "comment", theirs, remote.issue_number)
        block = None if adopted is None else _local(run, adopted)
        if block is None:
            _create_local_comment(run, issue_base, remote, theirs)
        else:
            _save_comment_meta(
                run, block, remote, {**block["metadata"], "forge_id": remote.forge_id}
            )
        return
    if base["gone"] is not None:
        return
    block = _local(run, str(base["block_id"]))
    if block is None or state.open_conflict(run.app, str(base["block_id"])):
        return
    mine = merge.local_comment(block)
    result = merge.three_way(base["snapshot"], mine, theirs)
    if not result.clean:
        _conflict(run, base, block, "comment", mine, theirs, result.conflicts)
        return
    merged = result.merged
    if merged != theirs:
        remote = run.forge.update_comment(remote.forge_id, merged["body"])
        run.report.requests += 1
        run.report.pushed += 1
        merged = merge.remote_comment(remote)
    if merged != mine:
        _apply_local_comment(run, block, remote, merged)
    elif merged != base["snapshot"]:
        state.save_base(
            run.app,
            run.link_id,
            block["id"],
            "comment",
            remote.forge_id,
            remote.issue_number,
            merged,
        )


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
        records.record_in(
            conn,
            issue,
            run.actor(remote.author),
            "commented",
            None,
            {"comment_id": block["id"], "forge_id": remote.forge_id},
        )
        state.save_base_in(
            conn, run.link_id, block["id"], "comment", remote.forge_id, remote.issue_number, theirs
        )

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


def _apply_local_comment(
    run: Run, block: dict[str, Any], remote: RemoteComment, merged: merge.Snapshot
) -> None:
    def also(conn: Any, stored: dict[str, Any], action: str) -> None:
        state.save_base_in(
            conn, run.link_id, stored["id"], "comment", remote.forge_id, remote.issue_number, merged
        )

    changes = BlockChanges(content=merged["body"] or "(empty)")
    update_block(run.app, run.who, block["id"], changes, also=also)
    run.report.pulled += 1


# -- pushing ---------------------------------------------------------------------------------


def push_new(run: Run) -> None:
    """Create on the remote what exists only here: issues, then comments on synced issues."""
    for row in state.unsynced_issues(run.app, run.link_id, run.link["scope"]):
        block = get_block(run.app, run.who, row["id"])
        mine = merge.local_issue(block)
        fields = {k: mine[k] for k in ("title", "body", "labels", "assignees")}
        state.begin_create(run.app, run.link_id, block["id"], "issue", mine, None)
        remote = run.forge.create_issue(fields)
        run.report.requests += 1
        if mine["state"] == "closed":
            remote = run.forge.update_issue(
                remote.number, {"state": "closed", "state_reason": mine["state_reason"]}
            )
            run.report.requests += 1
        run.report.created_remote += 1
        _apply_local_issue(run, block, remote, {}, merge.remote_issue(remote))
    for row in state.unsynced_comments(run.app, run.link_id, run.link["scope"]):
        block = get_block(run.app, run.who, row["id"])
        number = int(row["forge_number"])
        mine = merge.local_comment(block)
        state.begin_create(run.app, run.link_id, block["id"], "comment", mine, number)
        comment = run.forge.create_comment(number, block["content"])
        run.report.requests += 1
        run.report.created_remote += 1
        meta = {**block["metadata"], "forge_id": comment.forge_id}
        _save_comment_meta(run, block, comment, meta)


def _save_comment_meta(
    run: Run, block: dict[str, Any], comment: RemoteComment, meta: dict[str, Any]
) -> None:
    snapshot = merge.remote_comment(comment)

    def also(conn: Any, stored: dict[str, Any], action: str) -> None:
        state.save_base_in(
            conn,
            run.link_id,
            stored["id"],
            "comment",
            comment.forge_id,
            comment.issue_number,
            snapshot,
        )
        state.end_create_in(conn, stored["id"])

    update_block(run.app, run.who, block["id"], BlockChanges(meta=meta), also=also)


def push_changed(run: Run) -> None:
    """Records changed here since their last sync: fetch the remote one fresh and reconcile, so
    a remote edit made meanwhile is merged, never overwritten."""
    for row in state.locally_changed(run.app, run.link_id):
        block = _local(run, row["id"])
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
    try:
        remote = run.forge.get_comment(int(base["forge_id"]))
    except (Gone, Moved) as exc:
        _gone(run, base, exc)
        return
    finally:
        run.report.requests += 1
    guarded(run, reconcile_comment, remote)
