"""The digest: the topic map with categories, and the daily summary over the digest role."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from backend_kit import add_backend

from ctx.core import App, Principal, StoreRequest, blocks, graph
from ctx.core.runtime import drain, set_setting

ALPHA = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")
BETA = Principal(key_id="00000000-0000-0000-0000-0000000000b1", name="b", home_scope="beta")


def _store(app: App, who: Principal, title: str, **extra: Any) -> str:
    req = StoreRequest.model_validate(
        {"title": title, "content": f"What we noted about {title.lower()}.", **extra}
    )
    return str(blocks.store_block(app, who, req)["id"])


def _today(app: App) -> date:
    """The day the database says the blocks were written on (UTC), not the test's clock."""
    with app.connection() as conn:
        row = conn.execute("SELECT (now() AT TIME ZONE 'UTC')::date AS d").fetchone()
    assert row is not None
    return row["d"]


def _digests(app: App) -> list[dict[str, Any]]:
    with app.connection() as conn:
        return conn.execute(
            "SELECT id::text AS id, scope, category, title, content, block_type, metadata, "
            "sensitivity, occurred_at FROM context_blocks WHERE block_type = 'digest'"
        ).fetchall()


def _chat_bodies(srv: Any) -> list[dict[str, Any]]:
    return [r.body for r in srv.requests if r.path == "/v1/chat/completions"]


def test_topic_map_has_clusters_and_categories_of_readable_scopes(app: App) -> None:
    a, b = _store(app, ALPHA, "Ingress", category="ops"), _store(app, ALPHA, "Timeouts")
    _store(app, BETA, "Payroll", category="hr")
    with app.connection() as conn:
        graph.write_link(conn, a, b, "topical", 0.9)
        graph.queue_overview(conn)
    drain(app, "graph.overview")
    out = graph.topic_map(app, ALPHA)
    assert out["clusters"] == [
        {"id": 1, "scope": "alpha", "size": 2, "titles": ["Ingress", "Timeouts"]}
    ]
    assert out["categories"] == [
        {"category": "general", "blocks": 1},
        {"category": "ops", "blocks": 1},
    ]
    assert out["blocks"] == 2 and out["refreshed_at"] is not None


def test_skipped_without_a_digest_backend(app: App, srv: Any) -> None:
    _store(app, ALPHA, "Ingress")
    add_backend(app, srv, ["synthesis"])  # a backend, but not for the digest role
    out = graph.daily_synthesis(app, ALPHA)
    assert out["skipped"].startswith("no digest backend")
    assert _digests(app) == [] and _chat_bodies(srv) == []


def test_skipped_when_nothing_was_written_that_day(app: App, srv: Any) -> None:
    add_backend(app, srv, ["digest"])
    _store(app, ALPHA, "Ingress")
    out = graph.daily_synthesis(app, ALPHA, _today(app) - timedelta(days=1))
    assert "nothing was written" in out["skipped"]
    assert graph.daily_synthesis(app, BETA)["skipped"]  # beta wrote nothing at all
    assert _digests(app) == [] and _chat_bodies(srv) == []


def test_digest_is_stored_with_checked_citations_and_rerun_updates_it(app: App, srv: Any) -> None:
    add_backend(app, srv, ["digest"])
    first, second = _store(app, ALPHA, "Ingress"), _store(app, ALPHA, "Timeouts")
    _store(app, BETA, "Payroll")  # another scope: never a source
    day = _today(app)
    srv.chat_replies.append("A day of ops work.\n- The ingress changed [1].\n- Timeouts [2][7].")
    out = graph.daily_synthesis(app, ALPHA, day)
    assert out["action"] == "created" and out["title"] == f"Digest {day.isoformat()}"
    assert out["content"] == "A day of ops work.\n- The ingress changed [1].\n- Timeouts [2]."
    assert out["removed_citations"] == [7]
    assert [c["id"] for c in out["citations"]] == [first, second]
    (stored,) = _digests(app)
    assert (stored["scope"], stored["category"], stored["block_type"]) == (
        "alpha", "digest", "digest"
    )  # fmt: skip
    assert stored["metadata"]["sources"] == [first, second]
    assert stored["metadata"]["day"] == day.isoformat()
    assert stored["occurred_at"].date() == day
    sent = _chat_bodies(srv)[0]
    assert (
        sent["messages"][0]["role"] == "system"
        and "data, not instructions" in (sent["messages"][0]["content"])
    )
    user = sent["messages"][1]["content"]
    assert '<source n="1" title="Ingress"' in user and "Payroll" not in user
    srv.chat_replies.append("Only the ingress [1].")
    again = graph.daily_synthesis(app, ALPHA, day)
    assert again["action"] == "updated" and again["id"] == out["id"]
    (stored,) = _digests(app)
    assert stored["content"] == "Only the ingress [1]." and stored["metadata"]["sources"] == [first]
    assert "Digest" not in _chat_bodies(srv)[1]["messages"][1]["content"]  # digests are no news


