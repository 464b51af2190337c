"""A block's neighbourhood along live links: depth, the node cap, scopes, archived blocks."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from ctx.core import App, NotFound, Principal, StoreRequest, ValidationError, blocks, graph

ALPHA = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")
BETA = Principal(key_id="00000000-0000-0000-0000-0000000000b1", name="b", home_scope="beta")
BOTH = Principal(
    key_id="00000000-0000-0000-0000-0000000000c1",
    name="c",
    home_scope="alpha",
    allowed_scopes=("beta",),
)


def _store(app: App, who: Principal, title: str) -> str:
    req = StoreRequest.model_validate({"title": title, "content": f"Secret body of {title}."})
    return str(blocks.store_block(app, who, req)["id"])


def _link(app: App, a: str, b: str, confidence: float = 0.8, kind: str = "topical") -> None:
    with app.connection() as conn:
        graph.write_link(conn, a, b, kind, confidence)


def _chain(app: App, who: Principal, prefix: str, n: int) -> list[str]:
    """``n`` blocks linked in a row: 0 - 1 - 2 - ..."""
    ids = [_store(app, who, f"{prefix} {i}") for i in range(n)]
    for a, b in itertools.pairwise(ids):
        _link(app, a, b)
    return ids


def _depths(out: dict[str, Any]) -> dict[str, int]:
    return {n["title"]: n["depth"] for n in out["nodes"]}


def test_depth_follows_links_hop_by_hop(app: App) -> None:
    ids = _chain(app, ALPHA, "Chain", 5)
    one = graph.ego(app, ALPHA, ids[0])
    assert one["focus"] == ids[0]
    assert _depths(one) == {"Chain 0": 0, "Chain 1": 1}
    assert one["edges"] == [
        {"source": ids[0], "target": ids[1], "type": "topical", "confidence": 0.8,
         "status": "active"}
    ]  # fmt: skip
    three = graph.ego(app, ALPHA, ids[0][:8], depth=3)  # a prefix works
    assert _depths(three) == {"Chain 0": 0, "Chain 1": 1, "Chain 2": 2, "Chain 3": 3}
    assert len(three["edges"]) == 3 and not three["truncated"]
    assert set(three["nodes"][0]) == {"id", "title", "category", "block_type", "depth"}
    assert "Secret body" not in repr(three)  # titles only


def test_limit_keeps_the_nearest_and_most_confident(app: App) -> None:
    hub = _store(app, ALPHA, "Hub")
    near = [_store(app, ALPHA, f"Near {i}") for i in range(3)]
    for i, block in enumerate(near):
        _link(app, hub, block, 0.5 + i * 0.1)
    far = _store(app, ALPHA, "Far")
    _link(app, near[0], far, 0.99)
    out = graph.ego(app, ALPHA, hub, depth=2, limit=3)
    assert _depths(out) == {"Hub": 0, "Near 2": 1, "Near 1": 1}  # depth 1 first, strongest first
    assert out["truncated"]
    assert {(e["source"], e["target"]) for e in out["edges"]} == {(hub, near[1]), (hub, near[2])}
    alone = graph.ego(app, ALPHA, hub, limit=1)
    assert [n["title"] for n in alone["nodes"]] == ["Hub"] and alone["edges"] == []


def test_a_link_into_an_unreadable_scope_is_invisible(app: App) -> None:
    mine = _chain(app, ALPHA, "Alpha", 2)
    theirs = _chain(app, BETA, "Beta", 2)
    _link(app, mine[0], theirs[0], 0.9)  # a person's link across scopes
    out = graph.ego(app, ALPHA, mine[0], depth=3)
    assert _depths(out) == {"Alpha 0": 0, "Alpha 1": 1}
    assert all(theirs[0] not in (e["source"], e["target"]) for e in out["edges"])
    assert "Beta" not in repr(out)
    with pytest.raises(NotFound):
        graph.ego(app, ALPHA, theirs[0])  # the focus must be readable too
    both = graph.ego(app, BOTH, mine[0], depth=3)
    assert set(_depths(both)) == {"Alpha 0", "Alpha 1", "Beta 0", "Beta 1"}


def test_archived_blocks_and_rejected_links_disappear(app: App) -> None:
    ids = _chain(app, ALPHA, "Chain", 3)
    blocks.set_archived(app, ALPHA, ids[1], True)
    out = graph.ego(app, ALPHA, ids[0], depth=3)
    assert _depths(out) == {"Chain 0": 0} and out["edges"] == []
    blocks.set_archived(app, ALPHA, ids[1], False)
    with app.connection() as conn:
        conn.execute("UPDATE context_links SET status = 'rejected' WHERE source_id = %s", (ids[1],))
    assert _depths(graph.ego(app, ALPHA, ids[0], depth=3)) == {"Chain 0": 0, "Chain 1": 1}


@pytest.mark.parametrize(
    ("depth", "limit", "field"), [(0, 10, "depth"), (4, 10, "depth"), (1, 0, "limit"),
                                  (1, 1001, "limit")]
)  # fmt: skip
def test_bad_depth_or_limit_is_refused(app: App, depth: int, limit: int, field: str) -> None:
    block = _store(app, ALPHA, "Lonely")
    with pytest.raises(ValidationError) as caught:
        graph.ego(app, ALPHA, block, depth=depth, limit=limit)
    assert caught.value.field == field


def test_unknown_or_malformed_focus(app: App) -> None:
    with pytest.raises(NotFound):
        graph.ego(app, ALPHA, "00000000-0000-0000-0000-000000000000")
    with pytest.raises(ValidationError):
        graph.ego(app, ALPHA, "no!")
