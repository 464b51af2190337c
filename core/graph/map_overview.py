"""The topic map: clusters of linked blocks per scope, pre-aggregated by a job.

Reading the whole link graph on every request would be slow, and counting across scopes would
leak how much a scope the caller cannot read holds. So a ``graph.overview`` job recomputes, per
scope, the graph of live links (both ends in that scope, neither archived; weight: the link's
confidence), splits it into Louvain communities with a fixed seed (the same links always give
the same clusters) and rewrites the scope's rows in ``context_graph_clusters``, ``_members`` and
``_cluster_edges`` in one transaction. ``overview`` reads only the caller's scopes, numbers the
clusters 1..n per request (the stored numbers never leave the database) and shows titles only,
of blocks that are still live. A read finds the map behind the links (made, reviewed or archived
since the last refresh) and refreshes it first, so links show as soon as they exist.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import networkx as nx

from ctx.core.runtime import Job, JobHandler, enqueue

if TYPE_CHECKING:
    import psycopg

    from ctx.core.access import Principal
    from ctx.core.app import App

log = logging.getLogger("ctx.graph")
KIND = "graph.overview"
DEDUPE_KEY = "overview"
LOCK_CLASS = 0x63746776  # "ctgv": the advisory lock of overview refreshes
SEED = 20260614  # Louvain is randomised; a fixed seed makes a refresh reproducible
MAX_CLUSTERS = 500
MAX_TITLES = 20

_LIVE_LINKS = """
SELECT s.scope, l.source_id::text AS source_id, l.target_id::text AS target_id, l.confidence
  FROM context_links l
  JOIN context_blocks s ON s.id = l.source_id
  JOIN context_blocks t ON t.id = l.target_id
 WHERE l.status <> 'rejected' AND s.scope = t.scope
   AND NOT s.is_archived AND NOT t.is_archived
 ORDER BY s.scope, l.source_id, l.target_id, l.link_type
"""


def queue_overview(conn: psycopg.Connection[Any]) -> None:
    """Ask for a refresh of the topic map (one queued at a time), in the caller's transaction."""
    enqueue(conn, KIND, {}, dedupe_key=DEDUPE_KEY)


def _pairs(rows: Iterable[dict[str, Any]]) -> dict[tuple[str, str], tuple[int, float]]:
    """Links folded into undirected pairs: (links, summed confidence). Several links between two
    blocks (another type, the other direction) make their tie stronger, not a second edge."""
    out: dict[tuple[str, str], tuple[int, float]] = {}
    for r in rows:
        a, b = sorted((r["source_id"], r["target_id"]))
        n, w = out.get((a, b), (0, 0.0))
        out[(a, b)] = (n + 1, w + float(r["confidence"]))
    return out


def cluster_scope(pairs: dict[tuple[str, str], tuple[int, float]]) -> dict[str, Any]:
    """Louvain communities of one scope's pairs: ``{"members": {block: (cluster, degree)},
    "clusters": {cluster: (size, links, weight)}, "edges": {(a, b): (links, weight)}}``.
    Clusters are numbered 1..n by size (largest first), ties by their smallest block id."""
    graph = nx.Graph()
    graph.add_nodes_from(sorted({node for pair in pairs for node in pair}))
    for (a, b), (n, w) in sorted(pairs.items()):
        graph.add_edge(a, b, weight=w, links=n)
    found = nx.community.louvain_communities(graph, weight="weight", seed=SEED)
    ordered = sorted((sorted(c) for c in found), key=lambda c: (-len(c), c[0]))
    number = {node: i for i, members in enumerate(ordered, 1) for node in members}
    members = {
        node: (number[node], float(graph.degree(node, weight="weight"))) for node in graph.nodes
    }
    inside: dict[int, list[float]] = defaultdict(lambda: [0, 0.0])
    between: dict[tuple[int, int], list[float]] = defaultdict(lambda: [0, 0.0])
    for (a, b), (n, w) in pairs.items():
        ca, cb = number[a], number[b]
        tally = inside[ca] if ca == cb else between[(min(ca, cb), max(ca, cb))]
        tally[0] += n
        tally[1] += w
    return {
        "members": members,
        "clusters": {
            i: (len(c), int(inside[i][0]), float(inside[i][1])) for i, c in enumerate(ordered, 1)
        },
        "edges": {k: (int(v[0]), float(v[1])) for k, v in sorted(between.items())},
    }


