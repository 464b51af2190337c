"""The issue operations every surface calls (REST, CLI through REST, MCP): create, edit, comment,
close, reopen, list, show. Issues and comments are blocks written through the core's write path,
so Guard, embedding, temporal extraction and Dream treat them as any other block."""

from __future__ import annotations

import uuid
from typing import Any

from ctx.core import (
    AlsoInTransaction,
    App,
    BlockChanges,
    Conflict,
    Forbidden,
    NotFound,
    Principal,
    StoreRequest,
    get_block,
    store_block,
    update_block,
)
from ctx.plugins.issues import records
from ctx.plugins.issues.schemas import (
    CloseInput,
    CloseRequest,
    CommentCreate,
    CommentInput,
    EditInput,
    IssueCreate,
    IssueEdit,
    IssueFilter,
    NumberInput,
    ReopenInput,
)
from ctx.plugins.issues.types import (
    COMMENT,
    COMMENT_CATEGORY,
    ISSUE,
    ISSUE_CATEGORY,
    issue_title,
    plain_title,
)

# Metadata fields an edit may change, with the history kind a change of only that field records.
EDIT_KINDS = {"labels": "labelled", "assignees": "assigned"}


def view(block: dict[str, Any]) -> dict[str, Any]:
    """An issue as the surfaces show it."""
    meta = block["metadata"]
    return {
        **{k: v for k, v in meta.items()},
        "id": block["id"],
        "scope": block["scope"],
        "title": plain_title(block["title"]),
        "body": block.get("content"),
        "labels": meta.get("labels", []),
        "assignees": meta.get("assignees", []),
        "created_at": block["created_at"],
        "updated_at": block["updated_at"],
    }


def find(app: App, who: Principal, number: int, scope: str | None = None) -> dict[str, Any]:
    """The issue block ``number`` of ``scope`` (default the key's home scope)."""
    scope = scope or who.home_scope
    if not who.can_read(scope):
        raise Forbidden(f"this key cannot read scope {scope!r}")
    issue_id = records.issue_id_by_number(app, scope, number)
    if issue_id is None:
        raise NotFound(f"no issue #{number} in scope {scope!r}")
    return get_block(app, who, issue_id)


def create(app: App, who: Principal, req: IssueCreate) -> dict[str, Any]:
    """File an issue in the key's home scope under the scope's next number."""
    who.require_write(who.home_scope)
    number = records.next_number(app, who.home_scope)
    meta: dict[str, Any] = {
        "number": number,
        "state": "open",
        "labels": req.labels,
        "assignees": req.assignees,
        "author": who.name,
    }
    if req.milestone:
        meta["milestone"] = req.milestone
    stored = store_block(
        app,
        who,
        StoreRequest(
            title=issue_title(number, req.title),
            content=req.body or req.title,
            category=ISSUE_CATEGORY,
            block_type=ISSUE,
            meta=meta,
        ),
        also=records.recorder(who.name, "created", None, {"title": req.title, **meta}),
    )
    return view(get_block(app, who, stored["id"]))


def change(
    app: App,
    who: Principal,
    issue: dict[str, Any],
    changes: dict[str, Any],
    kind: str,
    actor: str | None = None,
) -> dict[str, Any]:
    """Apply ``changes`` (title, body and metadata fields) and record them under ``kind``, by
    ``actor`` (default the key's name), in the change's transaction."""
    who.require_write(issue["scope"])
    current = view(issue)
    changed = {k: v for k, v in changes.items() if current.get(k) != v}
    if not changed:
        return current
    meta = {**issue["metadata"], **{k: v for k, v in changed.items() if k not in ("title", "body")}}
    fields: dict[str, Any] = {"meta": {k: v for k, v in meta.items() if v is not None}}
    if "title" in changed:
        fields["title"] = issue_title(meta["number"], changed["title"])
    if "body" in changed:
        fields["content"] = changed["body"] or current["title"]
    old = {k: current.get(k) for k in changed}
    also = records.recorder(actor or who.name, kind, old, changed)
    update_block(app, who, issue["id"], BlockChanges(**fields), also=also)
    return view(get_block(app, who, issue["id"]))


def edit(app: App, who: Principal, number: int, req: IssueEdit) -> dict[str, Any]:
    # null clears only the milestone; for the other fields it means "leave as it is"
    given = req.model_dump(exclude_unset=True)
    changes = {k: v for k, v in given.items() if v is not None or k == "milestone"}
    if not changes:
        raise Conflict("nothing to change: give title, body, labels, assignees or milestone")
    issue = find(app, who, number)
    kind = EDIT_KINDS.get(next(iter(changes)), "edited") if len(changes) == 1 else "edited"
    return change(app, who, issue, changes, kind)


