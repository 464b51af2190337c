"""``ctx embed status`` (and the server status built on it) answers from indexes: it never scans
the blocks, the vectors or the job queue, which grow with the store and are busiest when someone
asks how far the embedding got."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from ctx.core import App, Principal, StoreRequest, blocks, embed
from ctx.core.runtime import counts

WHO = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")
BIG_TABLES = ("context_blocks", "context_block_embeddings", "context_jobs")


@pytest.fixture
def no_seqscan_app(database_url: str, tmp_path: Path) -> Iterator[App]:
    """An App whose sessions plan as if every table were large: a sequential scan only where
    no index can answer."""
    params = conninfo_to_dict(database_url)
    params["options"] = "-c enable_seqscan=off"
    url = make_conninfo(**params)  # type: ignore[arg-type]
    app = App(database_url=url, home=tmp_path / "home", load_entry_points=False)
    app.open()
    try:
        yield app
    finally:
        app.close()


def _scans(url: str) -> dict[str, tuple[int, int]]:
    with psycopg.connect(url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT relname, seq_scan, coalesce(idx_scan, 0) FROM pg_stat_user_tables "
            "WHERE relname = ANY(%s)",
            (list(BIG_TABLES),),
        ).fetchall()
    return {r[0]: (int(r[1]), int(r[2])) for r in rows}


def test_embed_status_reads_indexes_only(no_seqscan_app: App, database_url: str) -> None:
    app = no_seqscan_app
    for i in range(4):
        kind = "system-meta" if i == 0 else "knowledge"  # system-meta is never embedded
        req = StoreRequest(title=f"Note {i}", content=f"text {i}", block_type=kind)
        blocks.store_block(app, WHO, req)
    before = _scans(database_url)

    report = embed.status(app)
    with app.connection() as conn:
        jobs = counts(conn)

    assert report["embeddable_blocks"] == 3
    assert report["embed_jobs"] == jobs["embed"] == {"queued": 3}
    deadline = time.monotonic() + 30  # a session reports its statistics within ~10 s
    while True:
        after = _scans(database_url)
        read = {t for t in BIG_TABLES if after[t] != before[t]}
        if read == set(BIG_TABLES) or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert read == set(BIG_TABLES)
    assert {t: after[t][0] - before[t][0] for t in BIG_TABLES} == dict.fromkeys(BIG_TABLES, 0)
