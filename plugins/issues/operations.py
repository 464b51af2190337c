"""The issue operations, each declared once: its REST route under ``/api/issues``, its ``issue_*``
MCP tool and the ``ctx issues`` command that presents it derive from the declaration. The sync's
operations (``/api/issues/sync``, the forges' webhook) are here too. Only models are imported; the
services are named."""

from __future__ import annotations

from ctx.core import Operation, Rest, ToolSurface
from ctx.plugins.issues.schemas import (
    CloseInput,
    CloseRequest,
    CommentCreate,
    CommentInput,
    EditInput,
    IssueCreate,
    IssueEdit,
    IssueFilter,
    IssueShow,
    NumberInput,
    ReopenInput,
    SuggestRequest,
)
from ctx.plugins.issues.sync.schemas import (
    ConflictFilter,
    ConflictResolution,
    ConflictsInput,
    LinkCreate,
    LinkRef,
    ResolveConflict,
    ResolveInput,
    SyncRequest,
)

SERVICE = "ctx.plugins.issues.service"
SYNC = "ctx.plugins.issues.sync.service"
TOOLS = "ctx.plugins.issues.tools"
BY_NUMBER = {
    404: "No issue of that number in the scope.",
    409: "Nothing to change, or the issue is already in that state.",
}
SYNC_ERRORS = {
    404: "The scope has no forge link, or no such link or conflict.",
    409: "A run of the scope is going already, the forge's rate limit pauses the link, or the "
    "conflict is resolved already.",
}

LIST_ISSUES = Operation(
    name="issues.list",
    summary="Issues of the key's read scopes, newest first; filter by state, label, assignee, "
    "text.",
    service=f"{SERVICE}:listed",
    input=IssueFilter,
    rest=Rest("GET", "/api/issues"),
    tool=ToolSurface(
        "issue_list",
        "List issues you can read, newest first; filter by state (open, closed or all), label, "
        "assignee or text.",
        run=f"{TOOLS}:run_list",
        idempotent=True,
    ),
    cli=True,
)

CREATE_ISSUE = Operation(
    name="issues.create",
    summary="File an issue in the key's home scope; it gets the scope's next number.",
    service=f"{SERVICE}:create",
    input=IssueCreate,
    kind="write",
    reach="home",
    rest=Rest("POST", "/api/issues", status=201),
    tool=ToolSurface(
        "issue_create",
        "File an issue (title, body, labels, assignees, milestone) in your home scope; it gets "
        "the scope's next number. Call issue_suggest first to avoid a duplicate.",
    ),
    cli=True,
)

SUGGEST_ISSUES = Operation(
    name="issues.suggest",
    summary="Likely duplicates and related blocks for an issue not yet filed.",
    service="ctx.plugins.issues.suggest:suggest",
    input=SuggestRequest,
    rest=Rest("POST", "/api/issues/suggest"),
    tool=ToolSurface(
        "issue_suggest",
        "Before filing: likely duplicate issues and related issues and knowledge for a title "
        "and body.",
        idempotent=True,
    ),
)

SHOW_ISSUE = Operation(
    name="issues.show",
    summary="An issue with its comments, history and Dream links (``scope`` defaults to home).",
    service=f"{SERVICE}:show_numbered",
    input=IssueShow,
    rest=Rest("GET", "/api/issues/{number}", errors=BY_NUMBER),
    tool=ToolSurface(
        "issue_show",
        "One issue by number: its fields, comments, history and Dream links.",
        input=NumberInput,
        idempotent=True,
    ),
    cli=True,
)

EDIT_ISSUE = Operation(
    name="issues.edit",
    summary="Change an issue of the key's home scope: title, body, labels, assignees, milestone.",
    description="Fields left out (or null) stay as they are; labels and assignees are replaced "
    "as a whole; a null milestone clears it.",
    service=f"{SERVICE}:edit_numbered",
    input=EditInput,
    kind="write",
    reach="home",
    rest=Rest("PATCH", "/api/issues/{number}", body=IssueEdit, errors=BY_NUMBER),
    tool=ToolSurface(
        "issue_edit",
        "Change an issue of your home scope: title, body, labels (all of them), assignees (all "
        "of them) or milestone; fields left out stay as they are.",
        idempotent=True,
    ),
    cli=True,
)

COMMENT_ON_ISSUE = Operation(
    name="issues.comment",
    summary="Comment on an issue of the key's home scope.",
    service=f"{SERVICE}:comment_numbered",
    input=CommentInput,
    kind="write",
    reach="home",
    rest=Rest(
        "POST", "/api/issues/{number}/comments", status=201, body=CommentCreate, errors=BY_NUMBER
    ),
    tool=ToolSurface(
        "issue_comment",
        "Comment on an issue of your home scope (by its number): findings, progress, a fix.",
    ),
    cli=True,
)

