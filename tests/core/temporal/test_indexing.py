"""Temporal extraction into the dimension table and temporal re-ranking of queries."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from ctx.core import App, QueryRequest, StoreRequest, access, blocks, retrieval
from ctx.core.runtime import drain, set_setting
from ctx.core.temporal import content_times, date_query, date_token

NOW = date(2026, 11, 30)  # a Monday


def principal(app: App) -> access.Principal:
    with app.connection() as conn:
        _, token = access.create_key(conn, name="t", home_scope="team")
        return access.authenticate(conn, token)


def store(app: App, who: access.Principal, title: str, content: str, when: datetime | None) -> str:
    req = StoreRequest(title=title, content=content, occurred_at=when)
    return str(blocks.store_block(app, who, req)["id"])


def test_date_tokens_are_single_tokens_and_reject_anything_else() -> None:
    assert date_token("2026-03-23") == "d20260323"
    assert date_token("2026-03") == "m202603"
    with pytest.raises(ValueError):
        date_token("March")


def test_content_times_put_the_own_date_first_and_read_dates_from_content() -> None:
    times = content_times(date(2023, 5, 8), "We met on 7 May and again on 2023-05-20.")
    assert times == [
        (date(2023, 5, 8), "own"),
        (date(2023, 5, 7), "content"),
        (date(2023, 5, 20), "content"),
    ]
    assert content_times(None, "no dates here") == []


def test_extraction_writes_dimensions_date_tokens_and_mass(app: App) -> None:
    who = principal(app)
    one = store(app, who, "Standup", "Release plan reviewed.", datetime(2026, 11, 24, 9))
    many = store(app, who, "Timeline", "Milestones 2026-01-05, 2026-02-02 and 2026-03-02.", None)
    assert drain(app, "temporal") >= 2
    with app.connection() as conn:
        dims = conn.execute(
            "SELECT dimension, value FROM context_temporal WHERE block_id = %s", (one,)
        ).fetchall()
        rows = {
            r["id"]: r
            for r in conn.execute(
                "SELECT id::text, ts_dates::text AS tokens, time_mass FROM context_blocks"
            ).fetchall()
        }
        pending = conn.execute("SELECT count(*) AS n FROM context_jobs WHERE kind = 'temporal'")
        assert pending.fetchone()["n"] == 0  # type: ignore[index]
    by_dim = {d["dimension"]: d["value"] for d in dims}
    assert by_dim["weekday"] == pytest.approx(1 / 7)  # a Tuesday: phase 1/7
    assert {"month", "quarter", "week", "monthday", "seasonal"} <= set(by_dim)
    assert "d20261124" in rows[one]["tokens"] and "m202611" in rows[one]["tokens"]
    assert rows[one]["time_mass"] == pytest.approx(1.0)
    assert rows[many]["time_mass"] == pytest.approx(1 / 3**0.5, rel=1e-4)


def test_type_without_extraction_gets_no_rows(app: App) -> None:
    who = principal(app)
    req = StoreRequest(title="Spec", content="Valid from 2026-01-01.", block_type="reference")
    block_id = str(blocks.store_block(app, who, req)["id"])
    drain(app, "temporal")
    with app.connection() as conn:
        n = conn.execute(
            "SELECT count(*) AS n FROM context_temporal WHERE block_id = %s", (block_id,)
        ).fetchone()
    assert n is not None and n["n"] == 0


def test_query_with_a_time_prefers_blocks_near_it(app: App) -> None:
    who = principal(app)
    tuesday = store(
        app, who, "Standup notes A", "We discussed the release plan.", datetime(2026, 11, 24, 9)
    )
    older = store(
        app, who, "Standup notes B", "We discussed the release plan.", datetime(2026, 10, 6, 9)
    )
    # Extraction runs inline for the caller when the query names a time.
    result = retrieval.query(
        app, who, QueryRequest(query="release plan last Tuesday", now=NOW, explain=True)
    )
    assert result["temporal"]["matched"] and result["temporal"]["start"] == "2026-11-24"
    ids = [s["id"] for s in result["sources"]]
    assert ids.index(tuesday) < ids.index(older)
    first = result["sources"][0]
    assert first["channels"]["gravity"] > 1.0 and first["channels"]["dates"]["rank"] == 1

    plain = retrieval.query(app, who, QueryRequest(query="release plan", now=NOW, explain=True))
    assert not plain["temporal"]["matched"]
    assert all(s["channels"]["gravity"] == 1.0 for s in plain["sources"])


def test_gravity_can_be_switched_off(app: App) -> None:
    who = principal(app)
    store(app, who, "Standup notes", "We discussed the release plan.", datetime(2026, 11, 24))
    set_setting(app, "query.temporal_gravity", False)
    result = retrieval.query(
        app, who, QueryRequest(query="release plan last Tuesday", now=NOW, explain=True)
    )
    assert all(s["channels"]["gravity"] == 1.0 for s in result["sources"])


def test_date_query_only_holds_iso_days_and_months(app: App) -> None:
    parsed = app.temporal_parser.parse("was war letzte Woche", now=NOW)
    query = date_query(parsed)
    assert query is not None
    terms = query.split(" | ")
    assert all(t[0] in "dm" and t[1:].isdigit() for t in terms)
    assert "d20261123" not in terms or len(terms) <= 20
    assert date_query(app.temporal_parser.parse("the March of Dimes", now=NOW)) is None


def test_a_new_date_alone_requeues_extraction_but_not_embedding(app: App) -> None:
    who = principal(app)
    store(app, who, "Standup", "Release plan reviewed.", datetime(2026, 11, 24, 9))
    with app.connection() as conn:
        conn.execute("DELETE FROM context_jobs")
    store(app, who, "Standup", "Release plan reviewed.", datetime(2026, 11, 25, 9))
    with app.connection() as conn:
        kinds = [r["kind"] for r in conn.execute("SELECT kind FROM context_jobs").fetchall()]
    assert kinds == ["temporal"]


def _times(app: App, block_id: str) -> dict[date, str]:
    with app.connection() as conn:
        rows = conn.execute(
            "SELECT DISTINCT source_date, source FROM context_temporal WHERE block_id = %s",
            (block_id,),
        ).fetchall()
    return {r["source_date"]: r["source"] for r in rows}


def test_relative_expressions_date_a_block_as_of_its_own_date(app: App) -> None:
    who = principal(app)
    turn = store(
        app, who, "Caroline, 8 May 2023",
        "Caroline: I went to a support group yesterday. We meet again next Friday! "
        "I have been painting for years, every Monday.",
        datetime(2023, 5, 8, 13),
    )  # fmt: skip
    drain(app, "temporal")
    assert _times(app, turn) == {
        date(2023, 5, 8): "own",
        date(2023, 5, 7): "relative",  # yesterday
        date(2023, 5, 12): "relative",  # next Friday after Monday May 8
    }  # "every Monday" recurs and "for years" names no span: neither dates the block
    with app.connection() as conn:
        row = conn.execute(
            "SELECT ts_dates::text AS tokens, time_mass FROM context_blocks WHERE id = %s", (turn,)
        ).fetchone()
    assert row is not None and "d20230507" in row["tokens"] and "d20230512" in row["tokens"]
    assert row["time_mass"] == 1.0  # the stated date only: relative days leave the mass alone


def test_relative_dates_switch_off_and_need_an_own_date(app: App) -> None:
    who = principal(app)
    undated = store(app, who, "Note", "We shipped it yesterday.", None)
    set_setting(app, "temporal.relative_dates", False)
    off = store(app, who, "Standup", "We shipped it yesterday.", datetime(2026, 11, 24, 9))
    drain(app, "temporal")
    assert _times(app, undated) == {}
    assert _times(app, off) == {date(2026, 11, 24): "own"}


def test_a_question_finds_the_turn_that_reports_the_event(app: App) -> None:
    # the event (May 6) is told in a later session (May 8), next to a turn of the same session
    # about the same lake: the date the question names picks the one that reports it
    who = principal(app)
    told = store(
        app, who, "Melanie, 8 May 2023 (D2:1)",
        "Melanie: Two days ago we went camping at the lake with the kids.",
        datetime(2023, 5, 8, 10),
    )  # fmt: skip
    store(
        app, who, "Melanie, 8 May 2023 (D2:2)",
        "Melanie: The lake looked lovely in the photos you sent, with the kids and the dog.",
        datetime(2023, 5, 8, 10, 1),
    )  # fmt: skip
    drain(app, "temporal")
    assert _times(app, told)[date(2023, 5, 6)] == "relative"
    result = retrieval.query(
        app,
        who,
        QueryRequest(query="What did Melanie do at the lake on 6 May 2023?", now=date(2023, 6, 1)),
    )
    assert result["sources"][0]["id"] == told


def test_relative_dates_leave_written_dates_and_counts_to_others(app: App) -> None:
    who = principal(app)
    german = store(
        app, who, "Tagebuch",
        "Am 20. Dezember war ich bei Oma. Gestern haben wir telefoniert. Week 5 was the hardest.",
        datetime(2023, 1, 10, 20),
    )  # fmt: skip
    english = store(app, who, "Diary", "I visited my aunt on Dec. 20 and ran 3rd.",
                    datetime(2023, 1, 10, 20))  # fmt: skip
    drain(app, "temporal")
    # "Am 20." is no sentence of its own (no January 20), the written date is read once, with
    # the block's year as before; "Week 5" counts weeks and "3rd" a place, so neither dates it
    assert _times(app, german) == {
        date(2023, 1, 10): "own",
        date(2023, 12, 20): "content",
        date(2023, 1, 9): "relative",
    }
    assert _times(app, english) == {date(2023, 1, 10): "own", date(2023, 12, 20): "content"}


def test_the_date_channel_asks_a_wide_span_by_its_months_and_a_cycle_not_at_all(app: App) -> None:
    parse = app.temporal_parser.parse
    # a month: its month token alone, so the blocks of its first and last day are not favoured
    assert date_query(parse("what happened in August 2023", now=NOW)) == "m202308"
    assert date_query(parse("the last 10 days", now=NOW)) == "m202611"
    # a week or less: its days and months
    assert date_query(parse("yesterday", now=NOW)) == "d20261129 | m202611"
    # every Thanksgiving, every Monday: cycles, no day on the time line
    assert date_query(parse("what do we watch during Thanksgiving", now=NOW)) is None
    assert date_query(parse("every Monday", now=NOW)) is None
