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
    IssueFilter,
    Reason,
    Request,
    SuggestRequest,
)
from ctx.plugins.issues.suggest import suggest


class NumberInput(Request):
    number: int = Field(ge=1, description="The issue's number in its scope.")
    scope: str | None = Field(default=None, description="Default: the key's home scope.")


class CommentInput(CommentCreate):
    number: int = Field(ge=1, description="The issue's number in your home scope.")


class CloseInput(Request):
    number: int = Field(ge=1, description="The issue's number in your home scope.")
    reason: Reason = Field(default="completed", description="completed, not_planned, duplicate.")


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
]
