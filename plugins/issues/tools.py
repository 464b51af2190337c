"""The issue operations as an agent calls them (MCP tools), where the answer differs from the REST
route's: listings without their ``count``. The tools themselves are declared with their
operations (``operations``)."""

from __future__ import annotations

from typing import Any

from ctx.core import App, Principal
from ctx.plugins.issues import service
from ctx.plugins.issues.schemas import IssueFilter
from ctx.plugins.issues.sync import service as sync
from ctx.plugins.issues.sync.schemas import ConflictsInput


def run_list(app: App, who: Principal, args: IssueFilter) -> Any:
    return {"issues": service.list_issues(app, who, args)}


def run_conflicts(app: App, who: Principal, args: ConflictsInput) -> Any:
    return {"conflicts": sync.list_conflicts(app, who, args.scope)}
