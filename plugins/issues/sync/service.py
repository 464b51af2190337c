"""The sync operations the surfaces call: links (admin), a run now, conflicts, webhooks."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from ctx.core import (
    App,
    Conflict,
    CtxError,
    Forbidden,
    NotFound,
    Principal,
    Unauthorized,
    ValidationError,
)
from ctx.plugins.issues import records
from ctx.plugins.issues.sync import state
from ctx.plugins.issues.sync.engine import sync_link
from ctx.plugins.issues.sync.forge import BadSignature, forge_kind
from ctx.plugins.issues.sync.jobs import queue_sync
from ctx.plugins.issues.sync.schemas import (
    ConflictFilter,
    LinkCreate,
    LinkRef,
    ResolveConflict,
    ResolveInput,
    SyncRequest,
)
from ctx.plugins.issues.sync.settings import INTERVAL, require_enabled

HIDDEN = ("token_secret", "webhook_secret")


def link_view(link: dict[str, Any]) -> dict[str, Any]:
    """A link as callers see it: secret names only (never values), its cursor and last run."""
    out = {k: v for k, v in link.items() if k not in ("issues_etag", "comments_etag")}
    out["has_webhook"] = link["webhook_secret"] is not None
    return out


def _secret_exists(app: App, name: str) -> None:
    with app.connection() as conn:
        row = conn.execute("SELECT 1 FROM context_secrets WHERE name = %s", (name,)).fetchone()
    if row is None:
        raise ValidationError(
            f"no secret {name!r} in the vault: set it first (ctx secrets set {name})",
            field="token_secret",
        )


def create_link(app: App, who: Principal, req: LinkCreate) -> dict[str, Any]:
    who.require_admin()
    kind = forge_kind(req.forge)
    try:
        repo = kind.check_repo(req.repo)
    except ValueError as exc:
        raise ValidationError(str(exc), field="repo") from None
    for name in (req.token_secret, req.webhook_secret):
        if name is not None:
            _secret_exists(app, name)
    interval = req.interval_s or int(app.settings[INTERVAL])
    link = state.create_link(app, {**req.model_dump(), "repo": repo, "interval_s": interval})
    return link_view(link)


def list_links(app: App, who: Principal) -> list[dict[str, Any]]:
    scopes = None if who.is_admin else list(who.read_scopes)
    return [link_view(link) for link in state.links(app, scopes)]


def delete_link(app: App, who: Principal, link_id: int) -> dict[str, Any]:
    """Unlink: the issues stay (with their forge ids), their bases and conflicts go; linking the
    same repository again matches them by those ids."""
    who.require_admin()
    state.delete_link(app, link_id)
    return {"id": link_id, "deleted": True}


def _readable_link(who: Principal, scope: str | None, app: App) -> dict[str, Any]:
    scope = scope or who.home_scope
    if not who.can_read(scope):
        raise Forbidden(f"this key cannot read scope {scope!r}")
    return state.link_of_scope(app, scope)


def sync_now(app: App, who: Principal, scope: str | None) -> dict[str, Any]:
    """Run the scope's sync now and return its report (the key must write the scope)."""
    link = _readable_link(who, scope, app)
    who.require_write(link["scope"])
    require_enabled(app)
    paused = link["paused_until"]
    if paused is not None and paused > datetime.now(UTC):
        raise Conflict(f"the forge's rate limit pauses this link until {paused.isoformat()}")
    report = sync_link(app, int(link["id"]))
    if report.busy:
        raise Conflict(f"a sync of scope {link['scope']!r} is already running; try again shortly")
    return {
        "scope": link["scope"],
        "forge": link["forge"],
        "repo": link["repo"],
        **report.as_dict(),
    }


def list_conflicts(
    app: App, who: Principal, scope: str | None = None, include_resolved: bool = False
) -> list[dict[str, Any]]:
    if scope is not None and not who.can_read(scope):
        raise Forbidden(f"this key cannot read scope {scope!r}")
    scopes = [scope] if scope else list(who.read_scopes)
    return state.conflicts(app, scopes, include_resolved)


