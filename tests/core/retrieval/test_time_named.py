"""A question that names a time is answered by that time's blocks (issue: retrieval quality)."""

from __future__ import annotations

from datetime import date
from typing import Any

from ctx.core import App, Principal, QueryRequest, StoreRequest, blocks, query
from ctx.core.runtime import drain, set_setting

WHO = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")
TODAY = date(2026, 3, 18)


def _store(
    app: App, title: str, content: str, day: str | None = None, category: str = "notes"
) -> str:
    extra = {"occurred_at": day} if day else {}
    req = StoreRequest.model_validate(
        {"title": title, "content": content, "category": category, **extra}
    )
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


def test_the_question_without_its_time_keeps_its_words_as_written(app: App) -> None:
    without = app.temporal_parser.without_time
    assert without("What did we decide last Tuesday?") == "What did we decide?"
    assert without("what did we plan two weeks ago?") == "what did we plan?"
    assert without("How was the Christmas party last year?") == "How was the Christmas party?"
    assert without("Was haben wir letzte Woche deployed?") == "Was haben wir deployed?"


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


# Issue 36: a time question answers with its topic's blocks. "Now" is Friday 2026-12-04: "last
# Tuesday" is 2026-12-01, "two weeks ago" 2026-11-20.
DECEMBER = date(2026, 12, 4)


def _ask(app: App, text: str) -> dict[str, Any]:
    return query(app, WHO, QueryRequest(query=text, now=DECEMBER))


def test_a_block_whose_only_match_is_the_date_stays_below_the_topics_block(app: App) -> None:
    _store(app, "Coffee machine repaired",
           "The technician replaced the pump of the coffee machine on the third floor.",
           "2026-11-20")  # fmt: skip
    _store(app, "Sprint 46 planning",
           "We planned sprint 46: the export API, the retry queue and the login page fixes.",
           "2026-11-17")  # fmt: skip
    _store(
        app,
        "Sprint 45 planning",
        "We planned sprint 45: the billing report and the search filters.",
        "2026-11-03",
    )
    _store(app, "Office move", "Boxes for the office move arrive on Monday.", "2026-11-27")
    drain(app, "temporal")
    titles = [s["title"] for s in _ask(app, "what did we plan two weeks ago?")["sources"]]
    # Gravity pulled both (the coffee machine, dated that very day, six-fold), but the planning
    # of the same period holds the question's word.
    assert titles[:2] == ["Sprint 46 planning", "Coffee machine repaired"]


def test_a_time_with_nothing_dated_answers_with_the_topics_blocks_nearest_first(
    app: App,
) -> None:
    _store(app, "Queue choice", "We decided on RabbitMQ for the job queue.", "2026-11-10",
           "decisions")  # fmt: skip
    _store(app, "Database choice", "We decided to keep everything in PostgreSQL.", "2026-12-03",
           "decisions")  # fmt: skip
    _store(app, "Coffee machine repaired", "The technician replaced the pump.", "2026-10-01")
    drain(app, "temporal")
    res = _ask(app, "what did we decide last Tuesday?")
    assert res["temporal"]["dates"] == ["2026-12-01"]
    # Nearest to that Tuesday first: two days after it, three weeks before, two months before.
    assert [s["title"] for s in res["sources"]] == [
        "Database choice",
        "Queue choice",
        "Coffee machine repaired",
    ]
    assert res["confidence"] == "low_confidence"  # the decisions are there; that day is not
    assert "nothing dated Tue 1 Dec; nearest: Database choice (Thu 3 Dec)" in res["warnings"]


def test_the_readme_tours_time_question_on_a_fresh_store(app: App) -> None:
    # The tour's two blocks, undated: a block's day is then the day it was written.
    _store(app, "Database choice",
           "We keep everything in PostgreSQL: ACID, joins and vectors in one place.",
           category="decisions")  # fmt: skip
    _store(app, "Suche", "Die Suche findet auch deutsche Texte über Datenbanken.")
    res = _ask(app, "what did we decide last Tuesday?")
    assert res["confidence"] == "low_confidence"
    assert res["sources"][0]["title"] == "Database choice"
    assert res["warnings"][0].startswith("nothing dated Tue 1 Dec; nearest: Database choice (")
    # A topic the store knows nothing about stays unanswered, named time or not.
    res = _ask(app, "what did the marketing team publish last Tuesday?")
    assert res["confidence"] == "no_relevant_blocks_found"
    assert res["warnings"] == ["nothing clearly answers this; the sources are the nearest blocks"]
