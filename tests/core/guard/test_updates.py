"""Issue 36: the Guard records a changed fact as an update (a supersedes link newer -> older, the
older block kept as history) and a translation as a translation; both can be undone in one
action; what is ambiguous still goes to review. A real store and the real default embedder."""

from __future__ import annotations

from typing import Any

import pytest

from ctx.core import App, access
from ctx.core.blocks import StoreRequest, store_block
from ctx.core.errors import Conflict
from ctx.core.guard import (
    TRANSLATION,
    UPDATE,
    Neighbour,
    Thresholds,
    decide,
    guard_stats,
    list_flags,
    resolve_flag,
)
from ctx.core.retrieval import QueryRequest, query
from ctx.core.runtime import drain, set_setting

BACKUP = (
    "The billing database is backed up every night at 02:00 UTC with pgBackRest. Full backups "
    "are kept for 14 days in the bucket acme-pg-archive. Priya owns the restore test, which runs "
    "on the first Monday of each month."
)
BACKUP_DE = (
    "Die Abrechnungsdatenbank wird jede Nacht um 02:00 UTC mit pgBackRest gesichert. "
    "Vollsicherungen werden 14 Tage im Bucket acme-pg-archive aufbewahrt. Priya ist für den "
    "Wiederherstellungstest zuständig, der am ersten Montag jedes Monats läuft."
)
PARAPHRASE = (
    "Every night at 02:00 UTC pgBackRest takes a backup of the billing database. We keep full "
    "backups in acme-pg-archive for two weeks, and each month on its first Monday Priya tests "
    "a restore."
)


@pytest.fixture
def alpha(app: App, keys: Any) -> Any:
    with app.connection() as conn:
        return access.authenticate(conn, keys.make("alpha"))


def put(app: App, who: Any, title: str, content: str, category: str) -> str:
    req = StoreRequest(title=title, content=content, category=category)
    return str(store_block(app, who, req)["id"])


def settle(app: App) -> None:
    drain(app, "embed")
    drain(app, "guard")


def block_state(app: App, block_id: str) -> dict[str, Any]:
    with app.connection() as conn:
        row = conn.execute(
            "SELECT b.guard_status, b.is_archived, m.match_id::text AS match_id, m.decision, "
            "m.details, m.resolution FROM context_blocks b "
            "LEFT JOIN context_guard_matches m ON m.block_id = b.id WHERE b.id = %s",
            (block_id,),
        ).fetchone()
    assert row is not None
    return dict(row)


def links(app: App) -> list[dict[str, Any]]:
    with app.connection() as conn:
        rows = conn.execute(
            "SELECT source_id::text AS source, target_id::text AS target, link_type, confidence, "
            "origin, status FROM context_links ORDER BY id"
        ).fetchall()
    return [dict(r) for r in rows]


@pytest.fixture
def update(app: App, alpha: Any) -> dict[str, str]:
    """An agent saves the note again, under another title and category, with the time changed."""
    older = put(app, alpha, "Billing DB backups", BACKUP, "ops")
    settle(app)
    newer = put(app, alpha, "billing db backups", BACKUP.replace("02:00", "03:30"), "infra")
    settle(app)
    return {"older": older, "newer": newer}


def test_an_update_writes_the_link_and_keeps_the_older_block(
    app: App, update: dict[str, str]
) -> None:
    got = block_state(app, update["newer"])
    assert got["guard_status"] == UPDATE and not got["is_archived"]
    assert got["match_id"] == update["older"]
    assert got["details"]["changes"] == [{"before": "02:00", "after": "03:30"}]
    older = block_state(app, update["older"])
    assert not older["is_archived"] and older["guard_status"] == "clean"
    assert links(app) == [{"source": update["newer"], "target": update["older"],
                           "link_type": "supersedes", "confidence": 1.0, "origin": "guard",
                           "status": "active"}]  # fmt: skip


def test_the_update_is_listed_with_its_change(app: App, alpha: Any, update: dict[str, str]) -> None:
    (flag,) = list_flags(app, alpha)
    assert (flag["block_id"], flag["decision"]) == (update["newer"], UPDATE)
    assert flag["details"]["changes"] == [{"before": "02:00", "after": "03:30"}]
    assert guard_stats(app, alpha)["open"] == {UPDATE: 1}


def test_a_query_without_a_time_prefers_the_newer(
    app: App, alpha: Any, update: dict[str, str]
) -> None:
    found = query(app, alpha, QueryRequest(query="when is the billing database backed up",
                                           synthesize=False, limit=10))  # fmt: skip
    ids = [s["id"] for s in found["sources"]]
    assert update["newer"] in ids and update["older"] not in ids
    with app.connection() as conn:
        assert conn.execute(
            "SELECT is_archived FROM context_blocks WHERE id = %s", (update["older"],)
        ).fetchone() == {"is_archived": False}


