"""Browsing blocks: keyset pages, facets, the private policy, a block's dates and Guard match."""

from __future__ import annotations

from typing import Any

import pytest

from ctx.core import App, Forbidden, Principal, StoreRequest, ValidationError, blocks, temporal
from ctx.core.blocks import BrowseRequest

ALPHA = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")
BETA = Principal(
    key_id="00000000-0000-0000-0000-0000000000b1",
    name="b",
    home_scope="beta",
    allowed_scopes=("alpha",),
)


def _store(who: Principal, app: App, title: str, **extra: Any) -> str:
    origin = extra.pop("origin", "api")
    req = StoreRequest.model_validate({"title": title, "content": extra.pop("content", "x"),
                                       **extra})  # fmt: skip
    return str(blocks.store_block(app, who, req, origin=origin)["id"])


def _page(app: App, who: Principal, **fields: Any) -> dict[str, Any]:
    return blocks.browse_blocks(app, who, BrowseRequest.model_validate(fields))


def test_pages_walk_the_newest_first_order_without_repeats(app: App) -> None:
    ids = {_store(ALPHA, app, f"n{i:02d}") for i in range(11)}
    with app.connection() as conn:  # a tie on updated_at is broken by the id
        conn.execute("UPDATE context_blocks SET updated_at = '2026-01-01Z' WHERE title < 'n06'")
        order = [str(r["id"]) for r in conn.execute(
            "SELECT id FROM context_blocks ORDER BY updated_at DESC, id DESC").fetchall()]  # fmt: skip
    first = _page(app, ALPHA, limit=4)
    assert first["newer"] is None and first["older"] is not None
    pages, page = [first], first
    while page["older"]:
        page = _page(app, ALPHA, limit=4, before=page["older"])
        pages.append(page)
    seen = [b["id"] for p in pages for b in p["blocks"]]
    assert seen == order and set(seen) == ids
    assert [len(p["blocks"]) for p in pages] == [4, 4, 3]
    assert "content" not in pages[0]["blocks"][0]  # listings stay light
    # back toward the newest: the same pages, and the first page again at the top
    middle = _page(app, ALPHA, limit=4, after=pages[2]["newer"])
    assert [b["id"] for b in middle["blocks"]] == order[4:8]
    top = _page(app, ALPHA, limit=4, after=middle["newer"])
    assert [b["id"] for b in top["blocks"]] == order[:4] and top["newer"] is None


def test_filters_scopes_archive_and_private_types(app: App) -> None:
    a = _store(ALPHA, app, "a", category="ops", tags=["infra"])
    b = _store(BETA, app, "b", category="ops", block_type="reference")
    c = _store(ALPHA, app, "c", category="notes")
    event = _store(ALPHA, app, "turn", category="thread/s1", block_type="event",
                   origin="governor")  # fmt: skip
    blocks.set_archived(app, ALPHA, c, True)

    def ids(who: Principal = BETA, **f: Any) -> set[str]:
        return {x["id"] for x in _page(app, who, **f)["blocks"]}

    assert ids(ALPHA) == {a}  # alpha cannot read beta; archived and private left out
    assert ids() == {a, b}
    assert ids(category="ops", tag="infra") == {a}
    assert ids(block_type="reference") == {b}
    assert ids(scope="alpha") == {a}
    assert ids(archived=True) == {c}
    assert ids(block_type="event") == set()
    assert ids(category="thread/s1") == {event}  # named, the thread's events show
    with pytest.raises(Forbidden):
        _page(app, ALPHA, scope="beta")
    with pytest.raises(ValidationError):
        _page(app, ALPHA, before="yesterday")
    with pytest.raises(ValidationError):
        _page(app, ALPHA, before="2026-01-01T00:00:00+00:00|x")


def test_facets_count_what_the_caller_may_see(app: App) -> None:
    _store(ALPHA, app, "a", category="ops", tags=["infra", "x"])
    _store(ALPHA, app, "b", category="ops", tags=["infra"])
    _store(BETA, app, "c", category="beta-only", block_type="reference")
    _store(ALPHA, app, "turn", category="thread/s1", block_type="event", origin="governor")
    facets = blocks.block_facets(app, ALPHA)
    assert facets == {
        "scopes": [{"value": "alpha", "n": 2}],
        "categories": [{"value": "ops", "n": 2}],
        "types": [{"value": "knowledge", "n": 2}],
        "tags": [{"value": "infra", "n": 2}, {"value": "x", "n": 1}],
    }
    both = blocks.block_facets(app, BETA)
    assert both["scopes"] == [{"value": "alpha", "n": 2}, {"value": "beta", "n": 1}]
    assert blocks.block_facets(app, ALPHA, archived=True)["categories"] == []


def test_a_blocks_dates_and_guard_match(app: App) -> None:
    dated = _store(ALPHA, app, "dated", content="Shipped on 2026-03-23.",
                   occurred_at="2026-03-20T08:00:00Z")  # fmt: skip
    twin = _store(ALPHA, app, "twin")
    hidden = _store(BETA, app, "hidden")
    with app.connection() as conn:
        temporal.extract_block(conn, dated)
        conn.execute(
            "INSERT INTO context_guard_matches (block_id, match_id, similarity, decision) "
            "VALUES (%s, %s, 0.93, 'needs_review'), (%s, %s, 0.99, 'near_duplicate')",
            (dated, twin, twin, hidden),
        )
    seen = blocks.block_context(app, ALPHA, dated)
    assert [(str(d["day"]), d["source"]) for d in seen["dates"]] == [
        ("2026-03-20", "own"),
        ("2026-03-23", "content"),
    ]
    assert seen["guard"]["match_id"] == twin and seen["guard"]["match_title"] == "twin"
    # a match in a scope the caller cannot read is not the caller's to know about
    assert blocks.block_context(app, ALPHA, twin)["guard"] is None
    assert blocks.block_context(app, BETA, twin)["guard"]["decision"] == "near_duplicate"
    assert blocks.block_at_key(app, ALPHA, "general", "twin") == twin
    assert blocks.block_at_key(app, BETA, "general", "twin") is None
