"""Dream cycles against a scripted loopback OpenAI-compatible server.

The server's responder reads the prompt it is sent: it answers the keyword prompt with phrases,
and the evaluation and recurrent prompts with links to the candidate labels it finds next to the
titles the test names, so the test scripts relations by title, not by label.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from backend_kit import add_backend

from ctx.core import App, access
from ctx.core.blocks import StoreRequest, store_block
from ctx.core.graph import DreamWorker, run_cycle
from ctx.core.graph.dream_eval import Proposal, capped
from ctx.core.runtime import drain

SCOPE = "alpha"


def who_for(app: App, keys: Any, home: str = SCOPE, allowed: list[str] | None = None) -> Any:
    with app.connection() as conn:
        return access.authenticate(conn, keys.make(home, allowed))


def put(app: App, who: Any, title: str, content: str, **kw: Any) -> str:
    req = StoreRequest(title=title, content=content, category=kw.pop("category", "notes"), **kw)
    return str(store_block(app, who, req)["id"])


def labels(body: dict[str, Any]) -> dict[str, str]:
    """Title -> label of every candidate in the request's user message."""
    user = body["messages"][-1]["content"]
    return {
        m.group(2).strip(): m.group(1) for m in re.finditer(r'<candidate id="(\w+)">\n(.*)', user)
    }


def responder(
    relations: dict[str, dict[str, Any]] | Callable[[dict[str, str]], str],
    keywords: list[str] | None = None,
    recurrent: dict[str, dict[str, Any]] | None = None,
) -> Callable[[dict[str, Any]], str]:
    def answer(body: dict[str, Any]) -> str:
        system = body["messages"][0]["content"]
        if "search phrases" in system:
            return json.dumps(keywords or ["backup", "postgres"])
        seen = labels(body)
        if "recurring event" in system:
            return json.dumps(
                [{"target": seen[t], **v} for t, v in (recurrent or {}).items() if t in seen]
            )
        if callable(relations):
            return relations(seen)
        return json.dumps([{"target": seen[t], **v} for t, v in relations.items() if t in seen])

    return answer


@pytest.fixture
def dreaming(app: App, srv: Any) -> App:
    add_backend(app, srv, ["dream"])
    return app


def links(app: App) -> list[dict[str, Any]]:
    with app.connection() as conn:
        rows = conn.execute(
            "SELECT s.title AS source, t.title AS target, l.link_type, l.confidence, "
            "l.pipeline_version, l.note FROM context_links l "
            "JOIN context_blocks s ON s.id = l.source_id JOIN context_blocks t ON t.id = l.target_id "
            "ORDER BY 1, 2"
        ).fetchall()
    return [dict(r) for r in rows]


def state(app: App, block_id: str) -> dict[str, Any]:
    with app.connection() as conn:
        row = conn.execute(
            "SELECT *, extract(epoch FROM due_at - now()) AS due_in FROM context_dream_state "
            "WHERE block_id = %s",
            (block_id,),
        ).fetchone()
    assert row is not None
    return dict(row)


def backup_store(app: App, keys: Any) -> tuple[Any, dict[str, str]]:
    who = who_for(app, keys)
    ids = {
        "Backup plan": put(
            app, who, "Backup plan", "Postgres backups run nightly at 02:00 on db-2."
        ),
        "Restore drill": put(
            app,
            who,
            "Restore drill",
            "We restored the postgres backup of db-2 in 14 minutes during the March drill.",
        ),
        "Backup bucket": put(
            app, who, "Backup bucket", "Backups land in the s3 bucket ctx-backups, kept 14 days."
        ),
        "Lasagne": put(app, who, "Lasagne", "Bake the lasagne for 45 minutes at 180 degrees."),
    }
    drain(app, "embed")
    return who, ids


def test_a_cycle_writes_the_scripted_links_with_the_pipeline_version(
    dreaming: App, srv: Any, keys: Any
) -> None:
    _, ids = backup_store(dreaming, keys)
    srv.chat_responder = responder({
        "Restore drill": {"type": "causal", "confidence": 0.8},
        "Backup bucket": {"type": "factual", "from": "candidate", "confidence": 0.9},
    })  # fmt: skip
    result = run_cycle(dreaming, block_id=ids["Backup plan"])
    assert result is not None and result.outcome == "linked", result
    got = {(r["source"], r["target"], r["link_type"]) for r in links(dreaming)}
    assert got == {
        ("Backup plan", "Restore drill", "causal"),
        ("Backup bucket", "Backup plan", "factual"),  # "from": "candidate" turns it around
    }
    assert {r["pipeline_version"] for r in links(dreaming)} == {1}
    st = state(dreaming, ids["Backup plan"])
    assert st["keywords"] == ["backup", "postgres"]
    assert 2.9 * 86400 < st["due_in"] < 3.1 * 86400  # active cooldown: 3 days
    assert st["claimed_by"] is None and st["cycles"] == 1


