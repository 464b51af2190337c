"""Blocks at the core level: upsert, write log, the jobs a type row asks for, id resolution."""

from __future__ import annotations

from typing import Any

import pydantic
import pytest

from ctx.core import (
    Ambiguous,
    App,
    Forbidden,
    NotFound,
    Principal,
    SearchRequest,
    StoreRequest,
    ValidationError,
    blocks,
)
from ctx.core.runtime import finish

ALPHA = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")
BETA = Principal(
    key_id="00000000-0000-0000-0000-0000000000b1",
    name="b",
    home_scope="beta",
    allowed_scopes=("alpha",),
)


def _req(title: str, content: str = "body", **extra: Any) -> StoreRequest:
    return StoreRequest.model_validate({"title": title, "content": content, **extra})


def _rows(app: App, sql: str, *params: Any) -> list[dict[str, Any]]:
    with app.connection() as conn:
        return conn.execute(sql, params).fetchall()


def _jobs(app: App, block_id: str) -> list[tuple[str, str]]:
    rows = _rows(
        app,
        "SELECT kind, status FROM context_jobs WHERE payload->>'block_id' = %s ORDER BY kind, id",
        block_id,
    )
    return [(r["kind"], r["status"]) for r in rows]


def test_store_upserts_by_scope_category_title(app: App) -> None:
    first = blocks.store_block(app, ALPHA, _req("Deploy notes", "v1", tags=["ops", "ops"]))
    again = blocks.store_block(app, ALPHA, _req("Deploy notes", "v2", metadata={"k": 1}))
    other_category = blocks.store_block(app, ALPHA, _req("Deploy notes", "v1", category="other"))
    other_scope = blocks.store_block(app, BETA, _req("Deploy notes", "v1"))

    assert first["action"] == "created" and first["scope"] == "alpha"
    assert again == {**first, "action": "updated"}
    assert other_category["id"] != first["id"] and other_category["action"] == "created"
    assert other_scope["id"] != first["id"] and other_scope["scope"] == "beta"
    block = blocks.get_block(app, ALPHA, first["id"])
    assert block["content"] == "v2"
    assert block["metadata"] == {"k": 1}
    assert block["tags"] == []  # an update replaces every field it is given
    assert block["content_hash"] == blocks.content_hash("v2")
    assert block["block_type"] == "knowledge" and block["sensitivity"] == "internal"
    assert len(_rows(app, "SELECT id FROM context_blocks")) == 3


def test_every_write_leaves_one_write_log_row(app: App) -> None:
    created = blocks.store_block(app, ALPHA, _req("Logged", "one"))
    blocks.store_block(app, ALPHA, _req("Logged", "two"))
    blocks.delete_block(app, ALPHA, created["id"])
    log = _rows(
        app,
        "SELECT api_key_id::text, action, block_id::text, scope, detail FROM context_write_log "
        "ORDER BY id",
    )
    assert [r["action"] for r in log] == ["block.created", "block.updated", "block.deleted"]
    assert {r["block_id"] for r in log} == {created["id"]}
    assert {r["api_key_id"] for r in log} == {ALPHA.key_id}
    assert {r["scope"] for r in log} == {"alpha"}
    assert log[0]["detail"] == {"category": "general", "title": "Logged", "type": "knowledge"}
    assert _rows(app, "SELECT id FROM context_blocks") == []


def test_store_queues_the_jobs_the_type_row_asks_for(app: App) -> None:
    knowledge = blocks.store_block(app, ALPHA, _req("k", block_type="knowledge"))
    reference = blocks.store_block(app, ALPHA, _req("r", block_type="reference"))
    meta = blocks.store_block(app, ALPHA, _req("m", block_type="system-meta"))
    assert _jobs(app, knowledge["id"]) == [
        ("embed", "queued"),
        ("guard", "queued"),
        ("temporal", "queued"),
    ]
    assert _jobs(app, reference["id"]) == [("embed", "queued"), ("guard", "queued")]
    assert _jobs(app, meta["id"]) == []
    assert blocks.get_block(app, ALPHA, meta["id"])["block_type"] == "system-meta"


