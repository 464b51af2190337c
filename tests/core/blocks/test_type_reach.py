"""Which contexts see a block type's blocks, and with what factor: one rule with one home per
language (``TYPE_REACH`` in Python, the view ``context_type_reach`` in SQL). The twins agree,
nothing else reads the retrieval policy, and each context follows the rule when an operator
switches a type's policy: the fused query, listings and the light search, the graph stage's
neighbours, the daily digest, the context vectors and the neighbours stage."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ctx.core import App, Principal, QueryRequest, StoreRequest, blocks, retrieval
from ctx.core.blocks import (
    CONTEXTS,
    RETRIEVAL_POLICIES,
    TYPE_REACH,
    BlockTypeSpec,
    BrowseRequest,
    SearchRequest,
    seed_types,
    update_type,
)
from ctx.core.embed import context as ctxvec
from ctx.core.graph.digest import written_on
from ctx.core.graph.stages import _admissible
from ctx.core.retrieval.neighbours import neighbour_pairs
from ctx.core.retrieval.pipeline import QueryRun
from ctx.core.runtime import drain, set_setting

ROOT = Path(__file__).resolve().parents[3]
ALPHA = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")
HOMES = {"core/blocks/types.py", "migrations/functions/context_type_reach.sql"}
# The type admin pages show the policy and offer its values; they decide nothing.
SHOWN = {"ui/web/templates/admin/types.html", "ui/web/templates/admin/type_form.html"}
# A comparison with the policy: Python, SQL and Jinja, either way round, or a CASE on it.
READS_POLICY = re.compile(
    r"retrieval_policy\s*(==|!=|<>|=\s*'|(not\s+)?in\b)"
    r"|(==|!=|<>)\s*[\w.]*retrieval_policy\b"
    r"|\bcase\s+[\w.]*retrieval_policy\b",
    re.IGNORECASE,
)


def test_only_the_homes_read_the_retrieval_policy() -> None:
    places = []
    for folder in ("core", "plugins", "ui", "migrations/functions"):
        for path in sorted((ROOT / folder).rglob("*")):
            rel = path.relative_to(ROOT).as_posix()
            if path.suffix not in (".py", ".sql", ".html") or rel in HOMES | SHOWN:
                continue
            for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
                if READS_POLICY.search(line):
                    places.append(f"{rel}:{n}: {line.strip()}")
    assert places == [], "ask TYPE_REACH / BlockTypeSpec.seen_in or the view context_type_reach"


def test_the_scan_sees_a_restated_rule() -> None:
    for line in (
        "if spec.retrieval_policy == 'excluded':",
        "AND t.retrieval_policy <> 'excluded'",
        "SELECT name FROM context_block_types WHERE retrieval_policy = 'private'",
        "CASE WHEN t.retrieval_policy IN ('normal', 'private') THEN 1.0",
        "CASE t.retrieval_policy WHEN 'damped' THEN",
        "if 'private' != s.retrieval_policy",
    ):
        assert READS_POLICY.search(line), line
    assert not READS_POLICY.search('    retrieval_policy="damped",')  # a type's definition


def test_the_view_and_the_python_table_agree(app: App) -> None:
    specs = [BlockTypeSpec(f"r-{p}", retrieval_policy=p, retrieval_factor=0.25)
             for p in RETRIEVAL_POLICIES]  # fmt: skip
    with app.connection() as conn:
        seed_types(conn, [("test", s) for s in specs])
        rows = conn.execute("SELECT * FROM context_type_reach WHERE name LIKE 'r-%'").fetchall()
    assert set(rows[0]) == {"name", *CONTEXTS, "factor"}
    by_name = {r["name"]: r for r in rows}
    for spec in specs:
        row = by_name[spec.name]
        assert {c: row[c] for c in CONTEXTS} == TYPE_REACH[spec.retrieval_policy], spec.name
        assert row["factor"] == pytest.approx(spec.effective_factor), spec.name


def test_seen_in_reads_the_table() -> None:
    private = BlockTypeSpec("p", retrieval_policy="private")
    assert not private.seen_in("query") and not private.seen_in("listing", "thread/a")
    assert private.seen_in("query", "thread/a", named="thread/a")
    assert not private.seen_in("graph", "thread/a", named="thread/b")
    assert private.seen_in("digest") and private.seen_in("vectors")
    excluded = BlockTypeSpec("e", retrieval_policy="excluded")
    assert [excluded.seen_in(c, "x", named="x") for c in CONTEXTS] == [
        False, True, False, False, False]  # fmt: skip
    assert all(BlockTypeSpec("d", retrieval_policy="damped").seen_in(c) for c in CONTEXTS)


# -- each context, as an operator switches the type `reference` ---------------------------------


def _switch(app: App, policy: str, factor: float = 0.5) -> None:
    with app.connection() as conn:
        update_type(conn, "reference", {"retrieval_policy": policy, "retrieval_factor": factor})
    app.reload()  # the graph stage reads the types the app holds


def _store(app: App, title: str, content: str = "x", **extra: Any) -> str:
    req = StoreRequest.model_validate({"title": title, "content": content, **extra})
    return str(blocks.store_block(app, ALPHA, req)["id"])


def test_query(app: App) -> None:
    ref = _store(app, "Kiln glaze reference", "The kiln glaze fires at cone six.",
                 block_type="reference", category="ops")  # fmt: skip

    def fused(**filters: Any) -> dict[str, float]:
        rows = retrieval.fuse(app, query="kiln glaze", scopes=["alpha"],
                              weights=retrieval.channel_weights(app), **filters)  # fmt: skip
        return {c.block_id: c.score for c in rows}

    normal = fused()[ref]
    _switch(app, "damped", 0.25)
    assert fused()[ref] == pytest.approx(normal * 0.25, rel=1e-6)
    _switch(app, "excluded")
    assert ref not in fused() and ref not in fused(category="ops")
    _switch(app, "private")
    assert ref not in fused() and ref not in fused(private_category="thread/other")
    assert fused(category="ops")[ref] == pytest.approx(normal, rel=1e-6)
    assert fused(private_category="ops")[ref] == pytest.approx(normal, rel=1e-6)


def test_listing_and_search(app: App) -> None:
    ref = _store(app, "Kiln glaze reference", "kiln glaze", block_type="reference",
                 category="ops")  # fmt: skip

    def seen(**category: Any) -> dict[str, bool]:
        page = blocks.browse_blocks(app, ALPHA, BrowseRequest.model_validate(category))
        listed = blocks.list_blocks(app, ALPHA, **category)
        found = blocks.search_blocks(app, ALPHA, SearchRequest(query="kiln glaze", **category))
        types = {t["value"] for t in blocks.block_facets(app, ALPHA)["types"]}
        return {
            "browse": ref in {b["id"] for b in page["blocks"]},
            "list": ref in {b["id"] for b in listed},
            "search": ref in {b["id"] for b in found},
            "facets": "reference" in types,
        }

    everywhere = dict.fromkeys(("browse", "list", "search", "facets"), True)
    for policy in ("damped", "excluded"):  # listings show what queries leave out
        _switch(app, policy)
        assert seen() == everywhere, policy
    _switch(app, "private")
    assert not any(seen().values())
    assert seen(category="ops") == {**everywhere, "facets": False}  # facets name no category


def test_graph_neighbours(app: App) -> None:
    linked = _store(app, "Cone 6 witness results", block_type="reference", category="ops")
    run = QueryRun(app, ALPHA, QueryRequest(query="q"), weights={}, scopes=["alpha"])

    def admitted(**request: Any) -> dict[str, float]:
        run.request = QueryRequest(query="q", **request)
        return _admissible(run, [linked])

    assert admitted() == {linked: 1.0}
    _switch(app, "damped", 0.25)
    assert admitted() == {linked: pytest.approx(0.25)}
    _switch(app, "excluded")
    assert admitted() == {} and admitted(category="ops") == {}
    _switch(app, "private")  # as in the fused query: only where the query names its category
    assert admitted() == {} and admitted(private_category="thread/other") == {}
    assert admitted(category="ops") == admitted(private_category="ops") == {linked: 1.0}


def _today(app: App) -> date:
    with app.connection() as conn:
        row = conn.execute("SELECT (now() AT TIME ZONE 'UTC')::date AS d").fetchone()
    assert row is not None
    return row["d"]


def test_digest_sources(app: App) -> None:
    ref = _store(app, "Kiln glaze reference", block_type="reference")

    def sources() -> set[str]:
        with app.connection() as conn:
            return {r["id"] for r in written_on(conn, "alpha", _today(app), 50)[0]}

    for policy in ("damped", "private"):
        _switch(app, policy)
        assert ref in sources(), policy
    _switch(app, "excluded")
    assert ref not in sources()


@pytest.mark.parametrize(("policy", "blended"), [("private", True), ("excluded", False)])
def test_context_vectors_and_neighbour_pairs(app: App, policy: str, blended: bool) -> None:
    set_setting(app, "embed.context_window", 1)
    _switch(app, policy)
    first = _store(app, "turn 0", "Which colour did you pick?", category="chat")
    middle = _store(app, "turn 1", "The blue one.", block_type="reference", category="chat")
    last = _store(app, "turn 2", "Nice, it matches the helmet.", category="chat")
    drain(app, "embed")
    with app.connection() as conn:
        rows = conn.execute("SELECT block_id::text AS id, embedding::text AS e, "
                            "context::text AS c FROM context_block_embeddings").fetchall()  # fmt: skip
    own = {r["id"]: ctxvec.parse_vector(r["e"]) for r in rows}
    blend = ctxvec.parse_vector(next(r["c"] for r in rows if r["id"] == first))
    near = own[middle] if blended else own[last]
    expected = own[first] + 0.2 * near
    assert float(np.max(np.abs(blend - expected / np.linalg.norm(expected)))) < 2e-3
    run = QueryRun(app, ALPHA, QueryRequest(query="q"), weights={})
    # window 1: the first and last turns are neighbours only when the middle one is left out
    assert bool(neighbour_pairs(run, [first, last], 1)) is not blended