def test_keywords_are_reused_while_the_content_is_unchanged(
    dreaming: App, srv: Any, keys: Any
) -> None:
    who, ids = backup_store(dreaming, keys)
    srv.chat_responder = responder({})
    run_cycle(dreaming, block_id=ids["Backup plan"])
    with dreaming.connection() as conn:
        conn.execute("UPDATE context_dream_state SET due_at = now() - interval '1 second'")
    srv.requests.clear()
    run_cycle(dreaming, block_id=ids["Backup plan"])
    assert "search phrases" not in srv.sent_text()  # no new keyword call
    put(dreaming, who, "Backup plan", "Postgres backups now run at 03:30 on db-3.")
    srv.requests.clear()
    run_cycle(dreaming, block_id=ids["Backup plan"])  # changed content: due again, new keywords
    assert "search phrases" in srv.sent_text()


def test_an_inverted_supersedes_is_downgraded_to_topical(
    dreaming: App, srv: Any, keys: Any
) -> None:
    who = who_for(dreaming, keys)
    old = put(dreaming, who, "Backup schedule", "Backups run at 02:00.")
    put(dreaming, who, "Backup schedule 2", "Backups run at 03:30 from now on.")
    drain(dreaming, "embed")
    # the older block claims to supersede the newer one: wrong direction
    srv.chat_responder = responder({"Backup schedule 2": {"type": "supersedes", "confidence": 0.9}})
    result = run_cycle(dreaming, block_id=old)
    assert result is not None
    (link,) = links(dreaming)
    assert link["link_type"] == "topical"
    assert "older" in link["note"]


def test_a_valid_supersedes_is_kept_and_one_across_categories_is_not(
    dreaming: App, srv: Any, keys: Any
) -> None:
    who = who_for(dreaming, keys)
    put(dreaming, who, "Backup schedule", "Backups run at 02:00.")
    put(dreaming, who, "Backup schedule memo", "Backups run at 02:00.", category="memos")
    new = put(dreaming, who, "Backup schedule 2", "Backups run at 03:30 from now on.")
    drain(dreaming, "embed")
    srv.chat_responder = responder({
        "Backup schedule": {"type": "supersedes", "confidence": 0.9},
        "Backup schedule memo": {"type": "supersedes", "confidence": 0.9},
    })  # fmt: skip
    run_cycle(dreaming, block_id=new)
    got = {(r["target"], r["link_type"]) for r in links(dreaming)}
    assert got == {("Backup schedule", "supersedes"), ("Backup schedule memo", "topical")}


def test_malformed_answers_fail_the_cycle_briefly_and_write_nothing(
    dreaming: App, srv: Any, keys: Any
) -> None:
    _, ids = backup_store(dreaming, keys)
    srv.chat_responder = responder(lambda seen: "I think they are related, sort of.")
    result = run_cycle(dreaming, block_id=ids["Backup plan"])
    assert result is not None and result.outcome == "failed"
    assert "JSON" in (result.error or "")
    assert links(dreaming) == []
    st = state(dreaming, ids["Backup plan"])
    assert 200 < st["due_in"] < 400  # transient cooldown: 5 minutes
    assert st["errors"] == 1


def test_three_failures_in_a_row_give_the_inert_cooldown(
    dreaming: App, srv: Any, keys: Any
) -> None:
    _, ids = backup_store(dreaming, keys)
    srv.chat_responder = responder(lambda seen: "no")
    for _ in range(3):
        with dreaming.connection() as conn:
            conn.execute("UPDATE context_dream_state SET due_at = now() - interval '1 second'")
        run_cycle(dreaming, block_id=ids["Backup plan"])
    assert state(dreaming, ids["Backup plan"])["due_in"] > 13 * 86400


def test_unknown_targets_types_and_bad_confidences_are_ignored(
    dreaming: App, srv: Any, keys: Any
) -> None:
    _, ids = backup_store(dreaming, keys)

    def answer(seen: dict[str, str]) -> str:
        return json.dumps([
            {"target": "C99", "type": "topical", "confidence": 0.9},
            {"target": ids["Lasagne"], "type": "topical", "confidence": 0.9},  # a raw id
            {"target": seen["Restore drill"], "type": "friendship", "confidence": 0.9},
            {"target": seen["Restore drill"], "type": "topical", "confidence": "high"},
            {"target": seen["Backup bucket"], "type": "topical", "confidence": 0.85},
            "just a string",
        ])  # fmt: skip

    srv.chat_responder = responder(answer)
    result = run_cycle(dreaming, block_id=ids["Backup plan"])
    assert result is not None and result.outcome == "linked"
    assert [(r["target"], r["link_type"]) for r in links(dreaming)] == [
        ("Backup bucket", "topical")
    ]
    joined = " | ".join(result.ignored)
    for why in ("unknown target 'C99'", "unknown type 'friendship'", "no usable confidence",
                "not an object"):  # fmt: skip
        assert why in joined, joined


