from __future__ import annotations

from typing import Any

import psycopg
import pytest

from ctx.core import App


def test_numbers_count_per_scope(alice: Any, bob: Any) -> None:
    assert [alice.create(f"a{i}")["number"] for i in range(3)] == [1, 2, 3]
    assert bob.create("b")["number"] == 1
    assert alice.create("a4")["number"] == 4


def test_history_is_append_only(app: App, alice: Any) -> None:
    alice.create("Crash on start")
    with app.connection() as conn:
        (row,) = conn.execute("SELECT id, kind FROM issue_history").fetchall()
    assert row["kind"] == "created"
    for statement in (
        "UPDATE issue_history SET kind = 'edited'",
        "DELETE FROM issue_history",
        "TRUNCATE issue_history",
    ):
        with pytest.raises(psycopg.Error, match="append-only"), app.connection() as conn:
            conn.execute(statement)
    with app.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM issue_history").fetchone()["n"] == 1
