"""The temporal LLM fallback: a query about time the rules cannot place is resolved by the
translate chain of a real OpenAI-compatible peer; its answer is checked, cached and fail-open."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest
from backend_kit import add_backend

from ctx.core import App, Principal, QueryRequest, StoreRequest, blocks, query
from ctx.core.retrieval import calendar_table, resolve_with_llm
from ctx.core.retrieval.temporal_llm import Lookup, _Cache
from ctx.core.runtime import set_setting

WHO = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")
TODAY = date(2026, 3, 18)  # a Wednesday
# "ago" is intent; no rule places "a while" (the rules read "a fortnight ago" since issue 12)
WHILE_AGO = "release notes from a while ago"
SPAN = {"start": "2026-03-02", "end": "2026-03-08"}


def _backend(app: App, srv: Any) -> None:
    add_backend(app, srv, ["translate"])


def _store(app: App, title: str, content: str) -> str:
    req = StoreRequest.model_validate({"title": title, "content": content})
    return str(blocks.store_block(app, WHO, req)["id"])


def _ask(app: App, text: str = WHILE_AGO, now: date = TODAY) -> dict[str, Any]:
    return query(app, WHO, QueryRequest(query=text, now=now, explain=True))


def _chats(srv: Any) -> list[dict[str, Any]]:
    return [r.body for r in srv.requests if r.path == "/v1/chat/completions"]


def _stage(out: dict[str, Any], name: str) -> dict[str, Any]:
    return next(s for s in out["stages"] if s["name"] == name).get("notes") or {}


def test_the_rules_leave_the_test_query_to_a_fallback(app: App) -> None:
    result = app.temporal_parser.parse(WHILE_AGO, now=TODAY)
    assert not result.matched and result.intent
    assert result.fallback == "skipped: no translate backend"


def test_the_model_span_is_used_and_gravity_pulls_blocks_dated_in_it(app: App, srv: Any) -> None:
    inside = _store(app, "Release notes importer", "We shipped the importer on 2026-03-04.")
    outside = _store(app, "Release notes exporter", "We shipped the exporter on 2025-06-10.")
    _backend(app, srv)
    srv.chat_replies.append(json.dumps(SPAN))
    out = _ask(app)
    t = out["temporal"]
    assert t["matched"] and t["matcher"] == "llm" and t["fallback"] == "llm: resolved"
    assert (t["start"], t["end"], t["direction"]) == ("2026-03-02", "2026-03-08", "past")
    assert t["weights"] == {"linear": 1.0}
    ids = [s["id"] for s in out["sources"]]
    assert ids.index(inside) < ids.index(outside)
    by_id = {s["id"]: s for s in out["sources"]}
    assert by_id[inside]["channels"]["gravity"] > by_id[outside]["channels"]["gravity"]
    assert _stage(out, "gravity")["pulled"] >= 1
    assert _stage(out, "temporal")["temporal_llm"] == "resolved"
    (body,) = _chats(srv)
    system, user = body["messages"]
    assert user == {"role": "user", "content": WHILE_AGO}
    assert "Today is 2026-03-18 (Wednesday)" in system["content"]
    assert calendar_table(TODAY) in system["content"]
    assert "| Monday | 2026-03-09 | 2026-03-16 | 2026-03-23 |" in system["content"]
    assert "| last month | 2026-02-01 | 2026-02-28 |" in system["content"]
    assert "| last year | 2025-01-01 | 2025-12-31 |" in system["content"]
    assert all("temporal" not in w for w in out["warnings"])


def test_the_first_json_object_counts_and_reasoning_is_ignored(app: App, srv: Any) -> None:
    _backend(app, srv)
    srv.chat_replies.append(
        '<think>maybe {"start": "1990-01-01", "end": "1990-01-02"}</think>\n'
        'Sure: ```json\n{"start": "2026-03-04", "end": "2026-03-04"}\n``` and {"none": true}'
    )
    found = resolve_with_llm(app, WHILE_AGO, TODAY)
    assert found is not None and found.matched and found.matcher == "llm"
    assert found.start == found.end == date(2026, 3, 4) and found.dates == [date(2026, 3, 4)]


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("It was about two weeks ago.", "no JSON object"),
        ('{"start": "2026-03-02"}', "must be YYYY-MM-DD"),
        ('{"start": "2026-3-2", "end": "2026-03-08"}', "must be YYYY-MM-DD"),
        ('{"start": "2026-02-30", "end": "2026-03-08"}', "must be YYYY-MM-DD"),
        ('{"start": 20260302, "end": "2026-03-08"}', "must be YYYY-MM-DD"),
        ('{"start": "2026-03-08", "end": "2026-03-02"}', "is after end"),
        ('{"start": "2040-01-01", "end": "2040-01-02"}', "more than 10 years"),
        ('{"start": "2010-01-01", "end": "2010-01-31"}', "more than 10 years"),
        ('{"start": "2025-01-01", "end": "2026-03-01"}', "more than 366 days"),
    ],
)
def test_a_bad_answer_is_refused(app: App, srv: Any, answer: str, reason: str) -> None:
    _backend(app, srv)
    srv.chat_replies.append(answer)
    out = _ask(app)
    t = out["temporal"]
    assert not t["matched"] and t["matcher"] is None and t["start"] is None
    assert t["fallback"].startswith("llm: rejected: ") and reason in t["fallback"]
    assert _stage(out, "gravity") == {}


def test_no_dates_is_an_answer_too_and_is_cached(app: App, srv: Any) -> None:
    _backend(app, srv)
    srv.chat_replies.append('{"none": true}')
    first = _ask(app)
    assert first["temporal"]["fallback"] == "llm: no dates" and not first["temporal"]["matched"]
    second = _ask(app, "  Release NOTES from a   while ago ")  # the same query, normalised
    assert second["temporal"]["fallback"] == "llm: no dates"
    assert _stage(second, "temporal")["cached"] is True
    assert len(_chats(srv)) == 1


def test_a_resolved_span_is_cached_per_query_and_day(app: App, srv: Any) -> None:
    _backend(app, srv)
    srv.chat_replies.extend(
        [json.dumps(SPAN), json.dumps({"start": "2026-03-09", "end": "2026-03-15"})]
    )
    first = _ask(app)
    again = _ask(app)
    assert again["temporal"] == first["temporal"] and again["temporal"]["matcher"] == "llm"
    assert len(_chats(srv)) == 1
    later = _ask(app, now=date(2026, 3, 25))  # another day: asked again
    assert later["temporal"]["start"] == "2026-03-09"
    assert len(_chats(srv)) == 2
    assert "Today is 2026-03-25 (Wednesday)" in _chats(srv)[1]["messages"][0]["content"]


@pytest.mark.parametrize("behaviour", ["error500", "hang", "malformed"])
def test_a_failing_model_leaves_the_rules_result(app: App, srv: Any, behaviour: str) -> None:
    _backend(app, srv)
    set_setting(app, "llm.read_timeout", 0.5)
    srv.reset(chat=behaviour)
    out = _ask(app)
    t = out["temporal"]
    assert not t["matched"] and t["fallback"].startswith("llm failed: ")
    (warning,) = [w for w in out["warnings"] if "temporal" in w]
    assert warning.startswith("temporal fallback failed (")


def test_without_a_backend_or_with_the_setting_off_nothing_is_asked(app: App, srv: Any) -> None:
    out = _ask(app)
    assert out["temporal"]["fallback"] == "skipped: no translate backend"
    assert all("temporal" not in w for w in out["warnings"])
    _backend(app, srv)
    set_setting(app, "query.temporal_llm", False)
    off = _ask(app)
    assert off["temporal"]["fallback"] == "skipped: query.temporal_llm is off"
    assert _chats(srv) == []


def test_rules_that_match_or_queries_without_intent_never_ask(app: App, srv: Any) -> None:
    _backend(app, srv)
    matched = _ask(app, "release notes from yesterday")
    assert matched["temporal"]["matcher"] != "llm" and matched["temporal"]["matched"]
    plain = _ask(app, "release notes of the importer")
    assert plain["temporal"]["fallback"] is None
    assert _chats(srv) == []


def test_the_cache_keeps_the_most_recently_used() -> None:
    cache = _Cache(2)
    a, b, c = (("a", "d"), ("b", "d"), ("c", "d"))
    cache.put(a, Lookup(None, "no dates"))
    cache.put(b, Lookup(None, "no dates"))
    assert cache.get(a) is not None  # a is now the most recent
    cache.put(c, Lookup(None, "no dates"))
    assert cache.get(b) is None and cache.get(a) is not None and cache.get(c) is not None
    assert len(cache) == 2