def test_confidence_floors_hold(dreaming: App, srv: Any, keys: Any) -> None:
    _, ids = backup_store(dreaming, keys)
    srv.chat_responder = responder({
        "Restore drill": {"type": "topical", "confidence": 0.65},
        "Backup bucket": {"type": "topical", "confidence": 0.7},
    })  # fmt: skip
    result = run_cycle(dreaming, block_id=ids["Backup plan"])
    assert result is not None
    assert [r["target"] for r in links(dreaming)] == ["Backup bucket"]
    st = state(dreaming, ids["Backup plan"])
    assert st["due_in"] > 2.9 * 86400


def test_no_links_give_the_inert_cooldown(dreaming: App, srv: Any, keys: Any) -> None:
    _, ids = backup_store(dreaming, keys)
    srv.chat_responder = responder({})
    result = run_cycle(dreaming, block_id=ids["Backup plan"])
    assert result is not None and result.outcome == "inert"
    assert 13.9 * 86400 < state(dreaming, ids["Backup plan"])["due_in"] < 14.1 * 86400


def test_the_per_cycle_cap_and_its_type_diversity_tie_break() -> None:
    ps = [Proposal("s", f"t{i}", "topical", 0.9) for i in range(6)]
    ps += [Proposal("s", "c1", "causal", 0.9), Proposal("s", "f1", "factual", 0.8)]
    ps += [Proposal("s", "t0", "causal", 0.95)]  # one pair, the most confident type wins
    chosen = capped(ps, 5)
    assert len(chosen) == 5
    assert chosen[0] == Proposal("s", "t0", "causal", 0.95)
    # among the 0.9 ties, topical (not taken yet) comes before more of what was taken
    assert [(p.target_id, p.type) for p in chosen[1:]] == [
        ("t1", "topical"),
        ("c1", "causal"),
        ("t2", "topical"),
        ("t3", "topical"),
    ]


def test_a_cycle_writes_at_most_the_cap(dreaming: App, srv: Any, keys: Any) -> None:
    who = who_for(dreaming, keys)
    src = put(dreaming, who, "Garden plan", "Plant tomatoes, beans and basil in the garden.")
    for i in range(8):
        put(dreaming, who, f"Garden bed {i}", f"Garden bed {i}: tomatoes and beans, basil.")
    drain(dreaming, "embed")
    srv.chat_responder = responder(
        lambda seen: json.dumps(
            [{"target": lab, "type": "topical", "confidence": 0.8} for lab in seen.values()]
        )
    )
    result = run_cycle(dreaming, block_id=src)
    assert result is not None and result.candidates >= 6
    assert len(links(dreaming)) == 5


def test_candidates_never_come_from_another_scope(dreaming: App, srv: Any, keys: Any) -> None:
    _, ids = backup_store(dreaming, keys)
    other = who_for(dreaming, keys, "beta")
    put(
        dreaming, other, "Beta backup secret plan", "Postgres backups run nightly at 02:00 on db-2."
    )
    drain(dreaming, "embed")
    srv.chat_responder = responder(
        lambda seen: json.dumps(
            [{"target": lab, "type": "topical", "confidence": 0.9} for lab in seen.values()]
        )
    )
    run_cycle(dreaming, block_id=ids["Backup plan"])
    assert "Beta backup secret plan" not in srv.sent_text()
    assert all(r["target"] != "Beta backup secret plan" for r in links(dreaming))


def test_the_trust_gate_withholds_personal_candidates_and_personal_sources(
    app: App, srv: Any, keys: Any
) -> None:
    add_backend(app, srv, ["dream"], trust="non-personal")
    who = who_for(app, keys)
    src = put(app, who, "Backup plan", "Postgres backups run nightly at 02:00 on db-2.")
    put(app, who, "Backup diary", "My private postgres backup worries.", sensitivity="personal")
    private = put(app, who, "Backup fears", "Postgres backup of db-2 at night.",
                  sensitivity="personal")  # fmt: skip
    drain(app, "embed")
    # the model names every label there could be, shown or not
    srv.chat_responder = responder(
        lambda seen: json.dumps(
            [{"target": f"C{i}", "type": "topical", "confidence": 0.9} for i in range(1, 6)]
        )
    )
    run_cycle(app, block_id=src)
    assert "private postgres" not in srv.sent_text()
    assert "Backup fears" not in srv.sent_text()
    assert links(app) == []  # no link to a candidate the backend was not shown
    srv.requests.clear()
    result = run_cycle(app, block_id=private)  # the backend may not see the block itself
    assert result is not None and result.outcome == "failed"
    assert "may not see the subject" in (result.error or "")
    assert srv.requests == []


