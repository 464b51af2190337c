"""The topic map: Louvain clusters per scope, refreshed by a job, read per caller's scopes."""

from __future__ import annotations

from typing import Any

from ctx.core import App, Principal, StoreRequest, blocks, graph
from ctx.core.runtime import drain

ALPHA = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")
BETA = Principal(key_id="00000000-0000-0000-0000-0000000000b1", name="b", home_scope="beta")
BOTH = Principal(
    key_id="00000000-0000-0000-0000-0000000000c1",
    name="c",
    home_scope="alpha",
    allowed_scopes=("beta",),
)


def _store(app: App, who: Principal, title: str) -> str:
    req = StoreRequest.model_validate({"title": title, "content": f"About {title.lower()}."})
    return str(blocks.store_block(app, who, req)["id"])


def _link(app: App, a: str, b: str, confidence: float = 0.8, kind: str = "topical") -> None:
    with app.connection() as conn:
        graph.write_link(conn, a, b, kind, confidence)


def _refresh(app: App) -> None:
    with app.connection() as conn:
        graph.queue_overview(conn)
    assert drain(app, "graph.overview") == 1


def _two_groups(app: App, who: Principal, prefix: str) -> dict[str, str]:
    """A triangle (x1..x3) and a pair (y1, y2), not linked to each other."""
    ids = {n: _store(app, who, f"{prefix} {n}") for n in ("x1", "x2", "x3", "y1", "y2")}
    _link(app, ids["x1"], ids["x2"], 0.9)
    _link(app, ids["x2"], ids["x3"], 0.8)
    _link(app, ids["x3"], ids["x1"], 0.7, "causal")
    _link(app, ids["y1"], ids["y2"], 0.6)
    return ids


def _titles(cluster: dict[str, Any]) -> set[str]:
    return {t["title"] for t in cluster["titles"]}


def _members(app: App) -> list[tuple[str, str, int]]:
    with app.connection() as conn:
        rows = conn.execute(
            "SELECT block_id::text AS id, scope, cluster FROM context_graph_members ORDER BY 1"
        ).fetchall()
    return [(r["id"], r["scope"], r["cluster"]) for r in rows]


def test_disconnected_groups_are_separate_clusters_numbered_by_size(app: App) -> None:
    _two_groups(app, ALPHA, "Alpha")
    _refresh(app)
    out = graph.overview(app, ALPHA)
    assert [c["id"] for c in out["clusters"]] == [1, 2]  # ordinals, largest first
    first, second = out["clusters"]
    assert (first["size"], first["links"]) == (3, 3)
    assert (second["size"], second["links"]) == (2, 1)
    assert _titles(first) == {"Alpha x1", "Alpha x2", "Alpha x3"}
    assert _titles(second) == {"Alpha y1", "Alpha y2"}
    assert all(set(t) == {"id", "title", "degree"} for t in first["titles"])  # no content
    assert out["edges"] == []  # nothing links the two groups
    assert out["totals"] == {"clusters": 2, "shown": 2, "blocks": 5, "links": 4, "edges": 0}
    assert out["refreshed_at"] is not None


def test_refresh_is_reproducible(app: App) -> None:
    ids = _two_groups(app, ALPHA, "Alpha")
    _link(app, ids["x1"], ids["y1"], 0.2)  # a weak bridge: still two clusters, one edge
    _refresh(app)
    before, members = graph.overview(app, ALPHA), _members(app)
    _refresh(app)
    after = graph.overview(app, ALPHA)
    assert _members(app) == members
    assert {k: v for k, v in after.items() if k != "refreshed_at"} == {
        k: v for k, v in before.items() if k != "refreshed_at"
    }
    assert after["edges"] == [{"source": 1, "target": 2, "links": 1, "weight": 0.2}]


def test_stored_cluster_numbers_never_show(app: App) -> None:
    _two_groups(app, BETA, "Beta")
    _two_groups(app, ALPHA, "Alpha")
    _refresh(app)
    out = graph.overview(app, BOTH)
    assert [c["id"] for c in out["clusters"]] == [1, 2, 3, 4]  # one numbering across scopes
    assert [c["scope"] for c in out["clusters"]].count("beta") == 2
    capped = graph.overview(app, BOTH, max_clusters=1, titles_per_cluster=1)
    assert [c["id"] for c in capped["clusters"]] == [1]
    assert len(capped["clusters"][0]["titles"]) == 1
    assert capped["totals"]["clusters"] == 4 and capped["totals"]["shown"] == 1


