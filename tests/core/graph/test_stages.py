"""The query stages that read links: the supersedes filter and graph expansion, on a real store
with links written directly."""

from __future__ import annotations

from typing import Any

import pytest

from ctx.core import App, access
from ctx.core.blocks import StoreRequest, store_block
from ctx.core.graph import write_link
from ctx.core.retrieval import QueryRequest, query
from ctx.core.runtime import drain, set_setting


def who_for(app: App, keys: Any, home: str = "alpha", allowed: list[str] | None = None) -> Any:
    with app.connection() as conn:
        return access.authenticate(conn, keys.make(home, allowed))


def put(app: App, who: Any, title: str, content: str, **kw: Any) -> str:
    req = StoreRequest(title=title, content=content, category=kw.pop("category", "ops"), **kw)
    return str(store_block(app, who, req)["id"])


def ask(app: App, who: Any, text: str, **kw: Any) -> dict[str, Any]:
    return query(app, who, QueryRequest(query=text, synthesize=False, limit=10, **kw))


def ids_of(result: dict[str, Any]) -> list[str]:
    return [s["id"] for s in result["sources"]]


@pytest.fixture
def versions(app: App, keys: Any) -> dict[str, Any]:
    who = who_for(app, keys)
    old = put(app, who, "Backup schedule", "The postgres backup runs at 02:00 every night.")
    new = put(app, who, "Backup schedule 2026", "The postgres backup runs at 03:30 every night.")
    drain(app, "embed")
    with app.connection() as conn:
        write_link(conn, new, old, "supersedes", 0.9)
    return {"who": who, "old": old, "new": new}


def test_a_superseded_block_gives_way_to_its_superseder(app: App, versions: dict[str, Any]) -> None:
    result = ask(app, versions["who"], "when does the postgres backup run")
    assert versions["new"] in ids_of(result) and versions["old"] not in ids_of(result)
    stages = query(app, versions["who"], QueryRequest(
        query="when does the postgres backup run", synthesize=False, explain=True))["stages"]  # fmt: skip
    assert {t["name"]: t for t in stages}["supersedes"]["notes"]["dropped"] == 1


def test_it_stays_when_its_superseder_is_absent(app: App, versions: dict[str, Any]) -> None:
    result = ask(app, versions["who"], "when does the postgres backup run",
                 exclude_ids=[versions["new"]])  # fmt: skip
    (source,) = [s for s in result["sources"] if s["id"] == versions["old"]]
    assert source["superseded_by"] == [versions["new"]]


def test_a_query_that_names_a_time_keeps_the_history(app: App, versions: dict[str, Any]) -> None:
    result = ask(app, versions["who"], "when did the postgres backup run last week")
    got = ids_of(result)
    assert versions["old"] in got and versions["new"] in got
    (old,) = [s for s in result["sources"] if s["id"] == versions["old"]]
    assert old["superseded_by"] == [versions["new"]]


def test_a_weak_or_rejected_supersedes_does_not_count(app: App, versions: dict[str, Any]) -> None:
    with app.connection() as conn:
        conn.execute("UPDATE context_links SET confidence = 0.6")
    assert versions["old"] in ids_of(ask(app, versions["who"], "when does the postgres backup run"))
    with app.connection() as conn:
        conn.execute("UPDATE context_links SET confidence = 0.9, status = 'rejected'")
    assert versions["old"] in ids_of(ask(app, versions["who"], "when does the postgres backup run"))


def test_the_filter_can_be_turned_off(app: App, versions: dict[str, Any]) -> None:
    set_setting(app, "query.supersedes_filter", False)
    got = ids_of(ask(app, versions["who"], "when does the postgres backup run"))
    assert versions["old"] in got and versions["new"] in got


