"""Embedding writers running next to each other: a block deleted while its batch was being
embedded is left out (the rest of the batch is written), and two writers of one sequence never
deadlock."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from ctx.core import App, Principal, StoreRequest, blocks, embed
from ctx.core.embed import context as ctxvec
from ctx.core.runtime import drain

ALPHA = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")


def _options(server: Any) -> dict[str, Any]:
    return {"base_url": server.base_url, "model": "m", "dimensions": 16}


def _store(app: App, title: str, category: str = "notes") -> str:
    req = StoreRequest(title=title, content=f"{title}: the details.", category=category)
    return str(blocks.store_block(app, ALPHA, req)["id"])


def _embedded(app: App, generation: int | None = None) -> set[str]:
    with app.connection() as conn:
        rows = conn.execute(
            "SELECT e.block_id::text AS id FROM context_block_embeddings e "
            "JOIN context_embedding_generations g ON g.id = e.generation "
            "WHERE (%(gen)s::integer IS NULL AND g.status = 'active') OR g.id = %(gen)s",
            {"gen": generation},
        ).fetchall()
    return {r["id"] for r in rows}


class Running:
    """``work`` on a thread; what it returned or raised is kept for the test to check."""

    def __init__(self, work: Callable[[], Any]) -> None:
        self.result: Any = None
        self.error: BaseException | None = None

        def run() -> None:
            try:
                self.result = work()
            except BaseException as exc:
                self.error = exc

        self.thread = threading.Thread(target=run)
        self.thread.start()

    def join(self) -> Any:
        self.thread.join(60)
        assert not self.thread.is_alive()
        if self.error is not None:
            raise self.error
        return self.result


def _while_the_model_hangs(
    server: Any, work: Callable[[], Any], meanwhile: Callable[[], Any]
) -> Any:
    """Run ``work`` until its embedding request reached the hanging model, do ``meanwhile``,
    then let the model answer; return what ``work`` returned (or raise what it raised)."""
    server.reset("hang")
    running = Running(work)
    try:
        for _ in range(3000):  # bounded: until the request is at the model
            if any(r.path == "/v1/embeddings" for r in server.requests):
                break
            running.thread.join(0.01)
        assert any(r.path == "/v1/embeddings" for r in server.requests)
        meanwhile()
    finally:
        server.release.set()
    return running.join()


def _delete(app: App, block_id: str) -> Callable[[], Any]:
    return lambda: blocks.delete_block(app, ALPHA, block_id)


def test_a_block_deleted_while_the_worker_embeds_it_leaves_the_rest_of_the_batch(
    app: App, loopback: Any
) -> None:
    ids = [_store(app, f"Harbour note {i}") for i in range(4)]
    done = _while_the_model_hangs(loopback, lambda: drain(app, "embed"), _delete(app, ids[1]))
    assert done == 4  # every job settled, none put back with an error
    assert _embedded(app) == {ids[0], ids[2], ids[3]}
    with app.connection() as conn:
        left = conn.execute("SELECT count(*) AS n FROM context_jobs WHERE kind = 'embed'")
        assert left.fetchone()["n"] == 0


def test_a_block_deleted_while_the_governor_embeds_it_in_its_transaction(
    app: App, loopback: Any
) -> None:
    """``embed_blocks`` runs the model inside the caller's transaction (the governor's
    indexer): a block another transaction deleted meanwhile is left out, not a foreign-key
    violation that loses the whole batch."""
    ids = [_store(app, f"Turn {i}", category="chat") for i in range(3)]

    def in_one_transaction() -> int:
        with app.connection() as conn:
            return embed.embed_blocks(app, conn, ids)

    written = _while_the_model_hangs(loopback, in_one_transaction, _delete(app, ids[0]))
    assert written == 2
    assert _embedded(app) == {ids[1], ids[2]}


def test_a_block_deleted_while_a_rebuild_embeds_it(app: App, loopback: Any) -> None:
    ids = [_store(app, f"Runbook {i}") for i in range(3)]
    drain(app, "embed")
    building = embed.start_rebuild(app, "openai", {**_options(loopback), "dimensions": 8})
    steps = _while_the_model_hangs(loopback, lambda: embed.rebuild_step(app), _delete(app, ids[2]))
    assert steps == 1
    assert _embedded(app, int(building["id"])) == {ids[0], ids[1]}
    while embed.rebuild_step(app):  # the fill finishes and switches
        pass
    assert _embedded(app) == {ids[0], ids[1]}


def _waiting_on_advisory_locks(app: App) -> int:
    with app.connection() as conn:
        row = conn.execute(
            "SELECT count(*) AS n FROM pg_stat_activity "
            "WHERE wait_event_type = 'Lock' AND wait_event = 'advisory'"
        ).fetchone()
    return int(row["n"])


def _until_waiting(app: App, writer: Running, n: int) -> None:
    for _ in range(3000):  # bounded: until n writers wait for the sequence lock
        if _waiting_on_advisory_locks(app) >= n:
            return
        writer.thread.join(0.01)
    assert _waiting_on_advisory_locks(app) >= n


def test_two_writers_of_one_sequence_do_not_deadlock(app: App, loopback: Any) -> None:
    """A block embedded again (a second writer of it, or a changed block) next to a new one of
    the same conversation, written at the same moment: the new one's writer updates its
    neighbour's context vector, which the other writer holds. Each writer takes the sequence
    lock before it touches a row, so neither holds a row the other waits for."""
    old = _store(app, "Turn 1", "chat")
    drain(app, "embed")
    new = _store(app, "Turn 2", "chat")
    with app.connection() as conn:
        gen = embed.active_generation(conn)
        assert gen is not None
    with app.connection() as holder:  # both writers queue behind this sequence lock
        ctxvec.lock_sequences(holder, int(gen["id"]), {("alpha", "chat")})
        # the lock goes to its waiters in turn: the new block's writer first
        first = Running(lambda: embed.embed_block_ids(app, [new]))
        _until_waiting(app, first, 1)
        second = Running(lambda: embed.embed_block_ids(app, [old]))
        _until_waiting(app, second, 2)
    assert (first.join(), second.join()) == (1, 1)
    assert _embedded(app) == {old, new}
