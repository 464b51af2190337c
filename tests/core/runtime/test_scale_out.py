"""Scale-out: two ``ctxd`` and two ``ctx worker`` processes on one PostgreSQL over TCP.

One fleet, four acts in order: writes through either server are read through the other; queued
embed jobs are each done exactly once; a setting changed through one server reaches the other
server and the workers without a restart; a worker killed with SIGKILL while it holds jobs loses
none of them. The embedder is the loopback OpenAI-compatible peer (tests/support/openai_server.py);
which session wrote each embedding is recorded by a trigger in the test's own database.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import openai_server
import psycopg
import pytest
from cluster_kit import (
    EMBED_LOG_SQL,
    Fleet,
    Process,
    TcpPostgres,
    embed_jobs,
    embed_runs,
    embed_writers,
    peer_embedder,
    postgres_bin_or_skip,
    query_rows,
    running_jobs,
    wait_for,
)

pytestmark = pytest.mark.slow  # scheduled first (tests/conftest.py)

JOBS = 40  # embed jobs of the exactly-once act
HELD = 12  # blocks stored while the embedder hangs, in the kill -9 act


@pytest.fixture
def fleet(tmp_path: Path, peer: openai_server.OpenAIServer) -> Iterator[Fleet]:
    bin_dir = postgres_bin_or_skip()
    with TcpPostgres(bin_dir) as pg:
        settings = peer_embedder(peer.base_url)
        fleet = Fleet(pg.create_database("ctx"), tmp_path, settings)
        fleet.init()
        with psycopg.connect(fleet.database_url) as conn:
            conn.execute(EMBED_LOG_SQL)
        try:
            yield fleet
        finally:
            fleet.stop_all()


def _store(client: httpx.Client, title: str, content: str, category: str) -> str:
    reply = client.post(
        "/api/store", json={"title": title, "content": content, "category": category}
    )
    assert reply.status_code == 200, reply.text
    return str(reply.json()["id"])


def _own_context(url: str, ids: list[str]) -> dict[str, bool]:
    """Per block: is its context vector its own embedding (no neighbour blended in)?"""
    rows = query_rows(
        url,
        "SELECT block_id::text, context::text = embedding::text FROM context_block_embeddings "
        "WHERE block_id = ANY(%s::uuid[])",
        ids,
    )
    return {str(r[0]): bool(r[1]) for r in rows}


def test_two_servers_and_two_workers_share_one_database(
    fleet: Fleet, peer: openai_server.OpenAIServer
) -> None:
    url = fleet.database_url
    a, b = fleet.server("a"), fleet.server("b")
    w1, w2 = fleet.worker("w1"), fleet.worker("w2")
    fleet.wait_ready(a, b, w1, w2)
    assert "127.0.0.1" in url and "host=/" not in url  # TCP, not the unix socket
    with fleet.client(a) as via_a, fleet.client(b) as via_b:
        # 1. A write through either server is read and found through the other.
        first = _store(via_a, "Harbour crane", "The crane at pier nine lifts forty tonnes.", "x")
        second = _store(via_b, "Lighthouse", "The lighthouse lamp turns every twelve seconds.", "x")
        for reader, block_id, word in ((via_b, first, "tonnes"), (via_a, second, "lamp")):
            got = reader.post("/api/manage", json={"action": "get", "id": block_id})
            assert got.status_code == 200 and got.json()["block"]["id"] == block_id
            found = reader.post("/api/search", json={"query": word}).json()
            assert [hit["id"] for hit in found["results"]] == [block_id]

        # 2. Jobs queued through both servers are each done once, by whichever process claims
        # them: one embedding per block (the trigger's log) and one text per block sent to the
        # model.
        texts = {}
        batch = []
        for n in range(JOBS):
            content = f"Shipment {n} left the warehouse on schedule."
            block_id = _store(via_a if n % 2 else via_b, f"Shipment {n}", content, "batch")
            batch.append(block_id)
            texts[block_id] = f"Shipment {n}\n\n{content}"
        wait_for("the embed jobs to drain", lambda: not embed_jobs(url), 30)
        assert embed_runs(url, batch) == Counter(batch)  # every job ran, none twice
        sent = Counter(
            text
            for r in list(peer.requests)
            if r.path == "/v1/embeddings"
            for text in r.body["input"]
        )
        assert [sent[texts[block_id]] for block_id in batch] == [1] * JOBS
        print("embed jobs by process:", dict(embed_writers(url, batch)))
        # With the default blend, blocks in one sequence carry their neighbours.
        assert not all(_own_context(url, batch).values())

        # 3. A setting changed through server A reaches server B and the workers, no restart.
        put = via_a.put("/api/settings/embed.context_weight", json={"value": 0.0})
        assert put.status_code == 200 and put.json()["value"] == 0.0

        def b_sees_it() -> bool:
            row = via_b.get("/api/settings/embed.context_weight").json()
            return bool(row["value"] == 0.0 and row["source"] == "database")

        wait_for("server B seeing the new setting", b_sees_it, 30)
        after: list[str] = []

        def both_workers_embedded_some() -> bool:
            # New blocks of one sequence; the workers must embed some of them (any of the four
            # processes may claim a job, so store until each worker has had its share).
            n = len(after)
            after.append(_store(via_a if n % 2 else via_b, f"Late {n}", f"Late note {n}.", "late"))
            done = embed_writers(url, after)
            return done["w1"] > 0 and done["w2"] > 0

        wait_for("both workers embedding new blocks", both_workers_embedded_some, 45, poll=0.05)
        wait_for("the late embed jobs to drain", lambda: not embed_jobs(url), 30)
        own = _own_context(url, after)
        assert len(own) == len(after) >= 2
        assert all(own.values()), own  # every process blended with the new weight, 0

        # 4. kill -9 of a worker that holds jobs: the survivors take them back and do them.
        peer.reset("hang")  # claimed jobs now stay running until the model answers
        held = [
            _store(via_a if n % 2 else via_b, f"Held {n}", f"Held back {n}.", "held")
            for n in range(HELD)
        ]

        def w1_jobs() -> list[int]:
            return running_jobs(url, "w1")

        wait_for("worker w1 holding embed jobs", lambda: bool(w1_jobs()), 30)
        orphaned = w1_jobs()
        fleet.kill(w1)
        peer.reset("ok")  # the survivors' stalled calls return; w1's never will
        wait_for("the survivors finishing every held job", lambda: not embed_jobs(url), 30)
        assert query_rows(
            url, "SELECT count(*) FROM context_jobs WHERE status = 'quarantined'"
        ) == [(0,)]
        assert embed_runs(url, held) == Counter(held)  # nothing lost, nothing done twice
        writers = embed_writers(url, held)
        assert "w1" not in writers
        print(f"w1 held {len(orphaned)} jobs when killed; held blocks embedded by", dict(writers))
    survivors: list[Process] = [a, b, w2]
    assert all(p.popen.poll() is None for p in survivors)
    codes = fleet.stop_all()
    # SIGTERM stops servers and the surviving worker cleanly
    assert codes["a"] == 0 and codes["b"] == 0 and codes["w2"] == 0 and codes["w1"] == -9