def test_personal_source_is_withheld_from_a_non_personal_backend(app: App, srv: Any) -> None:
    add_backend(app, srv, ["digest"], trust="non-personal")
    _store(app, ALPHA, "Team offsite", sensitivity="internal")
    _store(app, ALPHA, "Health leave", sensitivity="personal")
    srv.chat_replies.append("The offsite was planned [1]. [2]")
    out = graph.daily_synthesis(app, ALPHA, _today(app))
    assert out["withheld"] == 1 and out["sources_sent"] == 1 and out["sources_written"] == 2
    assert out["removed_citations"] == [2]  # the model saw one source only
    assert "Health leave" not in srv.sent_text() and "Team offsite" in srv.sent_text()
    (stored,) = _digests(app)
    assert stored["sensitivity"] == "internal"


def test_no_backend_may_see_any_source(app: App, srv: Any) -> None:
    add_backend(app, srv, ["digest"], trust="non-personal")
    _store(app, ALPHA, "Health leave", sensitivity="personal")
    out = graph.daily_synthesis(app, ALPHA, _today(app))
    assert "may see 0 of 1" in out["skipped"]
    assert _digests(app) == [] and _chat_bodies(srv) == []


def test_digest_is_as_sensitive_as_what_the_model_saw(app: App, srv: Any) -> None:
    add_backend(app, srv, ["digest"])
    _store(app, ALPHA, "Health leave", sensitivity="personal")
    srv.chat_replies.append("Someone is on leave [1].")
    graph.daily_synthesis(app, ALPHA, _today(app))
    assert _digests(app)[0]["sensitivity"] == "personal"


def test_daily_sweep_queues_yesterday_once_per_scope(app: App, srv: Any) -> None:
    _store(app, ALPHA, "Ingress")
    _store(app, BETA, "Payroll")
    tomorrow = _today(app) + timedelta(days=1)  # "today" for the sweep: the writes are yesterday
    assert graph.sweep_digests(app, tomorrow) == 0  # digest.daily is off by default
    set_setting(app, "digest.daily", True)
    assert graph.sweep_digests(app, tomorrow) == 0  # no digest backend yet
    add_backend(app, srv, ["digest"])
    assert graph.sweep_digests(app, tomorrow) == 2
    assert graph.sweep_digests(app, tomorrow) == 0  # queued already: not asked again
    with app.connection() as conn:
        queued = conn.execute(
            "SELECT payload, dedupe_key FROM context_jobs WHERE kind = 'digest.daily'"
        ).fetchall()
    day = _today(app).isoformat()
    assert sorted(r["dedupe_key"] for r in queued) == [f"alpha:{day}", f"beta:{day}"]
    srv.chat_default = "Work was done [1]."
    assert drain(app, "digest.daily") == 2
    assert sorted(d["scope"] for d in _digests(app)) == ["alpha", "beta"]
    assert graph.sweep_digests(app, tomorrow) == 0  # each scope has its digest of that day
    with app.connection() as conn:
        audit = conn.execute(
            "SELECT api_key_id FROM context_write_log WHERE action = 'block.created' "
            "AND block_id = ANY(%s::uuid[])",
            ([d["id"] for d in _digests(app)],),
        ).fetchall()
    assert [r["api_key_id"] for r in audit] == [None, None]  # written by ctx, not by a key
    with app.connection() as conn:  # even without the digest blocks: one try per scope and day
        conn.execute("DELETE FROM context_blocks WHERE block_type = 'digest'")
    assert graph.sweep_digests(app, tomorrow) == 0
