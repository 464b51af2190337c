"""The dashboard: what the key can read at a glance (counts by scope, category and type, recent
writes, review items waiting), and for admins the job queues (with the embedding backlog's rate
and time left) and the backends' health."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ctx.core import App, Principal, blocks, embed, graph, guard, llm
from ctx.core.blocks import ManageRequest
from ctx.core.runtime import counts, done_totals
from ctx.ui.web.deps import UserDep, WebAppDep
from ctx.ui.web.render import render

router = APIRouter(include_in_schema=False)

#: The model roles a person notices, by what they give (embedding runs locally without one).
ROLE_LABELS = (
    ("synthesis", "answers"),
    ("chat", "chat"),
    ("dream", "Dream links"),
    ("rerank", "reranking"),
    ("translate", "query translation"),
)

#: The queues people care about, in the order shown; other kinds follow by name.
QUEUES = ("embed", "temporal", "guard", "dream")


def queues(app: App) -> list[dict[str, Any]]:
    """Each job kind with what waits, what failed, what is done (done jobs leave the queue and
    are counted apart) and the share done."""
    with app.connection() as conn:
        by_kind = counts(conn)
        done = done_totals(conn)
    rows = []
    order = {name: i for i, name in enumerate(QUEUES)}
    for kind in sorted(
        by_kind.keys() | done.keys(), key=lambda k: (order.get(k.split(".")[0], 99), k)
    ):
        states = by_kind.get(kind, {})
        finished = done.get(kind, {"done": 0, "last_done_at": None})
        waiting = states.get("queued", 0) + states.get("running", 0)
        failed = states.get("failed", 0) + states.get("quarantined", 0)
        total = waiting + failed + finished["done"]
        rows.append(
            {
                "kind": kind,
                "states": states,
                "total": total,
                "waiting": waiting,
                "failed": failed,
                "done": finished["done"],
                "last_done_at": finished["last_done_at"],
                "percent": round(100 * finished["done"] / total) if total else 100,
            }
        )
    return rows


def embedding_progress(app: App) -> dict[str, Any] | None:
    """The active generation's backlog as a bar and one line (rate, time left), the numbers
    ``ctx embed status`` shows; None when nothing waits."""
    gen = embed.embedding_overview(app)
    if gen is None or not gen["left"]:
        return None
    return {
        "line": embed.backlog_line(gen["left"], gen["per_s"], gen["eta_s"]),
        "embedded": gen["embedded"],
        "total": gen["embedded"] + gen["left"],
    }


def queue_panel(app: App) -> dict[str, Any]:
    """What the polled queue panel shows: the queues and the embedding backlog."""
    return {"queues": queues(app), "embedding": embedding_progress(app)}


def backend_health(app: App) -> list[dict[str, Any]]:
    pool = app.backends
    cooldowns = pool.cooldowns()
    with app.connection() as conn:
        summary = llm.log_summary(conn)
    out = []
    for b in pool.backends():
        calls = [r for r in summary if r["backend"] == b.name]
        out.append(
            {
                "name": b.name,
                "kind": b.kind,
                "roles": list(b.roles),
                "enabled": b.enabled,
                "cooldown": cooldowns.get(b.name),
                "calls": sum(int(r.get("calls", 0) or 0) for r in calls),
                "failures": sum(int(r.get("failures", 0) or 0) for r in calls),
            }
        )
    return out


def overview(app: App, who: Principal) -> dict[str, Any]:
    stats = blocks.manage(app, who, ManageRequest(action="stats"))["stats"]
    categories = blocks.manage(app, who, ManageRequest(action="categories", limit=200))
    recent = blocks.manage(app, who, ManageRequest(action="list", limit=8))
    guard_figures = guard.guard_stats(app, who)
    dream_figures = graph.dream_stats(app, who)
    roles = {
        label: bool(app.backends.chain(role)) for role, label in ROLE_LABELS if role in llm.ROLES
    }
    data: dict[str, Any] = {
        "stats": stats,
        "categories": (categories.get("categories") or [])[:12],
        "recent": recent.get("blocks") or [],
        "guard": guard_figures,
        "dream": dream_figures,
        "roles": roles,
        "review_open": sum((guard_figures.get("open") or {}).values()),
    }
    if who.is_admin:
        data |= queue_panel(app)
        data["backends"] = backend_health(app)
    return data


@router.get("/", name="web-dashboard")
def dashboard(request: Request, app: WebAppDep, who: UserDep) -> HTMLResponse:
    return render(request, "dashboard/index.html", overview(app, who))


@router.get("/dashboard/queues", name="web-dashboard-queues")
def dashboard_queues(request: Request, app: WebAppDep, who: UserDep) -> HTMLResponse:
    """The queue panel alone: the dashboard polls it while jobs are waiting."""
    who.require_admin()
    return render(request, "dashboard/_queues.html", queue_panel(app))
