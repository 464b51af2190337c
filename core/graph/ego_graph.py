"""A block's neighbourhood along live links, for the graph view: titles only, never content.

Breadth-first from the focus block up to ``depth`` hops. Every hop reads links through
``link_rows``, which keeps only links whose both ends are in the caller's read scopes and not
archived (rejected links are never read), so nothing the caller cannot read shows up, not even
as a node without a title. ``limit`` caps the nodes: the nearest are kept, and within one hop
the ones tied to the graph by the most confident link.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ctx.core.blocks import resolve_id
from ctx.core.errors import ValidationError
from ctx.core.graph.links import link_rows

if TYPE_CHECKING:
    import psycopg

    from ctx.core.access import Principal
    from ctx.core.app import App

MAX_DEPTH = 3
MAX_NODES = 1000


def _check(depth: int, limit: int) -> None:
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
        raise ValidationError(f"depth must be 1 to {MAX_DEPTH}", field="depth")
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_NODES:
        raise ValidationError(f"limit must be 1 to {MAX_NODES}", field="limit")


def _next_hop(rows: list[dict[str, Any]], frontier: set[str], seen: dict[str, int]) -> list[str]:
    """Blocks one hop beyond ``frontier`` not seen yet, most confidently linked first."""
    best: dict[str, float] = {}
    for r in rows:
        for here, there in ((r["source_id"], r["target_id"]), (r["target_id"], r["source_id"])):
            if here in frontier and there not in seen:
                best[there] = max(best.get(there, 0.0), float(r["confidence"]))
    return sorted(best, key=lambda b: (-best[b], b))


def _walk(
    conn: psycopg.Connection[Any], focus: str, scopes: list[str], depth: int, limit: int
) -> tuple[dict[str, int], bool]:
    """Each reached block with its distance from ``focus``; and whether ``limit`` cut nodes."""
    seen = {focus: 0}
    frontier = {focus}
    for hop in range(1, depth + 1):
        if not frontier:
            break
        found = _next_hop(link_rows(conn, sorted(frontier), scopes), frontier, seen)
        room = limit - len(seen)
        if len(found) > room:
            for block in found[:room]:
                seen[block] = hop
            return seen, True
        for block in found:
            seen[block] = hop
        frontier = set(found)
    return seen, False


def ego(
    app: App, who: Principal, block_id: str, depth: int = 1, limit: int = 200
) -> dict[str, Any]:
    """The neighbourhood of ``block_id`` (an id or a unique prefix the caller can read):
    ``{"focus", "depth", "nodes": [{"id", "title", "category", "block_type", "depth"}],
    "edges": [{"source", "target", "type", "confidence", "status"}], "truncated"}``."""
    _check(depth, limit)
    scopes = list(who.read_scopes)
    with app.connection() as conn:
        focus = resolve_id(conn, who, block_id)
        reached, truncated = _walk(conn, focus, scopes, depth, limit)
        ids = list(reached)
        rows = conn.execute(
            "SELECT id::text AS id, title, category, block_type FROM context_blocks "
            "WHERE id = ANY(%s::uuid[]) AND scope = ANY(%s)",
            (ids, scopes),
        ).fetchall()
        links = link_rows(conn, ids, scopes)
    nodes = [
        {
            "id": r["id"],
            "title": r["title"],
            "category": r["category"],
            "block_type": r["block_type"],
            "depth": reached[r["id"]],
        }
        for r in rows
    ]
    nodes.sort(key=lambda n: (n["depth"], n["title"], n["id"]))
    kept = {n["id"] for n in nodes}
    edges = link_edges(links, kept)
    return {"focus": focus, "depth": depth, "nodes": nodes, "edges": edges,
            "truncated": truncated}  # fmt: skip


def link_edges(links: list[dict[str, Any]], ids: set[str]) -> list[dict[str, Any]]:
    """The links among ``ids`` as a graph answer's edges, in a stable order."""
    out = [
        {
            "source": r["source_id"],
            "target": r["target_id"],
            "type": r["link_type"],
            "confidence": round(float(r["confidence"]), 4),
            "status": r["status"],
        }
        for r in links
        if r["source_id"] in ids and r["target_id"] in ids
    ]
    out.sort(key=lambda e: (e["source"], e["target"], e["type"]))
    return out