@pytest.fixture
def latent(app: App, keys: Any) -> dict[str, Any]:
    """A block the question's words never reach, linked to one they do (the dense channel is
    off: in a store this small it would find every block)."""
    set_setting(app, "query.weight_dense", 0.0)
    who = who_for(app, keys)
    hit = put(
        app, who, "Kiln firing schedule", "The kiln fires glaze loads on Thursdays at 1240 C."
    )
    hidden = put(app, who, "Cone 6 witness results", "Witness cones bent fully; pieces vitrified.")
    for i in range(5):
        put(app, who, f"Garden note {i}", f"Tomatoes in bed {i} need water.", category="garden")
    drain(app, "embed")
    with app.connection() as conn:
        write_link(conn, hit, hidden, "causal", 0.9)
    return {"who": who, "hit": hit, "hidden": hidden}


def test_graph_expansion_brings_in_a_linked_neighbour(app: App, latent: dict[str, Any]) -> None:
    result = ask(app, latent["who"], "kiln firing schedule glaze thursdays", explain=True)
    got = ids_of(result)
    assert got[0] == latent["hit"]
    assert latent["hidden"] in got
    (hidden,) = [s for s in result["sources"] if s["id"] == latent["hidden"]]
    assert "graph" in hidden["channels"]


def test_graph_expansion_off(app: App, latent: dict[str, Any]) -> None:
    set_setting(app, "query.graph_expansion", False)
    result = query(app, latent["who"], QueryRequest(query="kiln firing schedule glaze thursdays",
                   synthesize=False, explain=True))  # fmt: skip
    assert "notes" not in {t["name"]: t for t in result["stages"]}["graph"]
    assert latent["hidden"] not in ids_of(result)


def test_expansion_respects_the_query_filters(app: App, latent: dict[str, Any]) -> None:
    got = ids_of(ask(app, latent["who"], "kiln firing schedule glaze thursdays",
                     exclude_ids=[latent["hidden"]]))  # fmt: skip
    assert latent["hidden"] not in got
    got = ids_of(ask(app, latent["who"], "kiln firing schedule glaze thursdays", category="nope"))
    assert latent["hidden"] not in got


def test_expansion_never_crosses_into_an_unreadable_scope(
    app: App, keys: Any, latent: dict[str, Any]
) -> None:
    beta = who_for(app, keys, "beta")
    secret = put(app, beta, "Beta kiln secret", "Private notes.")
    drain(app, "embed")
    with app.connection() as conn:
        write_link(conn, latent["hit"], secret, "topical", 0.95)
    assert secret not in ids_of(ask(app, latent["who"], "kiln firing schedule glaze thursdays"))
    both = who_for(app, keys, "gamma", ["alpha", "beta"])
    assert secret in ids_of(ask(app, both, "kiln firing schedule glaze thursdays"))


def test_expansion_never_walks_back_to_an_outdated_block(app: App, keys: Any) -> None:
    set_setting(app, "query.weight_dense", 0.0)
    who = who_for(app, keys)
    new = put(app, who, "Kiln firing schedule", "The kiln fires glaze loads on Thursdays.")
    old = put(app, who, "Old cone notes", "Witness cones bent fully; pieces vitrified.")
    drain(app, "embed")
    with app.connection() as conn:
        write_link(conn, new, old, "supersedes", 0.9)
    assert old not in ids_of(ask(app, who, "kiln firing schedule glaze thursdays"))


def test_a_chain_of_versions_gives_the_newest_its_best_place() -> None:
    from ctx.core.graph.stages import _drop_superseded
    from ctx.core.retrieval import Candidate

    def kept(ids: list[str], newer: dict[str, list[str]]) -> list[str]:
        cands = [Candidate(i, 1.0 / (n + 1)) for n, i in enumerate(ids)]
        return [c.block_id for c in _drop_superseded(cands, newer)]

    assert kept(["z", "a", "b"], {"z": ["a"], "a": ["b"]}) == ["b"]
    assert kept(["z", "a", "b"], {"a": ["b"], "z": ["a"]}) == ["b"]  # whatever the link order
    assert kept(["b", "x", "z"], {"z": ["b"]}) == ["b", "x"]
    assert kept(["z", "x"], {"z": ["a"]}) == ["z", "x"]  # its successor is no candidate