def test_only_changed_content_queues_new_work_and_resets_guard(app: App) -> None:
    stored = blocks.store_block(app, ALPHA, _req("Same", "text"))
    with app.connection() as conn:
        finish(conn, [j["id"] for j in conn.execute("SELECT id FROM context_jobs")])
        conn.execute("UPDATE context_blocks SET guard_status = 'reviewed'")

    blocks.store_block(app, ALPHA, _req("Same", "text", tags=["new-tag"]))
    assert _jobs(app, stored["id"]) == []
    assert blocks.get_block(app, ALPHA, stored["id"])["guard_status"] == "reviewed"

    blocks.store_block(app, ALPHA, _req("Same", "changed text"))
    assert _jobs(app, stored["id"]) == [
        ("embed", "queued"),
        ("guard", "queued"),
        ("temporal", "queued"),
    ]
    assert blocks.get_block(app, ALPHA, stored["id"])["guard_status"] == "pending"


def test_unknown_block_type_names_the_known_ones_and_stores_nothing(app: App) -> None:
    with pytest.raises(ValidationError) as caught:
        blocks.store_block(app, ALPHA, _req("x", block_type="nonsense"))
    assert caught.value.field == "block_type"
    assert "'nonsense'" in caught.value.message
    for known in ("audit-trail", "knowledge", "reference", "system-meta"):
        assert known in caught.value.message
    assert _rows(app, "SELECT id FROM context_blocks") == []
    assert _rows(app, "SELECT id FROM context_write_log") == []
    assert _rows(app, "SELECT id FROM context_jobs") == []


def test_writes_outside_the_home_scope_are_refused(app: App) -> None:
    in_alpha = blocks.store_block(app, ALPHA, _req("Alpha block"))
    with pytest.raises(Forbidden):
        blocks.store_block(app, BETA, _req("Sneaky", scope="alpha"))
    with pytest.raises(Forbidden):
        blocks.delete_block(app, BETA, in_alpha["id"])  # readable, but not BETA's home
    with pytest.raises(pydantic.ValidationError):  # the request model states the scope rule
        _req("Bad scope", scope="Not A Scope")
    assert [r["title"] for r in _rows(app, "SELECT title FROM context_blocks")] == ["Alpha block"]
    assert len(_rows(app, "SELECT id FROM context_write_log")) == 1


def _insert_with_id(app: App, block_id: str, scope: str, title: str) -> None:
    with app.connection() as conn:
        conn.execute(
            "INSERT INTO context_blocks (id, scope, category, title, content, block_type, "
            "content_hash) VALUES (%s, %s, 'general', %s, 'c', 'knowledge', 'h')",
            (block_id, scope, title),
        )


def test_id_prefixes_resolve_only_within_read_scopes(app: App) -> None:
    _insert_with_id(app, "abcd1111-0000-4000-8000-000000000001", "alpha", "one")
    _insert_with_id(app, "abcd2222-0000-4000-8000-000000000002", "alpha", "two")
    _insert_with_id(app, "abcd3333-0000-4000-8000-000000000003", "gamma", "hidden")

    assert blocks.get_block(app, ALPHA, "abcd1")["title"] == "one"
    assert blocks.get_block(app, ALPHA, " ABCD2222 ")["title"] == "two"
    with pytest.raises(Ambiguous, match="several blocks"):
        blocks.get_block(app, ALPHA, "abcd")
    # The gamma block is invisible: its own prefix is not found, and it never makes one ambiguous.
    with pytest.raises(NotFound):
        blocks.get_block(app, ALPHA, "abcd3")
    with pytest.raises(NotFound):
        blocks.get_block(app, ALPHA, "abcd3333-0000-4000-8000-000000000003")
    for bad in ("abc", "xyz12", "abcd%", "abcd_", "", "a" * 37):
        with pytest.raises(ValidationError):
            blocks.get_block(app, ALPHA, bad)