def test_undo_removes_the_link_in_one_action(app: App, alpha: Any, update: dict[str, str]) -> None:
    out = resolve_flag(app, alpha, update["newer"], "unlink")
    assert out["resolution"] == "unlink" and out["unlinked"] > 0
    assert [link["status"] for link in links(app)] == ["rejected"]
    got = block_state(app, update["newer"])
    assert (got["resolution"], got["guard_status"], got["is_archived"]) == (
        "unlinked", "reviewed", False)  # fmt: skip
    found = query(app, alpha, QueryRequest(query="when is the billing database backed up",
                                           synthesize=False, limit=10))  # fmt: skip
    assert {update["older"], update["newer"]} <= {s["id"] for s in found["sources"]}
    with app.connection() as conn:
        audit = conn.execute(
            "SELECT detail FROM context_write_log WHERE action = 'guard.resolved' AND block_id = %s",
            (update["newer"],),
        ).fetchone()
    assert audit == {"detail": {"resolution": "unlinked"}}
    with pytest.raises(Conflict):
        resolve_flag(app, alpha, update["newer"], "unlink")


def test_a_follow_up_and_a_flipped_decision_are_updates(app: App, alpha: Any) -> None:
    note = ("We decided to keep RabbitMQ for the order pipeline and not to adopt Kafka this "
            "year. The main reason is the team's operational experience.")  # fmt: skip
    put(app, alpha, "Decision: message queue", note, "decisions")
    settle(app)
    flipped = put(app, alpha, "Message queue decision", note.replace(
        "keep RabbitMQ for the order pipeline and not to adopt Kafka",
        "drop RabbitMQ for the order pipeline and to adopt Kafka"), "architecture")  # fmt: skip
    follow_up = put(app, alpha, "Decision - message queue",
                    note + " Follow-up: the platform team agreed in the review.", "arch")  # fmt: skip
    settle(app)
    assert block_state(app, flipped)["guard_status"] == UPDATE
    assert block_state(app, follow_up)["guard_status"] == UPDATE


def test_a_translation_is_linked_not_flagged(app: App, alpha: Any) -> None:
    en = put(app, alpha, "Billing DB backups", BACKUP, "ops")
    settle(app)
    de = put(app, alpha, "Backups der Abrechnungsdatenbank", BACKUP_DE, "betrieb")
    settle(app)
    got = block_state(app, de)
    assert (got["guard_status"], got["is_archived"], got["match_id"]) == (TRANSLATION, False, en)
    assert got["details"] == {"languages": ["de", "en"]}
    assert [(x["source"], x["target"], x["link_type"], x["origin"]) for x in links(app)] == [
        (de, en, "translation", "guard")
    ]
    assert list_flags(app, alpha) == []
    assert [f["block_id"] for f in list_flags(app, alpha, decision=TRANSLATION)] == [de]


def test_an_ambiguous_pair_still_goes_to_review(app: App, alpha: Any) -> None:
    put(app, alpha, "Billing DB backups", BACKUP, "ops")
    settle(app)
    para = put(app, alpha, "How billing backups work", PARAPHRASE, "ops")
    settle(app)
    got = block_state(app, para)
    assert got["guard_status"] == "needs_review" and not got["is_archived"]
    assert links(app) == []
    with pytest.raises(Conflict):
        resolve_flag(app, alpha, para, "unlink")


def test_with_the_settings_off_both_are_flagged(app: App, alpha: Any) -> None:
    set_setting(app, "guard.updates", False)
    set_setting(app, "guard.translations", False)
    put(app, alpha, "Billing DB backups", BACKUP, "ops")
    settle(app)
    newer = put(app, alpha, "billing db backups", BACKUP.replace("Priya", "Tomasz"), "infra")
    de = put(app, alpha, "Backups der Abrechnungsdatenbank", BACKUP_DE, "betrieb")
    settle(app)
    assert block_state(app, newer)["guard_status"] == "needs_review"
    assert block_state(app, de)["guard_status"] == "needs_review"
    assert links(app) == []


def test_the_decision_names_the_change_and_a_moved_sentence_is_no_update() -> None:
    limits = Thresholds(0.99, 0.9, "test")
    block = {"title": "Backups", "content": BACKUP.replace("14 days", "7 days")}
    match = Neighbour("m", "alpha", 0.995, "Backups", BACKUP)
    decision, _, details = decide(block, match, limits)
    assert decision == UPDATE and details["changes"] == [{"before": "14", "after": "7"}]
    moved = {"title": "Backups", "content": " ".join(reversed(BACKUP.split(". ")))}
    assert decide(moved, match, limits)[0] == "needs_review"  # a moved sentence is no update