CLOSE_ISSUE = Operation(
    name="issues.close",
    summary="Close an issue of the key's home scope (reason: completed, not_planned, duplicate).",
    service=f"{SERVICE}:close_numbered",
    input=CloseInput,
    kind="write",
    reach="home",
    rest=Rest(
        "POST",
        "/api/issues/{number}/close",
        body=CloseRequest,
        optional_body=True,
        errors=BY_NUMBER,
    ),
    tool=ToolSurface(
        "issue_close",
        "Close an issue of your home scope (reason: completed, not_planned, duplicate).",
    ),
    cli=True,
)

REOPEN_ISSUE = Operation(
    name="issues.reopen",
    summary="Reopen a closed issue of the key's home scope.",
    service=f"{SERVICE}:reopen_numbered",
    input=ReopenInput,
    kind="write",
    reach="home",
    rest=Rest("POST", "/api/issues/{number}/reopen", errors=BY_NUMBER),
    tool=ToolSurface("issue_reopen", "Reopen a closed issue of your home scope."),
    cli=True,
)

# -- sync with a forge ----------------------------------------------------------------------------

SYNC_ISSUES = Operation(
    name="issues.sync",
    summary="Sync the scope (default: home) with its forge repository now; the run's report.",
    service=f"{SYNC}:sync_scope",
    input=SyncRequest,
    kind="write",
    reach="home",
    rest=Rest("POST", "/api/issues/sync", optional_body=True, errors=SYNC_ERRORS),
    tool=ToolSurface(
        "issue_sync",
        "Sync a repository scope's issues with its linked forge repository (GitHub) now; "
        "returns what was pulled, pushed and created, and any conflicts.",
    ),
    cli=True,
)

LIST_FORGE_LINKS = Operation(
    name="issues.sync.links",
    summary="Forge links of the key's scopes (all, for an admin); secret names, never values.",
    service=f"{SYNC}:links_of",
    rest=Rest("GET", "/api/issues/sync/links"),
    cli=True,
)

LINK_FORGE = Operation(
    name="issues.sync.link",
    summary="Link a repository scope to a forge repository (admin).",
    service=f"{SYNC}:create_link",
    input=LinkCreate,
    kind="write",
    access="admin",
    rest=Rest(
        "POST",
        "/api/issues/sync/links",
        status=201,
        errors={
            404: "No such forge.",
            409: "The scope or the repository is linked already.",
        },
    ),
    cli=True,
)

UNLINK_FORGE = Operation(
    name="issues.sync.unlink",
    summary="Remove a link (admin); the issues stay.",
    service=f"{SYNC}:unlink",
    input=LinkRef,
    kind="write",
    access="admin",
    rest=Rest("DELETE", "/api/issues/sync/links/{link_id}", errors={404: "No such link."}),
)

LIST_SYNC_CONFLICTS = Operation(
    name="issues.sync.conflicts",
    summary="Records both sides changed differently: the base, local and remote versions.",
    service=f"{SYNC}:conflicts_of",
    input=ConflictFilter,
    rest=Rest("GET", "/api/issues/sync/conflicts"),
    tool=ToolSurface(
        "issue_conflicts",
        "Open sync conflicts (an issue or comment changed differently here and on the forge), "
        "with the base, local and remote versions.",
        input=ConflictsInput,
        run=f"{TOOLS}:run_conflicts",
        idempotent=True,
    ),
    cli=True,
)

RESOLVE_SYNC_CONFLICT = Operation(
    name="issues.sync.resolve",
    summary="Pick the local or the remote version; the next run (queued now) carries it over.",
    service=f"{SYNC}:resolve_conflict",
    input=ResolveConflict,
    kind="write",
    reach="home",
    rest=Rest(
        "POST",
        "/api/issues/sync/conflicts/{conflict_id}/resolve",
        body=ConflictResolution,
        errors=SYNC_ERRORS,
    ),
    tool=ToolSurface(
        "issue_resolve",
        "Resolve a sync conflict by taking the local or the remote version; the next sync "
        "carries it to the other side.",
        input=ResolveInput,
    ),
    cli=True,
)

FORGE_WEBHOOK = Operation(
    name="issues.sync.webhook",
    summary="A forge's push delivery: checked against the link's webhook secret, taken once, "
    "and turned into a queued sync (202).",
    description="No key: the delivery's signature (by the linked repository's webhook secret) "
    "is its credential, and its content is never trusted: it only queues a fetch. Answers "
    '``{"status": "queued" | "duplicate" | "pong", "delivery"}``.',
    # the hand-written endpoint reads the raw body (the signature covers its bytes) and calls it
    service=f"{SYNC}:webhook",
    kind="write",
    access="public",
    reach="none",
    rest=Rest(
        "POST",
        "/api/forge/{forge}/webhook",
        status=202,
        endpoint="ctx.plugins.issues.sync.webhook:webhook",
        errors={
            401: "The signature matches no linked repository's webhook secret.",
            404: "No such forge.",
        },
        tags=("issues",),
    ),
)