def test_reads_are_filtered_to_read_scopes(app: App) -> None:
    blocks.store_block(app, ALPHA, _req("Kubernetes rollout", "kubernetes canary", category="ops"))
    blocks.store_block(app, BETA, _req("Kubernetes beta", "kubernetes in beta", category="infra"))
    gamma = Principal(key_id=ALPHA.key_id, name="g", home_scope="gamma")
    blocks.store_block(app, gamma, _req("Kubernetes gamma", "kubernetes hidden", category="secret"))

    assert {b["title"] for b in blocks.list_blocks(app, ALPHA)} == {"Kubernetes rollout"}
    assert {b["scope"] for b in blocks.list_blocks(app, BETA)} == {"alpha", "beta"}
    assert [b["scope"] for b in blocks.list_blocks(app, BETA, scope="alpha")] == ["alpha"]
    with pytest.raises(Forbidden):
        blocks.list_blocks(app, ALPHA, scope="gamma")
    assert blocks.block_stats(app, BETA)["by_scope"] == {"alpha": 1, "beta": 1}
    assert blocks.block_stats(app, BETA)["blocks"] == 2
    assert [c["category"] for c in blocks.block_categories(app, BETA)] == ["infra", "ops"]
    with pytest.raises(Forbidden):
        blocks.block_categories(app, BETA, scope="gamma")

    hits = blocks.search_blocks(app, BETA, SearchRequest(query="kubernetes"))
    assert {h["scope"] for h in hits} == {"alpha", "beta"}
    assert "**" in hits[0]["snippet"]
    only_alpha = blocks.search_blocks(
        app, BETA, SearchRequest(query="kubernetes", scopes=["alpha"])
    )
    assert [h["title"] for h in only_alpha] == ["Kubernetes rollout"]
    with pytest.raises(Forbidden):
        blocks.search_blocks(app, BETA, SearchRequest(query="kubernetes", scopes=["gamma"]))


def test_search_ranks_by_either_language_and_lists_a_block_once(app: App) -> None:
    """Each text configuration searches its own index; a block both match is one hit, scored by
    the better of the two, and the limit counts hits, not matches."""
    both = blocks.store_block(
        app, ALPHA, _req("Häuser und houses", "Die Häuser stehen, houses stand")
    )
    german = blocks.store_block(app, ALPHA, _req("Nur Deutsch", "Zwei Häuser am See"))
    english = blocks.store_block(app, ALPHA, _req("English only", "Three houses by the lake"))
    blocks.store_block(app, ALPHA, _req("Unrelated", "a note about the weather"))

    hits = blocks.search_blocks(app, ALPHA, SearchRequest(query="Häuser houses"))
    ids = [h["id"] for h in hits]
    assert len(ids) == len(set(ids))  # no block twice, though both configurations match it
    assert ids[0] == str(both["id"])  # the only block with both words
    one = blocks.search_blocks(app, ALPHA, SearchRequest(query="Häuser"))
    assert {h["id"] for h in one} == {str(both["id"]), str(german["id"])}
    assert blocks.search_blocks(app, ALPHA, SearchRequest(query="houses", limit=1))[0]["id"] in {
        str(both["id"]),
        str(english["id"]),
    }
    assert (
        len(blocks.search_blocks(app, ALPHA, SearchRequest(query="houses OR Häuser", limit=2))) == 2
    )


def test_stats_count_the_pending_jobs_of_the_callers_scopes(app: App) -> None:
    from ctx.core.runtime import drain

    blocks.store_block(app, ALPHA, _req("Pending work", "to be embedded and dated"))
    gamma = Principal(key_id=ALPHA.key_id, name="g", home_scope="gamma")
    assert blocks.block_stats(app, ALPHA)["pending_jobs"] >= 1  # no worker runs in tests
    assert blocks.block_stats(app, gamma)["pending_jobs"] == 0  # another scope's jobs
    for kind in app.job_handlers:
        drain(app, kind)
    assert blocks.block_stats(app, ALPHA)["pending_jobs"] == 0
