"""One sync run of a link: pull the remote's changes, reconcile each record three ways
(``pull``), push what changed only here (``push``). Every step is idempotent, so a run cut short
(a rate limit, a crash) is simply run again: cursors are saved page by page and bases record
what both sides agree on. A run holds a lease on its link, renewed as it goes.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any, cast

from ctx.core import App, CtxError, Principal
from ctx.plugins.issues.sync import state
from ctx.plugins.issues.sync.forge import (
    AuthFailed,
    Forge,
    ForgeError,
    ForgeLink,
    ForgeRateLimited,
    Page,
    RemoteIssue,
    Unreachable,
    forge_kind,
)

log = logging.getLogger("ctx.plugins.issues.sync")
MAX_PAGES = 1000  # a listing that never ends is a forge bug; stop rather than loop
MAX_PROBLEMS = 10


class LeaseLost(ForgeError):
    """Another run took the link over (this one ran past its lease)."""


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
    skipped: int = 0  # records refused here or by the forge (see problems); retried next run
    problems: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Run:
    app: App
    link: dict[str, Any]
    forge: Forge
    token: str
    report: Report = field(default_factory=Report)
    skipped_keys: set[str] = field(default_factory=set)
    pulls: set[int] = field(default_factory=set)  # remote numbers known to be pull requests

    @property
    def who(self) -> Principal:
        name = f"{self.link['forge']} sync"
        return Principal(key_id=cast(str, None), name=name, home_scope=self.link["scope"])

    @property
    def link_id(self) -> int:
        return int(self.link["id"])

    def actor(self, login: str | None) -> str:
        return f"{self.link['forge']}:{login}" if login else f"{self.link['forge']} sync"

    def renew(self) -> None:
        """Keep the lease; stop when another run has taken the link."""
        if not state.renew_run(self.app, self.link_id, self.token):
            raise LeaseLost("another run took this link over; this one stops")


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
    from ctx.plugins.issues.sync import pull, push

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


def guarded(run: Run, handle: Any, item: Any) -> None:
    """Reconcile one record. One that fails on its own (refused by the local rules, such as a
    remote issue with more labels than the type allows, or by the forge, such as a comment on a
    locked issue) is reported and skipped, and tried again next run; it never stops the rest.
    What concerns the whole run (a rate limit, the token, the network, the lease) stops it."""
    try:
        handle(run, item)
    except (ForgeRateLimited, AuthFailed, Unreachable, LeaseLost):
        raise
    except (CtxError, ForgeError) as exc:
        if isinstance(item, int):
            what = f"remote issue #{item}"
        elif isinstance(item, RemoteIssue):
            what = f"remote issue #{item.number}"
        elif isinstance(item, str):
            what = f"local record {item}"
        elif isinstance(item, dict):
            what = f"local {item.get('kind', 'record')} {item.get('block_id')}"
        else:
            what = f"remote comment {getattr(item, 'forge_id', '?')}"
        if what in run.skipped_keys:  # met again (a listing repeats its boundary record)
            return
        run.skipped_keys.add(what)
        run.report.skipped += 1
        if len(run.report.problems) < MAX_PROBLEMS:
            run.report.problems.append(f"{what}: {getattr(exc, 'message', None) or exc}")


def listing_pages(run: Run, name: str, fetch: Any) -> Any:
    """The pages of a listing from its saved cursor, keyset style: after each page the cursor
    moves to the newest time seen (and is saved once the page is handled), so records updated
    meanwhile are met again rather than skipped. The run ends with a request whose URL the next
    run repeats with the saved ETag (a 304 when nothing changed)."""
    since: datetime | None = run.link[f"{name}_since"]
    etag: str | None = run.link[f"{name}_etag"]
    page_no = 1
    for _ in range(MAX_PAGES):
        run.renew()
        page: Page = fetch(since, page_no, etag if page_no == 1 else None)
        etag = None  # the saved ETag belongs to the first request's URL only
        run.report.requests += 1
        if page.not_modified:
            run.report.not_modified += 1
            return
        yield page
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
