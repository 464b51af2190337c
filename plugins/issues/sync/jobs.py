"""The ``issues.sync`` job: a run of one link, queued by the periodic sweep, a webhook, a
resolved conflict or ``ctx issues sync``; a rate limit puts it back until the reset."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ctx.core import App, Job, JobHandler, JobOutcome, NotFound, enqueue
from ctx.plugins.issues.sync import state
from ctx.plugins.issues.sync.engine import sync_link
from ctx.plugins.issues.sync.settings import ENABLED

KIND = "issues.sync"
SWEEP_EVERY_S = 30.0
BUSY_RETRY_S = 10.0
OFF_RETRY_S = 300.0


def queue_sync(
    conn: Any, link_id: int, numbers: list[int] | None = None, blocks: list[str] | None = None
) -> int | None:
    """Queue a run (all of the link, or only some records); a queued twin makes it a no-op."""
    if numbers is None and blocks is None:
        return enqueue(conn, KIND, {"link_id": link_id}, dedupe_key=f"link:{link_id}")
    payload: dict[str, Any] = {"link_id": link_id, "numbers": numbers or [], "blocks": blocks or []}
    key = f"link:{link_id}:" + ",".join([*map(str, numbers or []), *(blocks or [])])
    return enqueue(conn, KIND, payload, dedupe_key=key[:200])


def handle(app: App, jobs: list[Job]) -> JobOutcome | None:
    if not app.settings[ENABLED]:  # turned off: kept for when it is on again
        return JobOutcome(requeue=tuple(job.id for job in jobs), delay_s=OFF_RETRY_S)
    later: list[int] = []
    delay = 0.0
    for job in jobs:
        payload = job.payload
        targeted = "numbers" in payload or "blocks" in payload
        try:
            link = state.link(app, int(payload["link_id"]))
        except NotFound:  # the link was removed: nothing to do
            continue
        paused = link["paused_until"]
        now = datetime.now(UTC)
        if paused is not None and paused > now:
            later.append(job.id)
            delay = max(delay, (paused - now).total_seconds())
            continue
        report = sync_link(
            app,
            link["id"],
            payload.get("numbers") if targeted else None,
            payload.get("blocks") if targeted else None,
        )
        if report.busy:  # another process is running this link: come back shortly
            later.append(job.id)
            delay = max(delay, BUSY_RETRY_S)
        elif report.rate_limited_until is not None:
            until = datetime.fromisoformat(report.rate_limited_until)
            later.append(job.id)
            delay = max(delay, (until - datetime.now(UTC)).total_seconds())
    if later:
        return JobOutcome(requeue=tuple(later), delay_s=max(delay, 1.0))
    return None


def sweep(app: App) -> int:
    """Queue a run for every link whose pull is due (none while the sync is off)."""
    if not app.settings[ENABLED]:
        return 0
    queued = 0
    with app.connection() as conn:
        for link_id in state.due_links(conn):
            queued += queue_sync(conn, link_id) is not None
    return queued


HANDLER = JobHandler(
    kind=KIND,
    handle=handle,
    batch_size=1,
    description="two-way sync of a repository scope's issues with its forge repository",
    sweep=sweep,
    sweep_every=SWEEP_EVERY_S,
)
