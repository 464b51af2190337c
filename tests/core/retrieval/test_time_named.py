"""A question that names a time is answered by that time's blocks (issue: retrieval quality)."""

from __future__ import annotations

from datetime import date

from ctx.core import App, Principal, QueryRequest, StoreRequest, blocks, query
from ctx.core.runtime import drain, set_setting

WHO = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")
TODAY = date(2026, 3, 18)


def _store(app: App, title: str, content: str, day: str | None = None) -> str:
    extra = {"occurred_at": day} if day else {}
    req = StoreRequest.model_validate({"title": title, "content": content, **extra})
    return str(blocks.store_block(app, WHO, req)["id"])


def _corpus(app: App) -> str:
    target = _store(app, "Vendor call", "Call with the storage vendor about the quote.",
                    "2026-03-10")  # fmt: skip
    for i, day in enumerate(("2026-02-02", "2026-01-20", "2025-11-04")):
        _store(app, f"What happened in incident {i}",
               f"What happened: the queue stalled and what happened next was a restart {i}.",
               day)  # fmt: skip
    drain(app, "temporal")
    return target


def _first(app: App, text: str) -> str:
    return str(query(app, WHO, QueryRequest(query=text, now=TODAY))["sources"][0]["id"])


def test_the_block_of_the_named_day_leads(app: App) -> None:
    set_setting(app, "query.weight_dense", 0.0)  # text channels only: fast and deterministic
    target = _corpus(app)
    assert _first(app, "what happened on 2026-03-10?") == target


def test_the_seed_values_stay_available_and_lose_here(app: App) -> None:
    set_setting(app, "query.weight_dense", 0.0)
    target = _corpus(app)
    set_setting(app, "query.weight_dates", 0.10)
    set_setting(app, "query.gravity_boost", 0.30)
    set_setting(app, "query.gravity_narrow", False)
    assert _first(app, "what happened on 2026-03-10?") != target  # loose text matches win


def test_the_time_words_are_not_the_topic(app: App) -> None:
    residual = app.temporal_parser.residual
    assert "caroline" in residual("What did Caroline do last Tuesday?").split()
    assert "tuesday" not in residual("What did Caroline do last Tuesday?").split()
    assert residual("Was war gestern?") == ""
    # A holiday is a topic too; a German function word is an English word.
    assert residual("How was the Christmas party last year?").split() == ["christmas", "party"]
    assert "war" in residual("What did they decide about the war last week?").split()
    assert residual("what happened on 2026-03-10?").split() == ["happened"]


def test_a_question_that_is_mostly_its_time_is_confident_when_that_time_has_blocks(
    app: App,
) -> None:
    target = _store(app, "Standup", "Deployed the billing fix and reviewed the roadmap.",
                    "2026-03-17")  # fmt: skip
    _store(app, "Offsite", "Planned the offsite agenda.", "2026-02-02")
    drain(app, "temporal")
    drain(app, "embed")
    for text in ("Was war gestern?", "what did we do yesterday?"):
        res = query(app, WHO, QueryRequest(query=text, now=TODAY, explain=True))
        assert res["sources"][0]["id"] == target, text
        assert res["confidence"] == "confident", text
        notes = next(s["notes"] for s in res["stages"] if s["name"] == "thresholds")
        assert notes["time_hit"] is True
    # A day without blocks: the time is not answered, and the class says so.
    res = query(app, WHO, QueryRequest(query="what happened on 2025-07-04?", now=TODAY))
    assert res["confidence"] != "confident"
