"""``App.held_connection``: the connections asked for inside it are one connection and one
transaction (the governor's desk runs ten query stages on it), committed when it ends and rolled
back whole when it fails."""

from __future__ import annotations

import pytest

from ctx.core import App


def _count(app: App, scope: str) -> int:
    with app.connection() as conn:
        row = conn.execute(
            "SELECT count(*) AS n FROM context_scope_stats WHERE scope = %s", (scope,)
        ).fetchone()
    assert row is not None
    return int(row["n"])


def test_inside_it_every_connection_is_the_same_one_and_commits_at_the_end(app: App) -> None:
    with app.held_connection():
        with app.connection() as first:
            first.execute("INSERT INTO context_scope_stats (scope, blocks) VALUES ('held', 1)")
        with app.connection() as second:
            assert second is first  # no second checkout
            assert _count(app, "held") == 1  # the same transaction sees it before the commit
        with app.held_connection(), app.connection() as nested:  # nesting holds the same one
            assert nested is first
    assert _count(app, "held") == 1  # committed when the block ended
    with app.connection() as other, app.connection() as another:
        assert other is not another  # outside, connections are pooled as before


def test_a_failure_inside_rolls_back_everything_it_did(app: App) -> None:
    with pytest.raises(RuntimeError), app.held_connection():
        with app.connection() as conn:
            conn.execute("INSERT INTO context_scope_stats (scope, blocks) VALUES ('undone', 1)")
        raise RuntimeError("a stage failed")
    assert _count(app, "undone") == 0
