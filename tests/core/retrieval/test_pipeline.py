"""The query path as stages: order, plugin stages by name, timing in explain, fail-open."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from plugin_kit import host_with, registers

from ctx.core import (
    App,
    Candidate,
    EmbeddingError,
    PluginError,
    Principal,
    QueryRequest,
    QueryRun,
    QueryStage,
    StoreRequest,
    query,
)
from ctx.core.retrieval import BUILTIN_STAGES, build_pipeline, run_pipeline
from ctx.core.runtime import set_setting

FULL = [
    "scopes",
    "language",
    "translate",
    "temporal",
    "embed",
    "candidates",
    "neighbours",
    "rescore",
    "gravity",
    "graph",
    "rerank",
    "supersedes",
    "thresholds",
    "trim",
    "versions",
    "sources",
    "synthesis",
]
BUILTIN = FULL
ALPHA = Principal(key_id="00000000-0000-4000-8000-00000000a1fa", name="alpha", home_scope="alpha")


def passthrough(q: QueryRun, candidates: list[Candidate]) -> list[Candidate]:
    return candidates


def Stages(*stages: QueryStage) -> object:
    return registers("register_query_stages", *stages)


def _order(*plugins: tuple[str, object]) -> list[str]:
    return [s.name for s in build_pipeline(host_with(*plugins))]


def test_the_builtin_stages_in_order() -> None:
    assert _order() == FULL
    # Only the stages that call a model are fail-open.
    stages = build_pipeline(host_with())
    assert [s.name for s in stages if s.fail_open] == ["translate", "embed", "rerank", "synthesis"]
    assert [s.name for s in BUILTIN_STAGES] == [
        "scopes", "language", "temporal", "embed", "candidates", "neighbours", "rescore",
        "gravity",
        "thresholds", "trim", "sources",
    ]  # fmt: skip
    # A stage's function has the stage's name: what explain shows is what a reader looks for.
    assert [s.run.__name__ for s in stages] == [s.name for s in stages]


def test_plugins_place_stages_by_name() -> None:
    order = _order(
        ("p", Stages(QueryStage("my-rerank", passthrough, after="gravity"))),
        ("q", Stages(QueryStage("my-translate", passthrough, before="temporal"))),
        ("r", Stages(QueryStage("my-fusion", passthrough, replaces="candidates"))),
        ("s", Stages(QueryStage("my-synthesis", passthrough))),  # no position: appended
    )
    assert order == [
        "scopes",
        "language",
        "translate",
        "my-translate",
        "temporal",
        "embed",
        "my-fusion",
        "neighbours",
        "rescore",
        "gravity",
        "my-rerank",
        "graph",
        "rerank",
        "supersedes",
        "thresholds",
        "trim",
        "versions",
        "sources",
        "synthesis",
        "my-synthesis",
    ]


def test_a_stage_may_anchor_on_a_plugin_stage_or_on_a_replaced_one() -> None:
    order = _order(
        ("late", Stages(QueryStage("after-rerank", passthrough, after="my-rerank"))),
        ("early", Stages(QueryStage("my-rerank", passthrough, after="gravity"))),
        ("swap", Stages(QueryStage("gravity2", passthrough, replaces="gravity"))),
        ("anchor", Stages(QueryStage("near-gravity", passthrough, before="gravity"))),
    )
    assert order[order.index("embed") :] == [
        "embed",
        "candidates",
        "neighbours",
        "rescore",
        "near-gravity",
        "gravity2",
        "my-rerank",
        "after-rerank",
        "graph",
        "rerank",
        "supersedes",
        "thresholds",
        "trim",
        "versions",
        "sources",
        "synthesis",
    ]


@pytest.mark.parametrize(
    ("plugins", "message"),
    [
        (
            [("p", Stages(QueryStage("x", passthrough, after="nowhere")))],
            "query stage 'x' of p is placed relative to 'nowhere', which no plugin registers",
        ),
        (
            [("p", Stages(QueryStage("trim", passthrough)))],
            "query stage 'trim' registered twice: by core.retrieval and by p",
        ),
        (
            [
                ("one", Stages(QueryStage("a", passthrough, replaces="trim"))),
                ("two", Stages(QueryStage("b", passthrough, replaces="trim"))),
            ],
            "query stage 'trim' replaced twice: by one and by two",
        ),
        (
            [("p", Stages(QueryStage("x", passthrough, after="trim", before="sources")))],
            "give at most one of after, before, replaces",
        ),
    ],
)
def test_bad_stage_registrations_stop_start_up(
    plugins: list[tuple[str, object]], message: str
) -> None:
    with pytest.raises(PluginError) as caught:
        _order(*plugins)
    assert message in caught.value.message


NotAStage = registers("register_query_stages", ("my-rerank", passthrough), spread=True)


def test_a_malformed_stage_registration_names_the_plugin(database_url: str, tmp_path: Path) -> None:
    app = App(database_url=database_url, home=tmp_path, load_entry_points=False)
    app.host.register(NotAStage, "sloppy")
    with pytest.raises(PluginError, match=r"plugin sloppy must call register\(QueryStage"):
        app.open()
    assert app.db.pool is None  # checked before the database starts


# -- running --------------------------------------------------------------------------------


def _text_only(app: App) -> None:
    set_setting(app, "query.weight_dense", 0.0)  # no model needed for these


def _store(app: App, title: str, content: str) -> str:
    from ctx.core import store_block

    return str(store_block(app, ALPHA, StoreRequest(title=title, content=content))["id"])


def _app_with(database_url: str, tmp_path: Path, *plugins: tuple[str, object]) -> App:
    app = App(database_url=database_url, home=tmp_path, load_entry_points=False)
    for name, plugin in plugins:
        app.host.register(plugin, name)
    return app.open()


def test_explain_lists_every_stage_with_timing_and_counts(app: App) -> None:
    _text_only(app)
    _store(app, "Backups", "Backups run every night at two.")
    _store(app, "Deploys", "Deploys happen on Tuesdays.")
    res = query(app, ALPHA, QueryRequest(query="when do backups run", explain=True))
    stages = res["stages"]
    assert [s["name"] for s in stages] == BUILTIN
    assert all(isinstance(s["ms"], float) and s["ms"] >= 0 for s in stages)
    by_name = {s["name"]: s for s in stages}
    assert by_name["candidates"]["in"] == 0 and by_name["candidates"]["out"] >= 1
    assert by_name["scopes"]["notes"] == {"scopes": ["alpha"]}
    assert by_name["thresholds"]["notes"]["best"] == pytest.approx(res["sources"][0]["score"])
    assert by_name["sources"]["out"] == len(res["sources"])
    # Without explain the stages stay out of the response.
    assert "stages" not in query(app, ALPHA, QueryRequest(query="backups"))


def test_stage_timings_reach_the_debug_log(app: App, caplog: pytest.LogCaptureFixture) -> None:
    _text_only(app)
    with caplog.at_level(logging.DEBUG, logger="ctx.retrieval"):
        query(app, ALPHA, QueryRequest(query="anything"))
    [record] = [r for r in caplog.records if r.getMessage() == "query stages"]
    assert [s["name"] for s in record.stages] == BUILTIN  # type: ignore[attr-defined]


def test_a_plugin_stage_changes_the_answer(database_url: str, tmp_path: Path) -> None:
    seen: dict[str, Any] = {}

    def boost(q: QueryRun, candidates: list[Candidate]) -> list[Candidate]:
        seen["weights"] = dict(q.weights)
        q.note(seen=len(candidates))
        q.extra["boosted"] = True
        for c in candidates:
            c.rescore("boost", 100.0 if c.block_id == target else 1.0)
        return sorted(candidates, key=lambda c: -c.score)

    app = _app_with(
        database_url, tmp_path, ("booster", Stages(QueryStage("boost", boost, after="gravity")))
    )
    try:
        _text_only(app)
        _store(app, "Backups", "Backups of the database run every night.")
        target = _store(app, "Restores", "Restores of the database are tested monthly.")
        res = query(app, ALPHA, QueryRequest(query="database backups", explain=True))
        assert res["sources"][0]["id"] == target
        assert res["sources"][0]["channels"]["boost"] == 100.0
        assert res["boosted"] is True  # stages may add response fields
        assert {"name": "boost"}.items() <= next(
            s for s in res["stages"] if s["name"] == "boost"
        ).items()
        assert seen["weights"]["dense"] == 0.0
    finally:
        app.close()


def test_a_fail_open_stage_becomes_a_warning(database_url: str, tmp_path: Path) -> None:
    def broken(q: QueryRun, candidates: list[Candidate]) -> list[Candidate]:
        raise EmbeddingError("rerank server is down")

    def strict(q: QueryRun, candidates: list[Candidate]) -> list[Candidate]:
        raise RuntimeError("a bug")

    app = _app_with(
        database_url,
        tmp_path,
        ("rerank", Stages(QueryStage("my-rerank", broken, after="gravity", fail_open=True))),
    )
    try:
        _text_only(app)
        block = _store(app, "Backups", "Backups run every night.")
        res = query(app, ALPHA, QueryRequest(query="backups"))
        assert [s["id"] for s in res["sources"]] == [block]  # the query still answers
        assert res["warnings"] == ["stage my-rerank failed (rerank server is down); it was skipped"]
    finally:
        app.close()

    app = _app_with(
        database_url, tmp_path, ("bug", Stages(QueryStage("bug", strict, after="gravity")))
    )
    try:
        _text_only(app)
        with pytest.raises(RuntimeError, match="a bug"):
            query(app, ALPHA, QueryRequest(query="backups"))
    finally:
        app.close()


def test_run_pipeline_stops_skips_and_overrides_weights(app: App) -> None:
    _text_only(app)
    first = _store(app, "Ingress", "Kubernetes ingress timeouts and retries.")
    run, candidates = run_pipeline(
        app, ALPHA, QueryRequest(query="ingress timeouts"), stop_after="candidates"
    )
    assert [c.block_id for c in candidates] == [first]
    assert [t["name"] for t in run.trace] == BUILTIN[: BUILTIN.index("candidates") + 1]
    assert run.sources == []  # the sources stage never ran

    run, candidates = run_pipeline(
        app,
        ALPHA,
        QueryRequest(query="ingress timeouts"),
        weights={"fts_en": 0.0, "fts_de": 0.0},
        skip={"temporal"},
        stop_after="candidates",
    )
    assert "temporal" not in [t["name"] for t in run.trace]
    assert run.weights["fts_en"] == 0.0 and run.weights["trigram"] > 0
    assert all(c.ranks["fts_en"] is None for c in candidates)
    with pytest.raises(ValueError, match="unknown query stage"):
        run_pipeline(app, ALPHA, QueryRequest(query="x"), stop_after="nonsense")
    with pytest.raises(ValueError, match="unknown channel"):
        run_pipeline(app, ALPHA, QueryRequest(query="x"), weights={"nope": 1.0})


def test_stopping_after_a_skipped_stage_stops_where_it_would_have_run(app: App) -> None:
    _text_only(app)
    run, _ = run_pipeline(
        app, ALPHA, QueryRequest(query="x"), skip={"gravity"}, stop_after="gravity"
    )
    assert [t["name"] for t in run.trace] == BUILTIN[: BUILTIN.index("gravity")]
