"""MCP tools: an agent files, finds and triages issues with the same operations as REST."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from ctx.core import App, Principal, Tool
from ctx.plugins.issues import service
from ctx.plugins.issues.schemas import (
    CloseRequest,
    CommentCreate,
    IssueCreate,
    IssueEdit,
    IssueFilter,
    Reason,
    Request,
    SuggestRequest,
)
from ctx.plugins.issues.suggest import suggest
from ctx.plugins.issues.sync import service as sync
from ctx.plugins.issues.sync.schemas import ResolveRequest, SyncRequest


class NumberInput(Request):
    number: int = Field(ge=1, description="The issue's number in its scope.")
    scope: str | None = Field(default=None, description="Default: the key's home scope.")


class CommentInput(CommentCreate):
    number: int = Field(ge=1, description="The issue's number in your home scope.")


class CloseInput(Request):
    number: int = Field(ge=1, description="The issue's number in your home scope.")
    reason: Reason = Field(default="completed", description="completed, not_planned, duplicate.")


class EditInput(IssueEdit):
    number: int = Field(ge=1, description="The issue's number in your home scope.")


class ReopenInput(Request):
    number: int = Field(ge=1, description="The issue's number in your home scope.")


class ConflictsInput(Request):
    scope: str | None = Field(default=None, description="One readable scope (default: all).")


class ResolveInput(ResolveRequest):
    conflict_id: int = Field(ge=1, description="The conflict's id (from issue_conflicts).")


def _edit(app: App, who: Principal, args: EditInput) -> Any:
    fields = args.model_dump(exclude_unset=True, exclude={"number"})
    return service.edit(app, who, args.number, IssueEdit(**fields))


def _reopen(app: App, who: Principal, args: ReopenInput) -> Any:
    return service.reopen(app, who, args.number)


def _sync(app: App, who: Principal, args: SyncRequest) -> Any:
    return sync.sync_now(app, who, args.scope)


def _conflicts(app: App, who: Principal, args: ConflictsInput) -> Any:
    return {"conflicts": sync.list_conflicts(app, who, args.scope)}


def _resolve(app: App, who: Principal, args: ResolveInput) -> Any:
    return sync.resolve(app, who, args.conflict_id, args.take)


def _create(app: App, who: Principal, args: IssueCreate) -> Any:
    return service.create(app, who, args)


def _list(app: App, who: Principal, args: IssueFilter) -> Any:
    return {"issues": service.list_issues(app, who, args)}


def _show(app: App, who: Principal, args: NumberInput) -> Any:
    return service.show(app, who, args.number, args.scope)


def _comment(app: App, who: Principal, args: CommentInput) -> Any:
    return service.comment(app, who, args.number, CommentCreate(body=args.body))


def _close(app: App, who: Principal, args: CloseInput) -> Any:
    return service.close(app, who, args.number, CloseRequest(reason=args.reason))


def _suggest(app: App, who: Principal, args: SuggestRequest) -> Any:
    return suggest(app, who, args)


TOOLS = [
    Tool(
        "issue_create",
        "File an issue (title, body, labels, assignees, milestone) in your home scope; it gets "
        "the scope's next number. Call issue_suggest first to avoid a duplicate.",
        IssueCreate,
        _create,
    ),
    Tool(
        "issue_list",
        "List issues you can read, newest first; filter by state (open/closed), label, "
        "assignee or text.",
        IssueFilter,
        _list,
        read_only=True,
        idempotent=True,
    ),
    Tool(
        "issue_show",
        "One issue by number: its fields, comments, history and Dream links.",
        NumberInput,
        _show,
        read_only=True,
        idempotent=True,
    ),
    Tool(
        "issue_comment",
        "Comment on an issue of your home scope (by its number): findings, progress, a fix.",
        CommentInput,
        _comment,
    ),
    Tool(
        "issue_close",
        "Close an issue of your home scope (reason: completed, not_planned, duplicate).",
        CloseInput,
        _close,
    ),
    Tool(
        "issue_suggest",
        "Before filing: likely duplicate issues and related issues and knowledge for a title "
        "and body.",
        SuggestRequest,
        _suggest,
        read_only=True,
        idempotent=True,
    ),
    Tool(
        "issue_edit",
        "Change an issue of your home scope: title, body, labels (all of them), assignees (all "
        "of them) or milestone; fields left out stay as they are.",
        EditInput,
        _edit,
        idempotent=True,
    ),
    Tool(
        "issue_reopen",
        "Reopen a closed issue of your home scope.",
        ReopenInput,
        _reopen,
    ),
    Tool(
        "issue_sync",
        "Sync a repository scope's issues with its linked forge repository (GitHub) now; "
        "returns what was pulled, pushed and created, and any conflicts.",
        SyncRequest,
        _sync,
    ),
    Tool(
        "issue_conflicts",
        "Open sync conflicts (an issue or comment changed differently here and on the forge), "
        "with the base, local and remote versions.",
        ConflictsInput,
        _conflicts,
        read_only=True,
        idempotent=True,
    ),
    Tool(
        "issue_resolve",
        "Resolve a sync conflict by taking the local or the remote version; the next sync "
        "carries it to the other side.",
        ResolveInput,
        _resolve,
    ),
]