def test_no_dream_backend_skips_without_claiming(app: App, keys: Any) -> None:
    who = who_for(app, keys)
    block = put(app, who, "Backup plan", "Postgres backups run nightly.")
    result = run_cycle(app)
    assert result is not None and result.outcome == "skipped"
    assert state(app, block)["cycles"] == 0 and state(app, block)["claimed_by"] is None


def weekly_syncs(app: App, keys: Any) -> str:
    """Two weekly syncs a week apart and a dentist visit on the next Tuesday, dated; returns the
    first sync's id."""
    who = who_for(app, keys)
    tuesday = datetime(2026, 3, 3, 10, tzinfo=UTC)
    first = put(app, who, "Weekly sync 2026-03-03", "Weekly sync: roadmap and hiring.",
                occurred_at=tuesday)  # fmt: skip
    put(app, who, "Weekly sync 2026-03-10", "Weekly sync: roadmap, budget.",
        occurred_at=tuesday + timedelta(days=7))  # fmt: skip
    put(app, who, "Dentist 2026-03-17", "Dentist appointment.",
        occurred_at=tuesday + timedelta(days=14))  # fmt: skip
    drain(app, "embed")
    drain(app, "temporal")
    return first


def test_recurrent_blocks_are_confirmed_and_win_over_topical(
    dreaming: App, srv: Any, keys: Any
) -> None:
    first = weekly_syncs(dreaming, keys)
    srv.chat_responder = responder(
        {"Weekly sync 2026-03-10": {"type": "topical", "confidence": 0.9}},
        recurrent={
            "Weekly sync 2026-03-10": {"recurrent": True, "confidence": 0.85},
            "Dentist 2026-03-17": {"recurrent": True, "confidence": 0.95},
        },
    )
    run_cycle(dreaming, block_id=first)
    got = {(r["target"], r["link_type"]) for r in links(dreaming)}
    # the dentist shares the weekday but not the title, so it is never asked about
    assert got == {("Weekly sync 2026-03-10", "recurrent")}


def test_a_recurrent_confirmation_below_its_floor_is_dropped(
    dreaming: App, srv: Any, keys: Any
) -> None:
    first = weekly_syncs(dreaming, keys)
    srv.chat_responder = responder(
        {}, recurrent={"Weekly sync 2026-03-10": {"recurrent": True, "confidence": 0.75}}
    )
    run_cycle(dreaming, block_id=first)
    assert links(dreaming) == []


def test_two_workers_never_dream_the_same_block(
    dreaming: App, srv: Any, keys: Any, database_url: str, tmp_path: Any
) -> None:
    who = who_for(dreaming, keys)
    for i in range(6):
        put(dreaming, who, f"Note {i}", f"Note number {i} about gardens and bees.")
    drain(dreaming, "embed")
    seen: list[str] = []
    lock = threading.Lock()

    def slow(body: dict[str, Any]) -> str:
        import time

        time.sleep(0.05)
        return responder({})(body)

    srv.chat_responder = slow
    second = App(database_url=database_url, home=tmp_path / "h2", load_entry_points=False).open()
    try:

        def loop(app: App) -> None:
            while (result := run_cycle(app)) is not None:
                with lock:
                    seen.append(str(result.block_id))

        threads = [threading.Thread(target=loop, args=(a,)) for a in (dreaming, second)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
    finally:
        second.close()
    assert len(seen) == 6 and len(set(seen)) == 6
    with dreaming.connection() as conn:
        cycles = conn.execute("SELECT cycles FROM context_dream_state").fetchall()
    assert {r["cycles"] for r in cycles} == {1}


def test_the_throttle_off_stops_cycles(dreaming: App, srv: Any, keys: Any) -> None:
    from ctx.core.runtime import set_setting

    who = who_for(dreaming, keys)
    put(dreaming, who, "Backup plan", "Postgres backups run nightly.")
    set_setting(dreaming, "dream.throttle", "off")
    dreaming.reload()
    worker = DreamWorker(dreaming, threads=0)
    assert worker.step() is False
    assert srv.requests == []


def test_an_edit_during_a_cycle_leaves_the_block_due(dreaming: App, srv: Any, keys: Any) -> None:
    who, ids = backup_store(dreaming, keys)
    inner = responder({})

    def edit_then_answer(body: dict[str, Any]) -> str:
        if "search phrases" in body["messages"][0]["content"]:
            put(dreaming, who, "Backup plan", "Backups moved to 04:00 on db-3.")
        return inner(body)

    srv.chat_responder = edit_then_answer
    result = run_cycle(dreaming, block_id=ids["Backup plan"])
    assert result is not None and result.outcome == "inert"
    assert state(dreaming, ids["Backup plan"])["due_in"] <= 0  # due again at once, not in 14 days
