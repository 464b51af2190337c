"""One sync run of a link: pull the remote's changes, reconcile each record three ways
(``pull``), push what changed only here (``push``). Every step is idempotent, so a run cut short
(a rate limit, a crash) is simply run again: cursors are saved page by page and bases record
what both sides agree on. A run holds a lease on its link, renewed as it goes.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from ctx.core import App, CtxError
from ctx.plugins.issues.sync import pull, push, state
from ctx.plugins.issues.sync.forge import (
    AuthFailed,
    Forge,
    ForgeError,
    ForgeLink,
    ForgeRateLimited,
    forge_kind,
)
from ctx.plugins.issues.sync.run import Report, Run, guarded


def open_forge(app: App, link: dict[str, Any]) -> Forge:
    kind = forge_kind(link["forge"])
    token = app.reveal_secret(link["token_secret"])
    bound = ForgeLink(link["id"], link["scope"], link["forge"], link["repo"], link["base_url"])
    return kind.open(bound, token)


def sync_link(
    app: App, link_id: int, numbers: list[int] | None = None, blocks: list[str] | None = None
) -> Report:
    """Run a sync of the link: all of it (incremental), or only the given remote issue numbers
    and local records (a webhook's hint, a resolved conflict). Only a full run moves the next
    periodic pull."""
    link = state.link(app, link_id)
    token = str(uuid.uuid4())
    if not state.take_run(app, link_id, token):
        return Report(busy=True)
    report, paused = Report(), None
    full = numbers is None and blocks is None
    try:
        report, paused = _run(app, link, token, numbers, blocks)
    except Exception as exc:  # recorded on the link, then the job machinery retries it
        report.error = f"the run failed: {type(exc).__name__}: {exc}"
        raise
    finally:
        state.finish_run(app, link_id, report.as_dict(), report.error, paused, full)
        state.end_run(app, link_id, token)
    return report


def _run(
    app: App,
    link: dict[str, Any],
    token: str,
    numbers: list[int] | None,
    blocks: list[str] | None,
) -> tuple[Report, datetime | None]:
    report = Report()
    try:
        forge = open_forge(app, link)
    except (ForgeError, CtxError) as exc:  # an unknown forge, a missing or unreadable secret
        report.error = str(exc)
        return report, None
    run = Run(app, link, forge, token, report)
    paused: datetime | None = None
    try:
        if numbers is None and blocks is None:
            pull.listing(run, "issues", forge.list_issues, pull.reconcile_issue)
            pull.listing(run, "comments", forge.list_comments, pull.reconcile_comment)
            push.push_new(run)
            push.push_changed(run)
        else:
            for number in numbers or []:
                guarded(run, pull.refresh_number, number)
            push.refresh_blocks(run, blocks or [])
    except ForgeRateLimited as exc:
        paused = exc.until
        report.rate_limited_until = exc.until.isoformat()
    except AuthFailed as exc:
        report.error = f"the forge refused the token: {exc}"
    except (ForgeError, CtxError) as exc:
        report.error = str(exc)
    finally:
        forge.close()
    return report, paused
