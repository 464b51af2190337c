"""Blue-green embedding rebuilds, and hot reload of settings across processes."""

from __future__ import annotations

import time
from pathlib import Path

from ctx.core import App, QueryRequest, StoreRequest, access, blocks, embed, retrieval
from ctx.core.runtime import Listener, drain, set_setting


def _principal(app: App) -> access.Principal:
    with app.connection() as conn:
        _, token = access.create_key(conn, name="t", home_scope="team")
        return access.authenticate(conn, token)


def test_rebuild_switches_when_complete_and_queries_work_throughout(app: App) -> None:
    who = _principal(app)
    titles = [f"Runbook {i}" for i in range(150)]
    for title in titles:
        blocks.store_block(
            app, who, StoreRequest(title=title, content=f"{title}: restart the cache.")
        )
    drain(app, "embed")
    with app.connection() as conn:
        old = embed.active_generation(conn)
    assert old is not None and old["provider"] == "e5"

    new = embed.start_rebuild(app, "minilm", {})
    assert new["status"] == "building" and new["provider"] == "minilm"
    steps = 0
    while True:
        report = embed.status(app)
        current = {g["id"]: g for g in report["generations"]}
        if current[new["id"]]["status"] == "active":
            break
        # Mid-rebuild the old generation still answers dense queries.
        assert current[old["id"]]["status"] == "active"
        mid = retrieval.query(app, who, QueryRequest(query="restart the cache", explain=True))
        assert mid["warnings"] == []
        assert any(s["channels"]["dense"]["rank"] for s in mid["sources"])
        assert embed.rebuild_step(app) == 1
        steps += 1
        assert steps < 20
    assert steps >= 1
    report = embed.status(app)
    assert [g["id"] for g in report["generations"]] == [new["id"]]
    assert report["generations"][0]["embedded"] == len(titles)
    with app.connection() as conn:
        indexes = conn.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'context_block_embeddings'"
        ).fetchall()
    names = {r["indexname"] for r in indexes}
    assert f"context_block_embeddings_hnsw_{new['id']}" in names
    assert f"context_block_embeddings_hnsw_{old['id']}" not in names
    after = retrieval.query(app, who, QueryRequest(query="restart the cache", explain=True))
    assert after["warnings"] == []
    assert any(s["channels"]["dense"]["rank"] for s in after["sources"])


def test_a_second_rebuild_is_refused_while_one_runs(app: App) -> None:
    embed.start_rebuild(app, "minilm", {})
    try:
        embed.start_rebuild(app, "minilm", {})
    except Exception as exc:
        assert "already running" in str(exc)
    else:
        raise AssertionError("a second rebuild was accepted")


def test_settings_changed_elsewhere_reach_a_listening_app(
    app: App, database_url: str, tmp_path: Path
) -> None:
    listener = Listener(app, {"ctx_settings": lambda _payload: app.reload()})
    listener.start()
    try:
        time.sleep(0.5)  # let it LISTEN before the change is made
        other = App(database_url=database_url, home=tmp_path / "other", load_entry_points=False)
        other.open()
        try:
            set_setting(other, "search.default_limit", 42)
        finally:
            other.close()
        deadline = time.monotonic() + 10
        while app.settings["search.default_limit"] != 42 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert app.settings.resolve("search.default_limit") == (42, "database")
    finally:
        listener.stop()
