"""The seed's seven invariants of the context governor, one test (or more) each, on a real
database with the real embedder; no background workers run unless a test starts them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from backend_kit import add_backend

from ctx.core import App, Principal
from ctx.core.governor import CommitRequest, PrepareRequest, StatusRequest
from ctx.core.runtime import drain, set_setting

WHO = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")
T0 = datetime(2024, 3, 4, 9, 0, tzinfo=UTC)


def prepare(app: App, content: str, session: str = "s1", **extra: Any) -> dict[str, Any]:
    body = {"thread": {"session_id": session}, "event": {"content": content}, **extra}
    return app.governor.prepare(WHO, PrepareRequest.model_validate(body))


def commit(app: App, content: str, session: str = "s1", **event: Any) -> dict[str, Any]:
    body = {
        "thread": {"session_id": session},
        "event": {"role": "assistant", "content": content, **event},
    }
    return app.governor.commit(WHO, CommitRequest.model_validate(body))


def events(app: App) -> list[dict[str, Any]]:
    with app.connection() as conn:
        return conn.execute(
            "SELECT seq, role, content, indexed_at, embedded_at FROM context_thread_events "
            "ORDER BY seq"
        ).fetchall()


def text_of(envelope: dict[str, Any]) -> str:
    return "\n".join(m["content"] for m in envelope["messages"])


def desk_of(envelope: dict[str, Any]) -> str:
    found = [m["content"] for m in envelope["messages"] if m["content"].startswith("Context retr")]
    return found[0] if found else ""


def test_an_event_is_stored_before_it_can_leave_a_prompt(app: App) -> None:
    """Invariant 1: the event row and its outbox job are committed before prepare builds
    anything; what a small envelope leaves out is still in the store."""
    for i in range(12):
        prepare(
            app, f"note {i}: the courier code for depot {i} is K-{i:03d}.", budget=200, desk=False
        )
    rows = events(app)
    assert [r["seq"] for r in rows] == list(range(1, 13))
    with app.connection() as conn:
        jobs = conn.execute(
            "SELECT payload FROM context_jobs WHERE kind = 'governor.index'"
        ).fetchall()
    assert sorted(j["payload"]["seq"] for j in jobs) == list(range(1, 13))
    last = prepare(app, "which code has depot 0?", budget=120, desk=False)
    assert "K-000" not in text_of(last)  # left out of the prompt ...
    assert rows[0]["content"].endswith("K-000.")  # ... never out of the store


def test_a_budget_too_small_for_the_fixed_parts_stores_nothing(app: App) -> None:
    from ctx.core import ValidationError

    with pytest.raises(ValidationError, match="budget 64 is too small"):
        prepare(app, "hello", budget=64, system="You are a careful assistant. " * 20)
    assert events(app) == []


@pytest.mark.parametrize("budget", [200, 600, 2500])
def test_every_envelope_stays_within_its_budget(app: App, budget: int) -> None:
    """Invariant 2, end to end: long turns, a system prompt, pins and a desk, at several
    budgets; the governor's own count (framing included) never passes the budget."""
    from ctx.core.governor import ProtectRequest, count_messages

    long = "Der Lieferant aus Köln hat die Preise erhöht; " * 12
    for i in range(4):
        prepare(app, f"{i}: {long}", budget=budget, desk=False)
        commit(app, f"Antwort {i}: " + "noted, " * 30)
    drain(app, "governor.index")
    app.governor.protect(
        WHO,
        ProtectRequest.model_validate(
            {"thread": {"session_id": "s1"}, "items": [{"content": "Always answer in German."}]}
        ),
    )
    env = prepare(app, "Was hat der Lieferant erhöht? " + long, budget=budget, system="Be brief.")
    counter = app.governor.counter()
    assert env["tokens"] == count_messages(counter, env["messages"]) <= budget
    assert env["parts"]["protected"] > 0
    if env["truncated"]:
        assert "shortened to fit the budget" in env["messages"][-1]["content"]


def test_recent_events_are_visible_before_indexing_finishes(app: App) -> None:
    """Invariant 3: nothing is indexed (no worker runs), yet the newest turns are in the
    envelope, in order, as their own messages."""
    prepare(app, "My flight to Lisbon leaves at 6:40 from gate B12.")
    commit(app, "Noted: Lisbon, 6:40, gate B12.")
    env = prepare(app, "What gate was it again?")
    assert env["watermarks"] == {"recorded": 3, "indexed": 0, "embedded": 0}
    assert env["ring"]["seqs"] == [1, 2]
    assert [m["role"] for m in env["messages"][-3:]] == ["user", "assistant", "user"]
    assert "gate B12" in env["messages"][-3]["content"]


def test_a_full_work_ring_loses_nothing(database_url: str, tmp_path: Any) -> None:
    """Invariant 4: a work ring of one slot refuses most hints; the outbox holds the work and
    every event is indexed and embedded in the end."""
    env = {"CTX_GOVERNOR_WORK_RING": "1"}
    with App(
        database_url=database_url, home=tmp_path / "h", load_entry_points=False, environ=env
    ) as app:
        _full_ring(app)


