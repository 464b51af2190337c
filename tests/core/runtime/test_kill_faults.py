"""kill -9 in the middle of work: nothing acknowledged is lost, nothing is done twice, work resumes.

Each test runs a fleet (tests/support/cluster_kit.py: PostgreSQL over loopback TCP, ``ctxd`` and
``ctx worker`` processes, one database copied per test), starts an activity, kills one process
with SIGKILL while it is busy, starts a new one and waits for the work to finish. Two fleets, two
acts each:

* ``ctxd`` while two clients write blocks and governor events through it; then ``ctx ingest
  VAULT`` while it sends notes to the new ``ctxd``, and the same command again;
* a ``ctx worker`` while it embeds, checks (Guard) and links (Dream) blocks; then the worker that
  took over, while it fills a new embedding generation (``ctx embed rebuild``).

No lease timeout is shortened: a process's job lease is a PostgreSQL session lock, so its jobs
and Dream claims are free the moment its connections drop. The embedder and Dream's model are the
loopback peer (tests/support/openai_server.py), slowed (a delay per answer, or a gate that holds
the rebuild's second batch) so that the kill lands while work is in the victim's hands; which session wrote each embedding is logged by
a trigger in the test's database (``EMBED_LOG_SQL``).
"""

from __future__ import annotations

import json
import tempfile
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import openai_server
import psycopg
import pytest
from backend_kit import add_backend
from cluster_kit import (
    EMBED_LOG_SQL,
    Fleet,
    Process,
    TcpPostgres,
    embed_runs,
    lease_owners,
    postgres_bin_or_skip,
    query_rows,
    wait_for,
)
from ctxd import ctx
from fault_kit import (
    Pace,
    Stream,
    Target,
    cli,
    count,
    held_by,
    jobs_open,
    linker,
    per_block,
    quarantined,
)
from vault_kit import bulk_vault

from ctx.core import App, access
from ctx.core.blocks import StoreRequest, store_block
from ctx.core.runtime import set_setting

pytestmark = pytest.mark.slow  # scheduled first (tests/conftest.py)

SESSION = "kill-test"
# the vectors of the active generation for each block's current content
CURRENT_VECTORS = (
    "SELECT e.block_id FROM context_block_embeddings e "
    "JOIN context_embedding_generations g ON g.id = e.generation AND g.status = 'active' "
    "JOIN context_blocks b ON b.id = e.block_id AND b.content_hash = e.content_hash "
    "WHERE e.block_id = ANY(%s::uuid[])"
)
TEMPLATE = "ctx_kill_template"
SETTINGS = {
    "CTX_EMBED_PROVIDER": "openai",
    "CTX_EMBED_MODEL": "m",
    "CTX_EMBED_DIMENSIONS": "16",
    "CTX_DREAM_IDLE_WAIT_S": "0.5",
    "CTX_DREAM_CONCURRENCY": "2",
}


@pytest.fixture
def pace(peer: openai_server.OpenAIServer) -> Iterator[Pace]:
    peer.reset()
    slow = Pace(peer)
    try:
        yield slow
    finally:
        slow.remove()
        peer.reset()


@pytest.fixture(scope="module")
def cluster(peer: openai_server.OpenAIServer) -> Iterator[tuple[TcpPostgres, str]]:
    """One PostgreSQL for the module and a database ``ctx init`` made once (with the embedding
    log), copied for each test; the admin key's token works in every copy."""
    bin_dir = postgres_bin_or_skip()
    with TcpPostgres(bin_dir) as pg, tempfile.TemporaryDirectory() as root:
        settings = {**SETTINGS, "CTX_EMBED_BASE_URL": peer.base_url}
        fleet = Fleet(pg.create_database(TEMPLATE), Path(root), settings)
        api_key = fleet.init()
        with psycopg.connect(fleet.database_url) as conn:
            conn.execute(EMBED_LOG_SQL)
        yield pg, api_key


