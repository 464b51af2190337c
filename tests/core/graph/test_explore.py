"""Growing a neighbourhood onto the blocks shown: the merge, the cap's eviction order, and the
shown ids read again under the caller's scopes."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from ctx.core import App, NotFound, Principal, StoreRequest, ValidationError, blocks, graph

ALPHA = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")
BETA = Principal(key_id="00000000-0000-0000-0000-0000000000b1", name="b", home_scope="beta")


def _store(app: App, who: Principal, title: str) -> str:
    req = StoreRequest.model_validate({"title": title, "content": f"Secret body of {title}."})
    return str(blocks.store_block(app, who, req)["id"])


def _link(app: App, a: str, b: str, confidence: float) -> None:
    with app.connection() as conn:
        graph.write_link(conn, a, b, "topical", confidence)


@pytest.fixture
def star(app: App) -> dict[str, str]:
    """focus - mid; mid - strong (0.9), mid - weak (0.3); far hangs off strong; lone is unlinked."""
    ids = {n: _store(app, ALPHA, n) for n in ("focus", "mid", "strong", "weak", "far", "lone")}
    _link(app, ids["focus"], ids["mid"], 0.8)
    _link(app, ids["mid"], ids["strong"], 0.9)
    _link(app, ids["mid"], ids["weak"], 0.3)
    _link(app, ids["strong"], ids["far"], 0.9)
    return ids


def _titles(out: dict[str, Any]) -> list[str]:
    return [n["title"] for n in out["nodes"]]


def test_without_shown_blocks_it_is_the_ego_network(app: App, star: dict[str, str]) -> None:
    out = graph.explore(app, ALPHA, star["focus"], depth=2)
    ego = graph.ego(app, ALPHA, star["focus"], depth=2)
    assert out["nodes"] == ego["nodes"] and out["edges"] == ego["edges"]
    assert out["evicted"] == [] and out["cap"] == 200


def test_shown_blocks_stay_with_their_distance_over_the_merged_graph(
    app: App, star: dict[str, str]
) -> None:
    shown = [star["mid"], star["strong"], star["far"], star["weak"], star["lone"]]
    out = graph.explore(app, ALPHA, star["focus"], shown)
    depths = {n["title"]: n["depth"] for n in out["nodes"]}
    assert depths == {"focus": 0, "mid": 1, "strong": 2, "weak": 2, "far": 3, "lone": None}
    assert len(out["edges"]) == 4 and not out["truncated"]
    assert "Secret body" not in repr(out)


@pytest.mark.parametrize(
    ("cap", "kept", "evicted"),
    [
        (5, ["focus", "mid", "strong", "weak", "far"], ["lone"]),  # not connected: first to go
        (4, ["focus", "mid", "strong", "weak"], ["far", "lone"]),  # then the farthest
        (3, ["focus", "mid", "strong"], ["far", "lone", "weak"]),  # then the weakest link
        (1, ["focus"], ["far", "lone", "mid", "strong", "weak"]),  # the focus always stays
    ],
)
def test_past_the_cap_the_farthest_then_the_weakest_go(
    app: App, star: dict[str, str], cap: int, kept: list[str], evicted: list[str]
) -> None:
    shown = [star[n] for n in ("mid", "strong", "far", "weak", "lone")]
    out = graph.explore(app, ALPHA, star["focus"], shown, cap=cap)
    assert _titles(out) == kept
    assert out["evicted"] == sorted(star[n] for n in evicted)
    assert out["truncated"]
    ids = {n["id"] for n in out["nodes"]}
    assert all(e["source"] in ids and e["target"] in ids for e in out["edges"])


def test_shown_blocks_are_read_again_under_the_callers_scopes(
    app: App, star: dict[str, str]
) -> None:
    theirs = _store(app, BETA, "Beta secret")
    _link(app, star["focus"], theirs, 0.99)
    blocks.set_archived(app, ALPHA, star["weak"], True)
    out = graph.explore(app, ALPHA, star["focus"], [theirs, star["weak"], str(uuid.uuid4())])
    assert _titles(out) == ["focus", "mid"]  # unreadable, archived and unknown ids drop out
    assert out["evicted"] == [] and "Beta" not in repr(out)
    with pytest.raises(NotFound):
        graph.explore(app, ALPHA, theirs)


def test_bad_shown_ids_or_cap_are_refused(app: App, star: dict[str, str]) -> None:
    with pytest.raises(ValidationError) as caught:
        graph.explore(app, ALPHA, star["focus"], ["nope"])
    assert caught.value.field == "keep"
    with pytest.raises(ValidationError) as caught:
        graph.explore(app, ALPHA, star["focus"], [star["mid"]] * 1001)
    assert caught.value.field == "keep"
    with pytest.raises(ValidationError) as caught:
        graph.explore(app, ALPHA, star["focus"], cap=0)
    assert caught.value.field == "cap"