def resolved_base(found: dict[str, Any], take: str) -> dict[str, Any]:
    """The base that makes the next run carry the chosen side over: the conflicting fields take
    the *other* side's value (so only the chosen side differs from it there), every other field
    keeps the old base (so a change either side made to it still merges as usual). Without an
    old base (a record met again after relinking) the other side is the whole base."""
    other = found["remote"] if take == "local" else found["local"]
    if found["base"] is None:
        return dict(other)
    return {**found["base"], **{name: other[name] for name in found["fields"]}}


def resolve(app: App, who: Principal, conflict_id: int, take: str) -> dict[str, Any]:
    """Pick a side: the base becomes the other side's version, so the next run (queued now)
    carries the chosen one over as an ordinary one-sided change."""
    found = state.conflict(app, conflict_id)
    if not who.can_read(found["scope"]):
        raise NotFound(f"no sync conflict {conflict_id}")
    who.require_write(found["scope"])
    if found["resolved_at"] is not None:
        raise Conflict(f"conflict {conflict_id} was already resolved ({found['resolution']})")
    new_base = resolved_base(found, take)
    with app.connection() as conn:
        if not state.resolve_in(conn, conflict_id, take, who.name, new_base):
            raise Conflict(f"conflict {conflict_id} was already resolved")
        if found["kind"] == "issue":
            issue = conn.execute(
                "SELECT id::text AS id, scope, metadata FROM context_blocks WHERE id = %s",
                (found["block_id"],),
            ).fetchone()
            if issue is not None:
                records.record_in(
                    conn,
                    dict(issue),
                    who.name,
                    "resolved",
                    None,
                    {"conflict": conflict_id, "take": take},
                )
        queue_sync(conn, int(found["link_id"]), blocks=[found["block_id"]])
    return {**state.conflict(app, conflict_id), "queued": True}


def webhook(app: App, forge: str, headers: Mapping[str, str], body: bytes) -> dict[str, Any]:
    """Take a push delivery: verified against the linked repository's secret, taken once (by
    delivery id and by body), and turned into a queued fetch: its content is never trusted."""
    kind = forge_kind(forge)
    try:
        event = kind.read_webhook(headers, body)
    except BadSignature as exc:
        raise Unauthorized(str(exc)) from None
    if event.kind == "ping" and not event.repo:
        return {"status": "pong"}
    links = [link for link in state.links_of_repo(app, forge, event.repo) if link["webhook_secret"]]
    verified = []
    for link in links:
        try:
            secret = app.reveal_secret(link["webhook_secret"])
            kind.verify_webhook(headers, body, secret)
        except (BadSignature, CtxError):  # a missing or unreadable secret verifies nothing
            continue
        verified.append(link)
    if not verified:
        raise Unauthorized(
            "the delivery's signature does not match a linked repository's webhook secret"
        )
    if not state.take_delivery(app, forge, event.delivery_id, hashlib.sha256(body).hexdigest()):
        return {"status": "duplicate", "delivery": event.delivery_id}
    if event.kind == "ping":
        return {"status": "pong", "delivery": event.delivery_id}
    with app.connection() as conn:
        for link in verified:
            if event.kind == "issue" and event.numbers:
                queue_sync(conn, int(link["id"]), numbers=list(event.numbers))
            else:
                queue_sync(conn, int(link["id"]))
    return {"status": "queued", "delivery": event.delivery_id}


# -- the operations by their input (``service(app, who, input)``, ``ctx.plugins.issues.operations``)


def sync_scope(app: App, who: Principal, req: SyncRequest) -> dict[str, Any]:
    return sync_now(app, who, req.scope)


def links_of(app: App, who: Principal, _: None) -> dict[str, Any]:
    return {"links": list_links(app, who)}


def unlink(app: App, who: Principal, ref: LinkRef) -> dict[str, Any]:
    return delete_link(app, who, ref.link_id)


def conflicts_of(app: App, who: Principal, filters: ConflictFilter) -> dict[str, Any]:
    found = list_conflicts(app, who, filters.scope, filters.resolved)
    return {"conflicts": found, "count": len(found)}


def resolve_conflict(
    app: App, who: Principal, req: ResolveConflict | ResolveInput
) -> dict[str, Any]:
    return resolve(app, who, req.conflict_id, req.take)