def close(app: App, who: Principal, number: int, req: CloseRequest) -> dict[str, Any]:
    issue = find(app, who, number)
    if issue["metadata"].get("state") == "closed":
        raise Conflict(f"issue #{number} is already closed")
    return change(app, who, issue, {"state": "closed", "state_reason": req.reason}, "closed")


def reopen(app: App, who: Principal, number: int) -> dict[str, Any]:
    issue = find(app, who, number)
    if issue["metadata"].get("state") != "closed":
        raise Conflict(f"issue #{number} is already open")
    return change(app, who, issue, {"state": "open", "state_reason": "reopened"}, "reopened")


def comment(app: App, who: Principal, number: int, req: CommentCreate) -> dict[str, Any]:
    """Add a comment (a block of its own, linked to the issue by metadata.issue_id)."""
    issue = find(app, who, number)
    who.require_write(issue["scope"])
    stored = store_block(
        app,
        who,
        StoreRequest(
            title=f"#{number} comment {uuid.uuid4().hex[:12]}",
            content=req.body,
            category=COMMENT_CATEGORY,
            block_type=COMMENT,
            meta={"issue_id": issue["id"], "number": number, "author": who.name},
        ),
        also=_commented(issue, who.name),
    )
    return {"id": stored["id"], "issue": number, "author": who.name, "body": req.body}


def _commented(issue: dict[str, Any], actor: str) -> AlsoInTransaction:
    def also(conn: Any, block: dict[str, Any], action: str) -> None:
        records.record_in(conn, issue, actor, "commented", None, {"comment_id": block["id"]})

    return also


def list_issues(app: App, who: Principal, filters: IssueFilter) -> list[dict[str, Any]]:
    """Issues of the key's read scopes (or one of them), newest first."""
    if filters.scope is not None and not who.can_read(filters.scope):
        raise Forbidden(f"this key cannot read scope {filters.scope!r}")
    scopes = [filters.scope] if filters.scope else list(who.read_scopes)
    rows = records.list_rows(app, scopes, filters.model_dump(exclude={"scope"}))
    return [view(row) for row in rows]


def show(app: App, who: Principal, number: int, scope: str | None = None) -> dict[str, Any]:
    """An issue with its comments, its history and Dream's links to other blocks."""
    issue = find(app, who, number, scope)
    return {
        **view(issue),
        "comments": records.comment_rows(app, issue["id"], issue["scope"]),
        "history": records.history(app, issue["id"]),
        "links": records.link_rows(app, issue["id"], list(who.read_scopes)),
        "sync": sync_status(app, issue["id"]),
    }


def sync_status(app: App, issue_id: str) -> dict[str, Any] | None:
    """Where a synced issue stands: last synced, unlinked (and why), an open conflict's id."""
    from ctx.plugins.issues.sync import state

    base = state.base_of_block(app, issue_id)
    if base is None:
        return None
    conflict = state.open_conflict(app, issue_id)
    return {
        "synced_at": base["synced_at"],
        "gone": base["gone"],
        "conflict": None if conflict is None else conflict["id"],
    }


# -- the operations by their input (``service(app, who, input)``, ``ctx.plugins.issues.operations``)


def listed(app: App, who: Principal, filters: IssueFilter) -> dict[str, Any]:
    issues = list_issues(app, who, filters)
    return {"issues": issues, "count": len(issues)}


def show_numbered(app: App, who: Principal, ref: NumberInput) -> dict[str, Any]:
    return show(app, who, ref.number, ref.scope)


def edit_numbered(app: App, who: Principal, req: EditInput) -> dict[str, Any]:
    fields = req.model_dump(exclude_unset=True, exclude={"number"})
    return edit(app, who, req.number, IssueEdit(**fields))


def comment_numbered(app: App, who: Principal, req: CommentInput) -> dict[str, Any]:
    return comment(app, who, req.number, CommentCreate(body=req.body))


def close_numbered(app: App, who: Principal, req: CloseInput) -> dict[str, Any]:
    return close(app, who, req.number, CloseRequest(reason=req.reason))


def reopen_numbered(app: App, who: Principal, req: ReopenInput) -> dict[str, Any]:
    return reopen(app, who, req.number)