def _full_ring(app: App) -> None:
    for i in range(15):
        commit(app, f"turn {i} about the harbour crane number {i}")
    stats = app.governor.work_ring.stats()
    assert stats["capacity"] == 1 and stats["dropped"] >= 14
    drain(app, "governor.index")
    status = app.governor.status(
        WHO, StatusRequest.model_validate({"thread": {"session_id": "s1"}})
    )
    assert status["watermarks"] == {"recorded": 15, "indexed": 15, "embedded": 15}
    with app.connection() as conn:
        n = conn.execute(
            "SELECT count(*) AS n FROM context_blocks b JOIN context_block_embeddings v "
            "ON v.block_id = b.id WHERE b.block_type = 'event'"
        ).fetchone()
    assert n is not None and n["n"] == 15


def _story(app: App) -> None:
    facts = [
        "We adopted a grey cat named Pixel from the shelter on Elm Street.",
        "Pixel hates the vacuum cleaner and hides under the sofa.",
        "The vet said Pixel needs a dental check in spring.",
        "Our sailing boat Marigold is moored at pier 7 in Kiel.",
        "Marigold's mainsail was repaired by the loft in Laboe.",
        "The Kiel harbour fee for Marigold is due every April.",
    ]
    for i, fact in enumerate(facts):
        commit(app, fact, role="user", occurred_at=(T0 + timedelta(hours=i)).isoformat())
    for i in range(6):
        commit(app, f"Small talk number {i} about the weather.")
    drain(app, "governor.index")


def test_retrieved_context_replaces_the_previous_desk(app: App) -> None:
    """Invariant 5: a new focus brings its own desk; the report names what came in, what went
    out and what stayed, and the old items are no longer in the messages."""
    set_setting(app, "governor.ring_events", 2)
    set_setting(app, "governor.desk_items", 3)  # a small desk: each focus brings its own three
    _story(app)
    cats = prepare(app, "What does the vet say about our cat Pixel?", budget=700)
    assert "dental check" in desk_of(cats)
    boats = prepare(app, "Where is the sailing boat Marigold moored?", budget=700)
    assert "pier 7" in desk_of(boats)
    first = {i["id"] for i in cats["desk"]["items"]}
    second = {i["id"] for i in boats["desk"]["items"]}
    assert set(boats["desk"]["swapped_in"]) == second - first
    assert set(boats["desk"]["swapped_out"]) == first - second
    assert set(boats["desk"]["retained"]) == first & second
    assert boats["desk"]["swapped_out"], "a new focus must change the desk"
    for gone in boats["desk"]["swapped_out"]:  # what left the desk is not in the messages
        with app.connection() as conn:
            row = conn.execute(
                "SELECT content FROM context_blocks WHERE id = %s", (gone,)
            ).fetchone()
        assert row is not None and row["content"] not in desk_of(boats)


def test_the_database_is_authoritative_and_caches_are_disposable(
    app: App, database_url: str, tmp_path: Any
) -> None:
    """Invariant 6: the same envelope after the process cache is emptied, after a poisoned
    cache entry, and from a second App with cold caches over the same database."""
    set_setting(app, "governor.ring_events", 0)  # the desk alone: each prepare adds an event
    _story(app)
    before = prepare(app, "Which pier is Marigold at?", session="s1")
    cache = app.governor.cache
    cache.local.clear()
    again = prepare(app, "Which pier is Marigold at?", session="s1")
    assert [i["id"] for i in again["desk"]["items"]] == [i["id"] for i in before["desk"]["items"]]
    for key in list(cache.local._items):
        cache.local.set(key, b"not a vector")
    poisoned = prepare(app, "Which pier is Marigold at?", session="s1")
    assert [i["id"] for i in poisoned["desk"]["items"]] == [
        i["id"] for i in before["desk"]["items"]
    ]
    other = App(database_url=database_url, home=tmp_path / "h2", load_entry_points=False).open()
    try:
        cold = other.governor.prepare(
            WHO,
            PrepareRequest.model_validate(
                {"thread": {"session_id": "s1"}, "event": {"content": "Which pier is Marigold at?"}}
            ),
        )
    finally:
        other.close()
    assert [i["id"] for i in cold["desk"]["items"]] == [i["id"] for i in before["desk"]["items"]]
    assert cold["seq"] == poisoned["seq"] + 1


def test_a_local_prompt_needs_no_remote_service(app: App, srv: Any) -> None:
    """Invariant 7: with model backends configured for every role the query path knows, a
    prepare calls none of them; with the only embedder remote and down, it still answers from
    the text channels and the ring."""
    add_backend(app, srv, roles=["translate", "rerank", "synthesis", "chat"])
    _story(app)
    srv.requests.clear()
    env = prepare(app, "Wie heißt unsere Katze?")
    assert env["messages"] and srv.requests == []
