"""``ctx issues list|show|create|edit|comment|close|reopen``: the REST operations from a shell."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from ctx.core import ValidationError
from ctx.plugins.issues.client import base_url, call

cli = typer.Typer(help="Track work as issues: file, list, comment, close.", no_args_is_help=True)

NumberArg = Annotated[int, typer.Argument(help="The issue's number.", min=1)]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the server's JSON answer.")]
LabelOpt = Annotated[list[str] | None, typer.Option("--label", "-l", help="A label (repeat).")]
AssigneeOpt = Annotated[
    list[str] | None, typer.Option("--assignee", "-a", help="An assignee (repeat).")
]


def _url(ctx: typer.Context) -> str:
    return base_url(getattr(ctx.obj, "settings", None))


def _line(issue: dict[str, Any]) -> str:
    labels = f"  [{', '.join(issue['labels'])}]" if issue.get("labels") else ""
    return f"#{issue['number']:<5} {issue['state']:<6} {issue['title']}{labels}"


def _print(data: dict[str, Any], as_json: bool, text: str) -> None:
    typer.echo(json.dumps(data, indent=2, default=str) if as_json else text)


@cli.command("list")
def list_issues(
    ctx: typer.Context,
    state: Annotated[str | None, typer.Option(help="open or closed")] = None,
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
    if state not in (None, "open", "closed"):
        raise ValidationError(f"--state must be open or closed, not {state!r}", field="state")
    params = {"state": state, "label": label, "assignee": assignee, "text": text}
    data = call(_url(ctx), "GET", "/api/issues", params={**params, "scope": scope, "limit": limit})
    _print(data, as_json, "\n".join(_line(i) for i in data["issues"]) or "no issues")


@cli.command("show")
def show(
    ctx: typer.Context,
    number: NumberArg,
    scope: Annotated[str | None, typer.Option(help="Default: your home scope.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """One issue with its comments and history."""
    data = call(_url(ctx), "GET", f"/api/issues/{number}", params={"scope": scope})
    lines = [_line(data), "", data.get("body") or ""]
    lines += [f"\n— {c['author']}: {c['body']}" for c in data["comments"]]
    _print(data, as_json, "\n".join(lines))


@cli.command("create")
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
    data = call(_url(ctx), "POST", "/api/issues", req)
    _print(data, as_json, f"created {_line(data)}")


@cli.command("edit")
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
    data = call(_url(ctx), "PATCH", f"/api/issues/{number}", changes)
    _print(data, as_json, f"edited {_line(data)}")


@cli.command("comment")
def comment(
    ctx: typer.Context,
    number: NumberArg,
    body: Annotated[str, typer.Argument(help="The comment.")],
    as_json: JsonOpt = False,
) -> None:
    """Comment on an issue."""
    if not body.strip():
        raise ValidationError("the comment is empty", field="body")
    data = call(_url(ctx), "POST", f"/api/issues/{number}/comments", {"body": body})
    _print(data, as_json, f"commented on #{number}")


@cli.command("close")
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
    data = call(_url(ctx), "POST", f"/api/issues/{number}/close", {"reason": reason})
    _print(data, as_json, f"closed {_line(data)}")


@cli.command("reopen")
def reopen(ctx: typer.Context, number: NumberArg, as_json: JsonOpt = False) -> None:
    """Reopen a closed issue."""
    data = call(_url(ctx), "POST", f"/api/issues/{number}/reopen")
    _print(data, as_json, f"reopened {_line(data)}")