@pytest.fixture
def fleet(
    cluster: tuple[TcpPostgres, str], tmp_path: Path, peer: openai_server.OpenAIServer
) -> Iterator[Fleet]:
    pg, api_key = cluster
    name = "t_" + uuid.uuid4().hex[:10]
    with psycopg.connect(pg.admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{TEMPLATE}"')  # names of ours
    settings = {**SETTINGS, "CTX_EMBED_BASE_URL": peer.base_url}
    fleet = Fleet(pg.url(name), tmp_path, settings)
    fleet.api_key = api_key
    try:
        yield fleet
    finally:
        for proc in fleet.processes:  # kill -9 here too: how they stop is not this module's test
            if proc.popen.poll() is None:
                fleet.kill(proc)


@pytest.fixture
def writer(fleet: Fleet, tmp_path: Path) -> Iterator[tuple[App, Any]]:
    """An ``App`` in the test process that writes blocks straight to the database (so that only
    the fleet's workers run jobs) and the admin key's principal."""
    with App(
        database_url=fleet.database_url, home=tmp_path / "writer", load_entry_points=False
    ) as app:
        with app.connection() as conn:
            who = access.authenticate(conn, fleet.api_key)
        yield app, who


def _store(app: App, who: Any, titles: list[str]) -> list[str]:
    return [
        str(
            store_block(
                app,
                who,
                StoreRequest(
                    title=title,
                    content=f"{title}: a shipment of crates left the dock for the warehouse.",
                    category="shipments",
                ),
            )["id"]
        )
        for title in titles
    ]


def _lease(url: str, name: str) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        return lease_owners(conn)[name]


def _store_request(client: httpx.Client, n: int) -> httpx.Response:
    title = f"Acked write {n}"
    return client.post(
        "/api/store",
        json={"title": title, "content": f"Write number {n} of the kill test.", "category": "w"},
    )


def _commit_request(client: httpx.Client, n: int) -> httpx.Response:
    return client.post(
        "/api/governor/commit",
        json={"thread": {"session_id": SESSION}, "event": {"content": f"Event number {n}."}},
    )


def test_ctxd_killed_mid_writes_then_ingest_killed_mid_run(fleet: Fleet, tmp_path: Path) -> None:
    url = fleet.database_url
    first = fleet.server("a1")
    fleet.wait_ready(first)
    target = Target(first.url, fleet.api_key)
    blocks = Stream(target, _store_request).start()
    events = Stream(target, _commit_request).start()
    try:
        wait_for("writes acknowledged", lambda: min(len(blocks.acked), len(events.acked)) >= 10, 60)
        fleet.kill(first)
        before = (len(blocks.acked), len(events.acked))
        second = fleet.server("a2")
        fleet.wait_ready(second)
        target.url = second.url
        wait_for(
            "writes through the new ctxd",
            lambda: len(blocks.acked) >= before[0] + 10 and len(events.acked) >= before[1] + 10,
            60,
        )
    finally:
        blocks.finish()
        events.finish()
    print(
        f"ctxd killed after {before[0]} block and {before[1]} event acks; blocks: "
        f"{len(blocks.acked)} acked, {len(blocks.dropped)} dropped; events: "
        f"{len(events.acked)} acked, {len(events.dropped)} dropped"
    )
    # The clients saw answers or connection errors, never a wrong answer.
    assert blocks.wrong == [] and events.wrong == []
    assert blocks.dropped and events.dropped  # the kill and the restart did cut requests off

    # Blocks: every acknowledged one is there once, under its id; no write is stored twice.
    stored = query_rows(
        url, "SELECT title, id::text FROM context_blocks WHERE category = 'w' ORDER BY title"
    )
    by_title: dict[str, list[str]] = {}
    for title, block_id in stored:
        by_title.setdefault(str(title), []).append(str(block_id))
    assert all(len(ids) == 1 for ids in by_title.values()), by_title
    for n, body in blocks.acked.items():
        assert by_title.get(f"Acked write {n}") == [body["id"]], n
    # What was not acknowledged was stored at most once (a request cut off after its commit).
    assert len(stored) - len(blocks.acked) <= len(blocks.dropped)
    print(f"blocks stored without an ack: {len(stored) - len(blocks.acked)}")

    # Governor events: every acknowledged one is stored once under its seq; the seqs are gapless.
    rows = query_rows(
        url,
        "SELECT e.seq, e.content, e.indexed_at IS NOT NULL, e.embedded_at IS NOT NULL "
        "FROM context_thread_events e JOIN context_threads t ON t.id = e.thread_id "
        "WHERE t.session_id = %s ORDER BY e.seq",
        SESSION,
    )
    assert [r[0] for r in rows] == list(range(1, len(rows) + 1))
    contents = Counter(str(r[1]) for r in rows)
    assert all(n == 1 for n in contents.values()), contents.most_common(3)
    seq_of = {str(r[1]): int(r[0]) for r in rows}
    for n, body in events.acked.items():
        assert seq_of.get(f"Event number {n}.") == body["seq"], n
    print(f"events stored without an ack: {len(rows) - len(events.acked)}")

    # Indexing resumes after the restart: every event gets its one record and its vector.
    def indexed() -> bool:
        return count(
            url,
            "SELECT count(*) FROM context_thread_events "
            "WHERE indexed_at IS NULL OR embedded_at IS NULL",
        ) == 0 and not jobs_open(url, "governor.index", "embed")

    wait_for("the events indexed and embedded", indexed, 60, poll=0.2)
    records = count(
        url,
        "SELECT count(*) FROM context_thread_events e JOIN context_blocks b ON b.id = e.record_id",
    )
    assert (
        records
        == len(rows)
        == count(url, "SELECT count(*) FROM context_blocks WHERE block_type = 'event'")
    )
    ids = [str(r[0]) for r in query_rows(url, "SELECT id::text FROM context_blocks")]
    vectors = per_block(url, CURRENT_VECTORS, ids)
    assert vectors == Counter(ids)  # every block embedded, one vector each
    assert quarantined(url) == []

    _ingest_killed_and_run_again(fleet, second, tmp_path)


WAVE_ONE = 16  # blocks Dream is linking when the second wave arrives
WAVE_TWO = 12  # blocks the worker is embedding when it is killed


def test_worker_killed_mid_embed_guard_dream_then_mid_rebuild(
    fleet: Fleet,
    writer: tuple[App, Any],
    peer: openai_server.OpenAIServer,
    pace: Pace,
) -> None:
    url = fleet.database_url
    app, who = writer
    add_backend(app, peer, ["dream"])
    peer.chat_responder = linker(0.1, ["shipment crates"])
    pace.seconds = 0.3
    ids = _store(app, who, [f"Shipment {n}" for n in range(WAVE_ONE)])
    w1 = fleet.worker("w1")
    fleet.wait_ready(w1)
    lease = _lease(url, "w1")
    wait_for(
        "Dream cycles on the worker",
        lambda: count(url, "SELECT count(*) FROM context_dream_state WHERE cycles > 0") >= 4,
        60,
    )
    ids += _store(app, who, [f"Late shipment {n}" for n in range(WAVE_TWO)])
    wait_for(
        "the worker holding embed jobs",
        lambda: "embed" in held_by(url, lease),
        30,
        poll=0.02,
    )
    fleet.kill(w1)
    held = held_by(url, lease)  # frozen now: the lease is gone, nobody else runs jobs yet
    links_before = count(url, "SELECT count(*) FROM context_links")
    print(
        "w1 killed holding",
        {kind: len(v) for kind, v in held.items()},
        f"after {links_before} links",
    )

    w2 = fleet.worker("w2")
    fleet.wait_ready(w2)

    def settled() -> bool:
        return (
            not jobs_open(url, "embed", "guard")
            and count(
                url,
                "SELECT count(*) FROM context_blocks WHERE guard_status = 'pending' "
                "AND id = ANY(%s::uuid[])",
                ids,
            )
            == 0
            and count(
                url,
                "SELECT count(*) FROM context_dream_state WHERE block_id = ANY(%s::uuid[]) "
                "AND (checked_at IS NULL OR claimed_by IS NOT NULL)",
                ids,
            )
            == 0
        )

    wait_for("every block embedded, checked and dreamt over", settled, 90, poll=0.2)

    # Embedding: one vector per block for its content; a block embedded twice is one whose job
    # the dead worker held (done, but not yet marked done, when it died), never another.
    vectors = per_block(url, CURRENT_VECTORS, ids)
    assert vectors == Counter(ids)
    runs = embed_runs(url, ids)
    assert set(runs) == set(ids)
    twice = {b for b, n in runs.items() if n > 1}
    assert twice <= set(held["embed"]) and max(runs.values()) <= 2, runs
    # Guard: one decision per block, none lost with the worker.
    decisions = per_block(
        url,
        "SELECT block_id FROM context_write_log WHERE action = 'guard.decision' "
        "AND block_id = ANY(%s::uuid[])",
        ids,
    )
    assert decisions == Counter(ids)
    # Dream: links were made, and no pair of blocks is linked twice (either way, any type).
    pairs = Counter(
        (min(str(s), str(t)), max(str(s), str(t)))
        for s, t in query_rows(url, "SELECT source_id, target_id FROM context_links")
    )
    assert pairs and all(n == 1 for n in pairs.values()), pairs.most_common(3)
    assert quarantined(url) == []
    print(
        f"{len(ids)} blocks: {len(twice)} embedded twice (of {len(held['embed'])} held), "
        f"{sum(pairs.values())} links, {len(decisions)} Guard decisions"
    )

    set_setting(app, "dream.throttle", "off")  # the rebuild's blocks need no links
    _rebuild_with_worker_killed(fleet, app, who, pace, w2, ids)


REBUILD_BLOCKS = 130  # blocks when the rebuild starts: three batches, killed after the first


def _rebuild_with_worker_killed(
    fleet: Fleet, app: App, who: Any, pace: Pace, worker: Process, ids: list[str]
) -> None:
    """``ctx embed rebuild``: the worker filling the new generation is killed after its first
    batch; the next worker completes it, and every block has one vector there."""
    url = fleet.database_url
    pace.seconds = 0.0
    ids = ids + _store(app, who, [f"Crate {n}" for n in range(REBUILD_BLOCKS - len(ids))])
    lease = _lease(url, worker.name)
    wait_for("the first embedding", lambda: not jobs_open(url, "embed"), 60)
    old = _active(url)

    pace.hold(after=1)  # the rebuild's first batch goes through, its second waits
    started = ctx(fleet.env("rebuild"), "embed", "rebuild", "--no-wait")
    assert started.returncode == 0, started.stderr
    new = int(
        query_rows(url, "SELECT id FROM context_embedding_generations WHERE status = 'building'")[
            0
        ][0]
    )

    def filled() -> int:
        return count(
            url, "SELECT count(*) FROM context_block_embeddings WHERE generation = %s", new
        )

    wait_for("the rebuild's first batch", lambda: filled() > 0, 60, poll=0.02)
    fleet.kill(worker)
    held = held_by(url, lease)
    at_kill = filled()
    print(f"{worker.name} killed with {at_kill} of {REBUILD_BLOCKS} blocks rebuilt, holding {held}")
    assert 0 < at_kill < REBUILD_BLOCKS and held.get("rebuild")
    ids += _store(app, who, [f"Crate added during the rebuild {n}" for n in range(5)])

    pace.release()
    after = fleet.worker("w3")
    fleet.wait_ready(after)
    wait_for("the new generation switching in", lambda: _active(url) == new, 60, poll=0.2)
    wait_for("the new blocks' embed jobs", lambda: not jobs_open(url, "embed", "rebuild"), 60)
    vectors = per_block(
        url,
        "SELECT e.block_id FROM context_block_embeddings e "
        "JOIN context_blocks b ON b.id = e.block_id AND b.content_hash = e.content_hash "
        f"WHERE e.generation = {new} AND e.block_id = ANY(%s::uuid[])",
        ids,
    )
    assert vectors == Counter(ids)  # every block, one vector, in the new generation
    assert count(
        url, "SELECT count(*) FROM context_block_embeddings WHERE generation = %s", new
    ) == (len(ids))
    assert _active(url) == new != old
    assert quarantined(url) == []


def _active(url: str) -> int:
    """The active embedding generation's id."""
    rows = query_rows(url, "SELECT id FROM context_embedding_generations WHERE status = 'active'")
    return int(rows[0][0])


VAULT_NOTES = 60


def _ingest_killed_and_run_again(fleet: Fleet, server: Process, tmp_path: Path) -> None:
    """``ctx ingest VAULT`` killed after its first notes; run again, it sends the rest, and
    every note (keyed by its path) is there once."""
    url = fleet.database_url
    vault = bulk_vault(tmp_path / "Harbour", VAULT_NOTES)
    extra = {"CTX_URL": server.url, "CTX_API_KEY": fleet.api_key}
    live = (
        "SELECT metadata->>'path', coalesce((metadata->>'chunk')::int, 1) FROM context_blocks "
        "WHERE metadata->>'source' = 'obsidian' AND category = %s AND NOT is_archived"
    )
    category = "obsidian/Harbour"
    first = cli(fleet, "ingest1", ["ingest", str(vault), "--batch", "2", "--workers", "1"], extra)
    wait_for(
        "the first notes stored",
        lambda: len(query_rows(url, live, category)) >= 8 or first.popen.poll() is not None,
        90,
        poll=0.02,
    )
    fleet.kill(first)
    stored_at_kill = len({r[0] for r in query_rows(url, live, category)})
    assert first.popen.returncode == -9 and stored_at_kill < VAULT_NOTES, first.log_text()

    again = ctx({**fleet.env("ingest2"), **extra}, "ingest", str(vault), "--json")
    assert again.returncode == 0, again.stderr
    summary = json_line(again.stdout)
    print(f"ingest killed after {stored_at_kill} of {VAULT_NOTES} notes; the rerun:", summary)
    # The rerun resumed: the notes stored before the kill were not sent again.
    assert summary["sent"] <= VAULT_NOTES - stored_at_kill + 2  # + the batch in flight
    assert summary["archived"] == 0
    blocks = Counter((str(p), int(c)) for p, c in query_rows(url, live, category))
    assert all(n == 1 for n in blocks.values()), blocks.most_common(3)  # every chunk once
    assert len({p for p, _ in blocks}) == VAULT_NOTES == summary["notes"]
    assert len(blocks) == summary["chunks"]


def json_line(out: str) -> dict[str, Any]:
    """The JSON object a ``--json`` command printed."""
    return dict(json.loads(out[out.index("{") :]))
