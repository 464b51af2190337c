"""Exploring the graph one focus at a time: a block's neighbourhood grown onto what is shown.

The graph view keeps the blocks it already shows when a person clicks another one, so the
picture grows as they explore. It must not grow without bound: past ``cap`` nodes the ones
farthest from the new focus go (hops over the merged graph), and among equally far ones those
with the weakest links. The shown ids come from the browser, so they are read again here like
any other id: a block the caller can no longer read, or one archived since, drops out, and only
titles ever leave (as in ``ego``).
"""

from __future__ import annotations

import uuid
from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ctx.core.errors import ValidationError
from ctx.core.graph.ego_graph import MAX_NODES, ego, link_edges
from ctx.core.graph.links import link_rows

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App


def _ids(shown: Sequence[str]) -> list[str]:
    if len(shown) > MAX_NODES:
        raise ValidationError(f"at most {MAX_NODES} shown blocks", field="keep")
    out = []
    for ident in shown:
        try:
            out.append(str(uuid.UUID(str(ident))))
        except ValueError:
            raise ValidationError("shown blocks must be block ids", field="keep") from None
    return list(dict.fromkeys(out))


def _hops(focus: str, edges: list[dict[str, Any]]) -> dict[str, int]:
    """Breadth-first distances from ``focus``, links read both ways."""
    near: dict[str, set[str]] = {}
    for e in edges:
        near.setdefault(e["source"], set()).add(e["target"])
        near.setdefault(e["target"], set()).add(e["source"])
    dist = {focus: 0}
    queue = deque([focus])
    while queue:
        here = queue.popleft()
        for there in sorted(near.get(here, ())):
            if there not in dist:
                dist[there] = dist[here] + 1
                queue.append(there)
    return dist


def _strength(edges: list[dict[str, Any]]) -> dict[str, float]:
    """Each node's strongest link: the tie that keeps it in the picture."""
    out: dict[str, float] = {}
    for e in edges:
        for node in (e["source"], e["target"]):
            out[node] = max(out.get(node, 0.0), float(e["confidence"]))
    return out


def explore(
    app: App,
    who: Principal,
    block_id: str,
    shown: Sequence[str] = (),
    *,
    depth: int = 1,
    cap: int = 200,
) -> dict[str, Any]:
    """The neighbourhood of ``block_id`` (as ``ego``) merged with the ``shown`` blocks, at most
    ``cap`` nodes: ``{"focus", "depth", "cap", "nodes": [{"id", "title", "category",
    "block_type", "depth"}], "edges": [...], "truncated", "evicted": [ids]}``. A node's
    ``depth`` is its hop distance from the focus over the merged graph (None: not connected);
    ``evicted`` lists the shown blocks that had to go."""
    if isinstance(cap, bool) or not isinstance(cap, int) or not 1 <= cap <= MAX_NODES:
        raise ValidationError(f"cap must be 1 to {MAX_NODES}", field="cap")
    keep = _ids(shown)
    base = ego(app, who, block_id, depth=depth, limit=cap)
    focus = base["focus"]
    nodes = {n["id"]: dict(n) for n in base["nodes"]}
    scopes = list(who.read_scopes)
    extra = [i for i in keep if i not in nodes]
    with app.connection() as conn:
        if extra:
            rows = conn.execute(
                "SELECT id::text AS id, title, category, block_type FROM context_blocks "
                "WHERE id = ANY(%s::uuid[]) AND scope = ANY(%s) AND NOT is_archived",
                (extra, scopes),
            ).fetchall()
            nodes.update({r["id"]: dict(r) for r in rows})
        grown = len(nodes) > len(base["nodes"])
        # the links among the shown blocks and the new ones: ego's edges cover its nodes only
        edges = (
            link_edges(link_rows(conn, list(nodes), scopes), set(nodes)) if grown else base["edges"]
        )
    dist = _hops(focus, edges)
    strength = _strength(edges)
    far = MAX_NODES + 1  # not connected to the focus: the first to go

    def rank(n: dict[str, Any]) -> tuple[int, float, str, str]:
        return (dist.get(n["id"], far), -strength.get(n["id"], 0.0), n["title"], n["id"])

    ordered = sorted(nodes.values(), key=rank)
    kept, dropped = ordered[:cap], ordered[cap:]
    for n in kept:
        n["depth"] = dist.get(n["id"])
    ids = {n["id"] for n in kept}
    return {
        "focus": focus,
        "depth": depth,
        "cap": cap,
        "nodes": kept,
        "edges": [e for e in edges if e["source"] in ids and e["target"] in ids],
        "truncated": base["truncated"] or bool(dropped),
        "evicted": sorted(n["id"] for n in dropped if n["id"] in keep),
    }
