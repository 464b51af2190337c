"""What a sync run carries from step to step (``Run``: the link, the forge, the lease and the
``Report``) and the two steps every part of a run shares: ``guarded`` (one record; its failure is
reported and skipped, a failure of the whole run stops it) and ``listing_pages`` (a remote
listing from its saved cursor). ``pull`` and ``push`` build on it; ``engine`` runs them.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any, cast

from ctx.core import App, CtxError, Principal
from ctx.plugins.issues.sync import state
from ctx.plugins.issues.sync.forge import (
    AuthFailed,
    Forge,
    ForgeError,
    ForgeRateLimited,
    Page,
    RemoteIssue,
    Unreachable,
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
