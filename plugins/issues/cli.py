"""``ctx issues list|show|create|edit|comment|close|reopen|sync|link|links|conflicts|resolve``:
the issue operations (``operations``) from a shell, each command presenting the one it calls."""

from __future__ import annotations

import json
import os
from typing import Annotated, Any

import typer

from ctx.core import ApiClient, Operation, ValidationError
from ctx.plugins.issues.operations import (
    CLOSE_ISSUE,
    COMMENT_ON_ISSUE,
    CREATE_ISSUE,
    EDIT_ISSUE,
    LINK_FORGE,
    LIST_FORGE_LINKS,
    LIST_ISSUES,
    LIST_SYNC_CONFLICTS,
    REOPEN_ISSUE,
    RESOLVE_SYNC_CONFLICT,
    SHOW_ISSUE,
    SYNC_ISSUES,
)
from ctx.ui import presents

cli = typer.Typer(help="Track work as issues: file, list, comment, close.", no_args_is_help=True)

NumberArg = Annotated[int, typer.Argument(help="The issue's number.", min=1)]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the server's JSON answer.")]
LabelOpt = Annotated[list[str] | None, typer.Option("--label", "-l", help="A label (repeat).")]
AssigneeOpt = Annotated[
    list[str] | None, typer.Option("--assignee", "-a", help="An assignee (repeat).")
]


def call(ctx: typer.Context, op: Operation, values: dict[str, Any]) -> dict[str, Any]:
    """Operation ``op`` through its route on the server at ``CTX_URL`` (else this machine's
    ctxd) with ``CTX_API_KEY``; the server's refusal becomes a one-line error (exit 2)."""
    settings = getattr(ctx.obj, "settings", None)
    url = (
        None if settings is None else f"http://{settings['server.host']}:{settings['server.port']}"
    )
    return ApiClient(url=os.environ.get("CTX_URL") or url).call(op, values)


def _line(issue: dict[str, Any]) -> str:
    labels = f"  [{', '.join(issue['labels'])}]" if issue.get("labels") else ""
    return f"#{issue['number']:<5} {issue['state']:<6} {issue['title']}{labels}"


def _print(data: dict[str, Any], as_json: bool, text: str) -> None:
    typer.echo(json.dumps(data, indent=2, default=str) if as_json else text)


@cli.command("list")
@presents(LIST_ISSUES)
def list_issues(
    ctx: typer.Context,
    state: Annotated[str | None, typer.Option(help="open, closed or all (the default)")] = None,
    label: Annotated[str | None, typer.Option(help="Only issues with this label.")] = None,
    assignee: Annotated[str | None, typer.Option(help="Only issues assigned to this name.")] = None,
    text: Annotated[
        str | None, typer.Option("--text", "-q", help="Words in title or body.")
    ] = None,
    scope: Annotated[str | None, typer.Option(help="One readable scope.")] = None,
    limit: Annotated[int, typer.Option(min=1, max=200)] = 50,
    as_json: JsonOpt = False,
) -> None:
    """Issues you can read, newest first."""
    params = {"state": state, "label": label, "assignee": assignee, "text": text}
    data = call(ctx, LIST_ISSUES, {**params, "scope": scope, "limit": limit})
    _print(data, as_json, "\n".join(_line(i) for i in data["issues"]) or "no issues")


