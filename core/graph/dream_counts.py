"""``ctx dream stats``: links by type and status over the caller's scopes; for admins also the
queue of blocks (never checked, due, cooling down, claimed), recent outcomes and the settings that
pace Dream."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ctx.core import llm
from ctx.core.graph.dream_state import due_counts

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App


def dream_stats(app: App, who: Principal) -> dict[str, Any]:
    scopes = list(who.read_scopes)
    with app.connection() as conn:
        links = conn.execute(
            "SELECT l.link_type, l.status, count(*) AS n FROM context_links l "
            "JOIN context_blocks s ON s.id = l.source_id JOIN context_blocks t ON t.id = l.target_id "
            "WHERE s.scope = ANY(%s) AND t.scope = ANY(%s) GROUP BY 1, 2 ORDER BY 1, 2",
            (scopes, scopes),
        ).fetchall()
        out: dict[str, Any] = {"links": {}}
        for r in links:
            out["links"].setdefault(r["link_type"], {})[r["status"]] = r["n"]
        if who.is_admin:
            out["blocks"] = due_counts(conn)
            outcomes = conn.execute(
                "SELECT last_outcome, count(*) AS n FROM context_dream_state "
                "WHERE last_outcome IS NOT NULL GROUP BY 1"
            ).fetchall()
            out["outcomes"] = {r["last_outcome"]: r["n"] for r in outcomes}
    if who.is_admin:
        s = app.settings
        out["throttle"] = s["dream.throttle"]
        out["concurrency"] = s["dream.concurrency"]
        out["backend"] = llm.available(app, "dream") or "available"
    return out
