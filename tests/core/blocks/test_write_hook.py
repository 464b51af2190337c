"""The write-path hook: a plugin vetoes or annotates a write inside its transaction."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ctx.core import (
    App,
    BlockWrite,
    Principal,
    StoreRequest,
    ValidationError,
    hookimpl,
    store_block,
)

ALPHA = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")


class Gate:
    """Refuses titles starting with 'secret', tags and annotates the rest, queues a job."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, bool, str]] = []

    @hookimpl
    def before_block_write(self, conn: Any, who: Principal, write: BlockWrite) -> None:
        in_tx = conn.info.transaction_status.name  # the write's own open transaction
        self.seen.append((write.title, write.is_new, in_tx))
        if write.title.startswith("secret"):
            raise ValidationError("titles starting with 'secret' are refused", field="title")
        write.tags.append("gated")
        write.meta["checked_by"] = who.name
        if write.changed("content"):
            write.queue_job("example.review", reason="content")


class Lowers:
    @hookimpl
    def before_block_write(self, write: BlockWrite) -> None:
        write.sensitivity = "public"


class Corrupts:
    """Leaves what PostgreSQL cannot store: a NUL in a metadata value, or in a tag."""

    def __init__(self, where: str) -> None:
        self.where = where

    @hookimpl
    def before_block_write(self, write: BlockWrite) -> None:
        if self.where == "metadata":
            write.meta["note"] = {"deep": ["fine", "bad\x00"]}
        else:
            write.tags.append("t\x00")


@pytest.fixture
def gated(database_url: str, tmp_path: Path) -> Iterator[tuple[App, Gate]]:
    app = App(database_url=database_url, home=tmp_path, load_entry_points=False)
    gate = Gate()
    app.host.register(gate, "gate")
    app.open()
    try:
        yield app, gate
    finally:
        app.close()


def _rows(app: App, sql: str, *params: Any) -> list[dict[str, Any]]:
    with app.connection() as conn:
        return conn.execute(sql, params).fetchall()


def _store(app: App, title: str, content: str = "text", **extra: Any) -> dict[str, Any]:
    return store_block(app, ALPHA, StoreRequest(title=title, content=content, **extra))


def test_a_veto_writes_nothing(gated: tuple[App, Gate]) -> None:
    app, gate = gated
    with pytest.raises(ValidationError, match="refused") as caught:
        _store(app, "secret plans")
    assert caught.value.status_code == 422 and caught.value.field == "title"
    assert _rows(app, "SELECT id FROM context_blocks") == []
    assert _rows(app, "SELECT id FROM context_write_log") == []
    assert _rows(app, "SELECT id FROM context_jobs") == []
    assert gate.seen == [("secret plans", True, "INTRANS")]


def test_annotations_and_queued_jobs_land_with_the_block(gated: tuple[App, Gate]) -> None:
    app, gate = gated
    block_id = _store(app, "Plan", tags=["ops"], metadata={"k": 1})["id"]
    [row] = _rows(app, "SELECT tags, metadata FROM context_blocks WHERE id = %s", block_id)
    assert row["tags"] == ["ops", "gated"]
    assert row["metadata"] == {"k": 1, "checked_by": "a"}
    jobs = _rows(app, "SELECT kind, payload, dedupe_key FROM context_jobs ORDER BY id")
    # The core's own capabilities use the same hook, first: embed, temporal and Guard jobs for
    # the block, and a recount of the scope's common words (one per scope).
    kinds = ["embed", "temporal", "scope_terms", "guard", "example.review"]
    assert [j["kind"] for j in jobs] == kinds
    assert jobs[2]["payload"] == {"scope": "alpha"} and jobs[2]["dedupe_key"] == "scope:alpha"
    assert jobs[4]["payload"] == {"reason": "content", "block_id": block_id}
    assert jobs[4]["dedupe_key"] == block_id

    # Same content again: the hook sees the previous version and asks for nothing new.
    _store(app, "Plan", tags=["ops"], metadata={"k": 1})
    assert gate.seen[-1] == ("Plan", False, "INTRANS")
    assert len(_rows(app, "SELECT id FROM context_jobs")) == 5


def test_a_hook_may_not_lower_sensitivity(database_url: str, tmp_path: Path) -> None:
    app = App(database_url=database_url, home=tmp_path, load_entry_points=False)
    app.host.register(Lowers(), "lowers")
    with app:
        with pytest.raises(ValidationError, match="lower the sensitivity"):
            _store(app, "Diary", sensitivity="personal")
        assert _rows(app, "SELECT id FROM context_blocks") == []


@pytest.mark.parametrize(
    ("where", "field"), [("metadata", "metadata.note.deep[1]"), ("tags", "tags[0]")]
)
def test_a_hook_may_not_leave_unstorable_values(
    database_url: str, tmp_path: Path, where: str, field: str
) -> None:
    app = App(database_url=database_url, home=tmp_path, load_entry_points=False)
    app.host.register(Corrupts(where), "corrupts")
    with app:
        with pytest.raises(ValidationError, match="a plugin left") as caught:
            _store(app, "Diary")
        assert caught.value.field == field
        assert _rows(app, "SELECT id FROM context_blocks") == []


def test_a_vetoed_write_over_http_is_a_4xx_with_the_plugins_message(
    gated: tuple[App, Gate],
) -> None:
    from fastapi.testclient import TestClient

    from ctx.core import access
    from ctx.ui import create_app

    app, _ = gated
    with app.connection() as conn:
        _, token = access.create_key(conn, name="t", home_scope="alpha")
    with TestClient(create_app(app)) as client:
        r = client.post(
            "/api/store",
            headers={"X-Context-Key": token},
            json={"title": "secret", "content": "x"},
        )
    assert r.status_code == 422
    assert r.json()["message"] == "titles starting with 'secret' are refused"
    assert r.json()["field"] == "title"
