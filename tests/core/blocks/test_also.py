"""``also``: rows a plugin writes with a block commit or roll back with it."""

from __future__ import annotations

from typing import Any, cast

import pytest

from ctx.core import (
    App,
    BlockChanges,
    Conflict,
    Principal,
    StoreRequest,
    ValidationError,
    get_block,
    store_block,
    update_block,
)

WHO = Principal(key_id=cast(str, None), name="also-test", home_scope="alpha")


@pytest.fixture
def notes(app: App) -> App:
    with app.connection() as conn:
        conn.execute("CREATE TABLE also_notes (block_id uuid, action text, in_tx text)")
    return app


def _notes(app: App) -> list[tuple[str, str, str]]:
    with app.connection() as conn:
        rows = conn.execute("SELECT block_id::text, action, in_tx FROM also_notes").fetchall()
    return [(r["block_id"], r["action"], r["in_tx"]) for r in rows]


def _note(conn: Any, block: dict[str, Any], action: str) -> None:
    state = conn.info.transaction_status.name
    conn.execute("INSERT INTO also_notes VALUES (%s, %s, %s)", (block["id"], action, state))


def test_also_runs_in_the_write_transaction_with_the_stored_row(notes: App) -> None:
    stored = store_block(notes, WHO, StoreRequest(title="t", content="c"), also=_note)
    assert _notes(notes) == [(stored["id"], "created", "INTRANS")]
    update_block(notes, WHO, stored["id"], BlockChanges(content="d"), also=_note)
    assert _notes(notes)[-1] == (stored["id"], "updated", "INTRANS")


def test_a_failing_also_leaves_neither_the_block_nor_its_rows(notes: App) -> None:
    def failing(conn: Any, block: dict[str, Any], action: str) -> None:
        _note(conn, block, action)
        raise Conflict("the plugin's rows clash")

    with pytest.raises(Conflict):
        store_block(notes, WHO, StoreRequest(title="gone", content="c"), also=failing)
    assert _notes(notes) == []
    with notes.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM context_blocks").fetchone()["n"] == 0

    stored = store_block(notes, WHO, StoreRequest(title="kept", content="old"))
    with pytest.raises(Conflict):
        update_block(notes, WHO, stored["id"], BlockChanges(content="new"), also=failing)
    assert get_block(notes, WHO, stored["id"])["content"] == "old"
    assert _notes(notes) == []


def test_a_refused_write_never_calls_also(notes: App) -> None:
    called: list[str] = []
    with pytest.raises(ValidationError):
        store_block(
            notes,
            WHO,
            StoreRequest(title="t", content="c", block_type="no-such-type"),
            also=lambda conn, block, action: called.append(action),
        )
    assert called == []