@cli.command("show")
@presents(SHOW_ISSUE)
def show(
    ctx: typer.Context,
    number: NumberArg,
    scope: Annotated[str | None, typer.Option(help="Default: your home scope.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """One issue with its comments and history."""
    data = call(ctx, SHOW_ISSUE, {"number": number, "scope": scope})
    lines = [_line(data), "", data.get("body") or ""]
    lines += [f"\n— {c['author']}: {c['body']}" for c in data["comments"]]
    _print(data, as_json, "\n".join(lines))


@cli.command("create")
@presents(CREATE_ISSUE)
def create(
    ctx: typer.Context,
    title: Annotated[str, typer.Argument(help="One line.")],
    body: Annotated[str, typer.Option("--body", "-b", help="The description.")] = "",
    label: LabelOpt = None,
    assignee: AssigneeOpt = None,
    milestone: Annotated[str | None, typer.Option(help="A milestone name.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """File an issue in your home scope."""
    if not title.strip() or "\n" in title:
        raise ValidationError("the title must be one line of text, not empty", field="title")
    req: dict[str, Any] = {"title": title, "body": body, "labels": label or []}
    req |= {"assignees": assignee or [], "milestone": milestone}
    data = call(ctx, CREATE_ISSUE, req)
    _print(data, as_json, f"created {_line(data)}")


@cli.command("edit")
@presents(EDIT_ISSUE)
def edit(
    ctx: typer.Context,
    number: NumberArg,
    title: Annotated[str | None, typer.Option(help="A new title.")] = None,
    body: Annotated[str | None, typer.Option(help="A new description.")] = None,
    label: LabelOpt = None,
    assignee: AssigneeOpt = None,
    milestone: Annotated[str | None, typer.Option(help="A new milestone.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Change an issue's title, body, labels (replaced), assignees (replaced) or milestone."""
    given = {"title": title, "body": body, "labels": label, "assignees": assignee}
    changes = {k: v for k, v in {**given, "milestone": milestone}.items() if v is not None}
    if not changes:
        raise ValidationError("nothing to change: give --title, --body, --label, ...")
    data = call(ctx, EDIT_ISSUE, {"number": number, **changes})
    _print(data, as_json, f"edited {_line(data)}")


@cli.command("comment")
@presents(COMMENT_ON_ISSUE)
def comment(
    ctx: typer.Context,
    number: NumberArg,
    body: Annotated[str, typer.Argument(help="The comment.")],
    as_json: JsonOpt = False,
) -> None:
    """Comment on an issue."""
    if not body.strip():
        raise ValidationError("the comment is empty", field="body")
    data = call(ctx, COMMENT_ON_ISSUE, {"number": number, "body": body})
    _print(data, as_json, f"commented on #{number}")


@cli.command("close")
@presents(CLOSE_ISSUE)
def close(
    ctx: typer.Context,
    number: NumberArg,
    reason: Annotated[str, typer.Option(help="completed, not_planned or duplicate")] = "completed",
    as_json: JsonOpt = False,
) -> None:
    """Close an issue."""
    if reason not in ("completed", "not_planned", "duplicate"):
        raise ValidationError(
            f"--reason must be completed, not_planned or duplicate, not {reason!r}", field="reason"
        )
    data = call(ctx, CLOSE_ISSUE, {"number": number, "reason": reason})
    _print(data, as_json, f"closed {_line(data)}")


@cli.command("reopen")
@presents(REOPEN_ISSUE)
def reopen(ctx: typer.Context, number: NumberArg, as_json: JsonOpt = False) -> None:
    """Reopen a closed issue."""
    data = call(ctx, REOPEN_ISSUE, {"number": number})
    _print(data, as_json, f"reopened {_line(data)}")


@cli.command("sync")
@presents(SYNC_ISSUES)
def sync(
    ctx: typer.Context,
    scope: Annotated[str | None, typer.Option(help="The linked scope (default: home).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Sync the scope's issues with its forge repository now."""
    data = call(ctx, SYNC_ISSUES, {"scope": scope})
    counts = ("pulled", "pushed", "created_local", "created_remote", "conflicts", "gone", "skipped")
    text = f"{data['scope']} <-> {data['forge']}:{data['repo']}  " + "  ".join(
        f"{name} {data[name]}" for name in counts
    )
    if data.get("rate_limited_until"):
        text += f"\nrate limited: resumes after {data['rate_limited_until']}"
    if data.get("error"):
        text += f"\nerror: {data['error']}"
    for problem in data.get("problems") or []:
        text += f"\nskipped {problem}"
    if data["conflicts"]:
        text += "\nsee `ctx issues conflicts`"
    _print(data, as_json, text)


@cli.command("link")
@presents(LINK_FORGE)
def link(
    ctx: typer.Context,
    scope: Annotated[str, typer.Option(help="The repository scope to sync.")],
    repo: Annotated[str, typer.Option(help="The forge repository: owner/name.")],
    token_secret: Annotated[str, typer.Option(help="The vault secret holding the token.")],
    forge: Annotated[str, typer.Option(help="The forge.")] = "github",
    webhook_secret: Annotated[
        str | None, typer.Option(help="The vault secret webhooks are signed with.")
    ] = None,
    base_url: Annotated[
        str | None, typer.Option(help="API base for GitHub Enterprise: https://host/api/v3")
    ] = None,
    interval: Annotated[
        int | None, typer.Option(help="Seconds between pulls (default: issues.sync_interval_s).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Link a repository scope to a forge repository (admin key)."""
    body: dict[str, Any] = {"scope": scope, "repo": repo, "forge": forge}
    body["token_secret"] = token_secret
    body |= {"webhook_secret": webhook_secret, "base_url": base_url, "interval_s": interval}
    data = call(ctx, LINK_FORGE, body)
    _print(
        data,
        as_json,
        f"linked {data['scope']} <-> {data['forge']}:{data['repo']} (link {data['id']})",
    )


@cli.command("links")
@presents(LIST_FORGE_LINKS)
def links(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """Forge links of your scopes, with their last run."""
    data = call(ctx, LIST_FORGE_LINKS, {})
    lines = [
        f"{x['id']:<4} {x['scope']} <-> {x['forge']}:{x['repo']}  last "
        f"{x['last_sync_at'] or 'never'}"
        + (f"  error: {x['last_error']}" if x["last_error"] else "")
        for x in data["links"]
    ]
    _print(data, as_json, "\n".join(lines) or "no links")


@cli.command("conflicts")
@presents(LIST_SYNC_CONFLICTS)
def conflicts(
    ctx: typer.Context,
    scope: Annotated[str | None, typer.Option(help="One readable scope.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Open sync conflicts, with both versions of each conflicting field."""
    data = call(ctx, LIST_SYNC_CONFLICTS, {"scope": scope})
    lines = []
    for c in data["conflicts"]:
        lines.append(f"conflict {c['id']}: {c['kind']} of #{c['number']} ({c['scope']})")
        for name in c["fields"]:
            lines.append(f"  {name}:")
            lines.append(f"    local:  {json.dumps(c['local'].get(name), ensure_ascii=False)}")
            lines.append(f"    remote: {json.dumps(c['remote'].get(name), ensure_ascii=False)}")
    if lines:
        lines.append("resolve with `ctx issues resolve ID --take local|remote`")
    _print(data, as_json, "\n".join(lines) or "no conflicts")


@cli.command("resolve")
@presents(RESOLVE_SYNC_CONFLICT)
def resolve(
    ctx: typer.Context,
    conflict_id: Annotated[int, typer.Argument(help="The conflict's id.", min=1)],
    take: Annotated[str, typer.Option(help="local or remote")],
    as_json: JsonOpt = False,
) -> None:
    """Resolve a sync conflict: take the local or the remote version."""
    if take not in ("local", "remote"):
        raise ValidationError(f"--take must be local or remote, not {take!r}", field="take")
    data = call(ctx, RESOLVE_SYNC_CONFLICT, {"conflict_id": conflict_id, "take": take})
    _print(data, as_json, f"conflict {conflict_id}: took the {take} version; a sync is queued")