def refresh_overview(conn: psycopg.Connection[Any]) -> dict[str, Any]:
    """Recompute every scope's clusters in the caller's transaction; a scope without live links
    loses its rows. Refreshes take turns (a transaction-level advisory lock), so a reader never
    sees half of one. Returns what was written, for the log."""
    started = time.perf_counter()
    conn.execute("SELECT pg_advisory_xact_lock(%s, 0)", (LOCK_CLASS,))
    by_scope: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in conn.execute(_LIVE_LINKS).fetchall():
        by_scope[r["scope"]].append(r)
    for table in ("context_graph_cluster_edges", "context_graph_members", "context_graph_clusters"):
        conn.execute(f"DELETE FROM {table}")
    totals: dict[str, Any] = {"scopes": len(by_scope), "clusters": 0, "nodes": 0, "edges": 0}
    with conn.cursor() as cur:
        for scope, rows in sorted(by_scope.items()):
            found = cluster_scope(_pairs(rows))
            cur.executemany(
                "INSERT INTO context_graph_clusters (scope, cluster, size, links, weight) "
                "VALUES (%s, %s, %s, %s, %s)",
                [(scope, c, *v) for c, v in found["clusters"].items()],
            )
            cur.executemany(
                "INSERT INTO context_graph_members (block_id, scope, cluster, degree) "
                "VALUES (%s, %s, %s, %s)",
                [(node, scope, c, d) for node, (c, d) in found["members"].items()],
            )
            cur.executemany(
                "INSERT INTO context_graph_cluster_edges (scope, cluster_a, cluster_b, links, "
                "weight) VALUES (%s, %s, %s, %s, %s)",
                [(scope, a, b, n, w) for (a, b), (n, w) in found["edges"].items()],
            )
            totals["clusters"] += len(found["clusters"])
            totals["nodes"] += len(found["members"])
            totals["edges"] += len(found["edges"])
    totals["elapsed_ms"] = round((time.perf_counter() - started) * 1000, 1)
    return totals


def handle_overview_jobs(app: App, jobs: list[Job]) -> None:
    with app.connection() as conn:
        totals = refresh_overview(conn)
    log.info("graph overview refreshed", extra=totals)


_STALE = """
SELECT (SELECT max(refreshed_at) FROM context_graph_clusters) AS refreshed,
       (SELECT max(greatest(created_at, coalesce(reviewed_at, created_at)))
          FROM context_links) AS changed,
       EXISTS (SELECT 1 FROM context_graph_members m
                 JOIN context_blocks b ON b.id = m.block_id WHERE b.is_archived) AS archived,
       EXISTS (SELECT 1 FROM context_links l
                 JOIN context_blocks s ON s.id = l.source_id
                 JOIN context_blocks t ON t.id = l.target_id
                WHERE l.status <> 'rejected' AND s.scope = t.scope
                  AND NOT s.is_archived AND NOT t.is_archived
                  AND NOT EXISTS (SELECT 1 FROM context_graph_members m
                                   WHERE m.block_id IN (l.source_id, l.target_id))) AS missing
"""


def is_behind(conn: psycopg.Connection[Any]) -> bool:
    """Whether the map is behind the links: links made or reviewed since its refresh, a member
    archived since, or a live link whose blocks it does not hold (one brought back from the
    archive)."""
    row = conn.execute(_STALE).fetchone()
    assert row is not None
    changed = row["changed"] is not None and (
        row["refreshed"] is None or row["changed"] > row["refreshed"]
    )
    return bool(changed or row["archived"] or row["missing"])


def refresh_if_behind(conn: psycopg.Connection[Any]) -> bool:
    """Refresh the map in the caller's transaction when it is behind; True when it did. Looked
    at again once the refresh lock is held: a reader that waited on another's refresh finds the
    map current and reads it."""
    if not is_behind(conn):
        return False
    conn.execute("SELECT pg_advisory_xact_lock(%s, 0)", (LOCK_CLASS,))
    if not is_behind(conn):
        return False
    totals = refresh_overview(conn)
    log.info("graph overview refreshed on read", extra=totals)
    return True


def sweep_overview(app: App) -> int:
    """Queue a refresh when the map is behind. Dream queues one itself after a cycle and a read
    of the map refreshes it when it is behind; this keeps it current between reads."""
    with app.connection() as conn:
        if not is_behind(conn):
            return 0
        queue_overview(conn)
    return 1


OVERVIEW_JOBS = JobHandler(
    KIND,
    handle_overview_jobs,
    batch_size=1,
    description="recompute the topic map's clusters per scope",
    sweep=sweep_overview,
    sweep_every=300.0,
)