def test_another_scope_never_shows(app: App) -> None:
    _two_groups(app, ALPHA, "Alpha")
    _two_groups(app, BETA, "Beta")
    _refresh(app)
    for who, mine, other in ((ALPHA, "alpha", "Beta"), (BETA, "beta", "Alpha")):
        out = graph.overview(app, who)
        assert {c["scope"] for c in out["clusters"]} == {mine}
        assert not any(other in t for c in out["clusters"] for t in _titles(c))
        assert out["totals"]["blocks"] == 5  # counts of the other scope do not leak either


def test_archived_block_leaves_the_map_before_the_next_refresh(app: App) -> None:
    ids = _two_groups(app, ALPHA, "Alpha")
    _refresh(app)
    blocks.set_archived(app, ALPHA, ids["x2"], True)
    out = graph.overview(app, ALPHA)
    assert "Alpha x2" not in _titles(out["clusters"][0])
    assert out["clusters"][0]["size"] == 2
    blocks.set_archived(app, ALPHA, ids["y1"], True)
    blocks.set_archived(app, ALPHA, ids["y2"], True)
    assert len(graph.overview(app, ALPHA)["clusters"]) == 1  # a cluster with no live block goes


def test_sweep_queues_a_refresh_only_when_the_map_is_behind(app: App) -> None:
    assert graph.sweep_overview(app) == 0  # no links, nothing to map
    ids = _two_groups(app, ALPHA, "Alpha")
    assert graph.sweep_overview(app) == 1
    assert drain(app, "graph.overview") == 1
    assert graph.sweep_overview(app) == 0
    blocks.set_archived(app, ALPHA, ids["y1"], True)
    assert graph.sweep_overview(app) == 1
    drain(app, "graph.overview")
    assert [c["size"] for c in graph.overview(app, ALPHA)["clusters"]] == [3]


def test_a_scope_that_lost_its_links_loses_its_rows(app: App) -> None:
    ids = _two_groups(app, BETA, "Beta")
    _two_groups(app, ALPHA, "Alpha")
    _refresh(app)
    with app.connection() as conn:
        conn.execute(
            "UPDATE context_links SET status = 'rejected', reviewed_at = now() "
            "WHERE source_id = ANY(%s::uuid[])",
            (list(ids.values()),),
        )
    _refresh(app)
    with app.connection() as conn:
        scopes = {
            table: {r["scope"] for r in conn.execute(f"SELECT scope FROM {table}").fetchall()}
            for table in ("context_graph_clusters", "context_graph_members")
        }
    assert scopes == {"context_graph_clusters": {"alpha"}, "context_graph_members": {"alpha"}}
    assert graph.overview(app, BETA)["clusters"] == []


def test_cross_scope_links_stay_out_of_the_map(app: App) -> None:
    a, b = _store(app, ALPHA, "Alpha lone"), _store(app, BETA, "Beta lone")
    _link(app, a, b, 0.9)
    _refresh(app)
    assert graph.overview(app, BOTH)["clusters"] == []


def test_links_show_on_the_next_read_without_a_refresh_job(app: App) -> None:
    """The map was read as it was last refreshed: "No clusters yet" with live links until the
    sweep (every five minutes) or a Dream cycle queued a refresh. A read refreshes a map that is
    behind the links."""
    assert graph.overview(app, ALPHA)["clusters"] == []
    ids = _two_groups(app, ALPHA, "Alpha")
    out = graph.overview(app, ALPHA)  # no job queued, none run
    assert [c["size"] for c in out["clusters"]] == [3, 2] and out["refreshed_at"] is not None
    with app.connection() as conn:
        assert not graph.is_behind(conn)
    _link(app, ids["x3"], ids["y1"], 0.9)  # one link more: read at once
    assert sum(c["size"] for c in graph.overview(app, ALPHA)["clusters"]) == 5
    assert graph.overview(app, ALPHA)["totals"]["links"] == 5
    blocks.set_archived(app, ALPHA, ids["y2"], True)
    assert sum(c["size"] for c in graph.overview(app, ALPHA)["clusters"]) == 4