def _clusters(conn: psycopg.Connection[Any], scopes: list[str]) -> list[dict[str, Any]]:
    """The stored clusters of ``scopes`` with their live size (members archived since the
    refresh no longer count), largest first."""
    rows = conn.execute(
        """
        SELECT c.scope, c.cluster, c.links, c.weight, c.refreshed_at, count(b.id) AS size
          FROM context_graph_clusters c
          JOIN context_graph_members m ON m.scope = c.scope AND m.cluster = c.cluster
          JOIN context_blocks b ON b.id = m.block_id AND b.scope = c.scope AND NOT b.is_archived
         WHERE c.scope = ANY(%s)
         GROUP BY c.scope, c.cluster
         ORDER BY size DESC, c.links DESC, c.scope, c.cluster
        """,
        (scopes,),
    ).fetchall()
    return [dict(r) for r in rows]


def _titles(
    conn: psycopg.Connection[Any], scopes: list[str], per_cluster: int
) -> dict[tuple[str, int], list[dict[str, Any]]]:
    rows = conn.execute(
        """
        SELECT scope, cluster, id, title, degree FROM (
            SELECT m.scope, m.cluster, b.id::text AS id, b.title, m.degree,
                   row_number() OVER (PARTITION BY m.scope, m.cluster
                                      ORDER BY m.degree DESC, b.title, b.id) AS rank
              FROM context_graph_members m
              JOIN context_blocks b ON b.id = m.block_id AND b.scope = m.scope
             WHERE m.scope = ANY(%s) AND NOT b.is_archived) ranked
         WHERE rank <= %s
         ORDER BY scope, cluster, rank
        """,
        (scopes, per_cluster),
    ).fetchall()
    out: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        out[(r["scope"], r["cluster"])].append(
            {"id": r["id"], "title": r["title"], "degree": round(float(r["degree"]), 4)}
        )
    return out


def overview(
    app: App, who: Principal, *, max_clusters: int = 50, titles_per_cluster: int = 5
) -> dict[str, Any]:
    """The topic map of the caller's read scopes, refreshed first when it is behind the links:
    ``{"clusters": [{"id", "scope", "size",
    "links", "titles": [{"id", "title", "degree"}]}], "edges": [{"source", "target", "links",
    "weight"}], "totals", "refreshed_at"}``. Cluster ids are ordinals of this answer (1 is the
    largest), edges name them; titles only, never content."""
    max_clusters = max(1, min(int(max_clusters), MAX_CLUSTERS))
    titles_per_cluster = max(0, min(int(titles_per_cluster), MAX_TITLES))
    scopes = list(who.read_scopes)
    with app.connection() as conn:
        refresh_if_behind(conn)  # links made since the last refresh show now, not minutes later
        stored = _clusters(conn, scopes)
        shown = stored[:max_clusters]
        titles = _titles(conn, scopes, titles_per_cluster) if titles_per_cluster else {}
        edge_rows = conn.execute(
            "SELECT scope, cluster_a, cluster_b, links, weight FROM context_graph_cluster_edges "
            "WHERE scope = ANY(%s) ORDER BY scope, cluster_a, cluster_b",
            (scopes,),
        ).fetchall()
    ordinal = {(c["scope"], c["cluster"]): i for i, c in enumerate(shown, 1)}
    clusters = [
        {
            "id": ordinal[(c["scope"], c["cluster"])],
            "scope": c["scope"],
            "size": int(c["size"]),
            "links": int(c["links"]),
            "titles": titles.get((c["scope"], c["cluster"]), []),
        }
        for c in shown
    ]
    edges = []
    for e in edge_rows:
        a, b = ordinal.get((e["scope"], e["cluster_a"])), ordinal.get((e["scope"], e["cluster_b"]))
        if a is not None and b is not None:
            source, target = min(a, b), max(a, b)
            edges.append({"source": source, "target": target, "links": int(e["links"]),
                          "weight": round(float(e["weight"]), 4)})  # fmt: skip
    edges.sort(key=lambda e: (e["source"], e["target"]))
    refreshed = max((c["refreshed_at"] for c in stored), default=None)
    return {
        "clusters": clusters,
        "edges": edges,
        "totals": {
            "clusters": len(stored),
            "shown": len(clusters),
            "blocks": sum(int(c["size"]) for c in stored),
            "links": sum(int(c["links"]) for c in stored) + sum(int(e["links"]) for e in edge_rows),
            "edges": len(edges),
        },
        "refreshed_at": refreshed,
    }
