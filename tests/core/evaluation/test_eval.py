"""The replay of a gold set on a small store built by hand, with the real embedder: the figures
are exact where the ranks are known, a candidate set of settings changes them without being
written, and a bad candidate is refused before any work."""

from __future__ import annotations

from typing import Any

import pytest

from ctx.core import App, Principal, QueryRequest, StoreRequest, query, store_block
from ctx.core.blocks import set_archived
from ctx.core.errors import ValidationError
from ctx.core.evaluation import EvalRequest, MarkRequest, evaluate, mark
from ctx.core.retrieval import CHANNELS

ALPHA = Principal(key_id="00000000-0000-4000-8000-0000000000a1", name="a", home_scope="alpha")
BETA = Principal(key_id="00000000-0000-4000-8000-0000000000b1", name="b", home_scope="beta")
NOTES = {
    "backup": ("Backup plan", "The nightly Postgres backup runs at 02:00 on db-2 and keeps 14 "
               "days of WAL archives."),
    "lasagne": ("Lasagne", "Layer the pasta sheets with ragu and bechamel and bake the lasagne "
                "for 45 minutes at 180 degrees."),
    "ingress": ("Ingress timeout", "The ingress controller closes idle connections after 60 "
                "seconds."),
    "deploy": ("Deploy runbook", "Deploys go out on Tuesdays after the change review; the "
               "release manager announces each deploy in the ops channel."),
    "bucket": ("WAL bucket", "The WAL archives are kept in the S3 bucket ctx-wal-archive."),
}  # fmt: skip
DEPLOY_Q = "Who announces a deploy and when do deploys go out?"
#: a candidate under which nothing passes the score floor: no sources are returned
NOTHING_RETURNED = {
    "query.confidence": "score",
    "query.confident_threshold": 1.0,
    "query.score_threshold": 1.0,
}


def _store(app: App) -> dict[str, str]:
    return {
        name: str(store_block(app, ALPHA, StoreRequest(title=t, content=c))["id"])
        for name, (t, c) in NOTES.items()
    }


def _gold(app: App, ids: dict[str, str]) -> str:
    """Five questions with an answer (four findable, one archived) and one whose first source is
    marked as not answering it; returns the block the deploy question is answered by (its second
    source, so its rank is 2)."""
    for question, name in (
        ("When does the nightly Postgres backup run?", "backup"),
        ("How long do we bake the lasagne?", "lasagne"),
        ("What is the idle timeout of the ingress controller?", "ingress"),
        ("Which S3 bucket keeps the WAL archives?", "bucket"),
    ):
        mark(app, ALPHA, MarkRequest(question=question, id=ids[name]))
    sources = query(app, ALPHA, QueryRequest(query=DEPLOY_Q, limit=10))["sources"]
    assert len(sources) >= 2, sources
    second = sources[1]["id"]
    mark(app, ALPHA, MarkRequest(question=DEPLOY_Q, id=second))
    mark(app, ALPHA, MarkRequest(question="lasagne bechamel ragu", id=ids["lasagne"],
                                 verdict="not_answered"))  # fmt: skip
    # not answering, but not first either: it does not count
    mark(app, ALPHA, MarkRequest(question="How long do we bake the lasagne?", id=ids["deploy"],
                                 verdict="not_answered"))  # fmt: skip
    set_archived(app, ALPHA, ids["bucket"], True)  # its question's answer cannot be found any more
    return second


def test_the_figures_are_exact_where_the_ranks_are_known(app: App) -> None:
    ids = _store(app)
    _gold(app, ids)
    result = evaluate(app, ALPHA, EvalRequest())
    assert result["questions"] == 6 and result["answerable"] == 5 and result["left_out"] == 0
    assert result["candidate"] is None and result["difference"] is None
    returned = result["current"]["stages"]["returned"]
    # ranks 1, 1, 1, 2 and not found: R@1 3/5, R@5 and R@10 4/5, MRR (1+1+1+1/2+0)/5
    assert returned == {"r@1": 0.6, "r@5": 0.8, "r@10": 0.8, "mrr": 0.7}
    assert result["current"]["stages"]["ranked"] == returned
    assert result["current"]["stages"]["fusion"]["r@10"] == 0.8
    assert set(result["current"]["channels"]) == {c.name for c in CHANNELS}
    # the dense channel ranks every readable block of a store this small: 4 of 5 in its ten
    assert result["current"]["channels"]["dense"]["r@10"] == 0.8
    assert result["current"]["not_answered@1"] == round(1 / 6, 4)
    by_question = {q["question"]: q for q in result["per_question"]}
    assert by_question[DEPLOY_Q]["current"]["returned"] == 2
    assert by_question["Which S3 bucket keeps the WAL archives?"]["current"] == {
        "fusion": None, "ranked": None, "returned": None}  # fmt: skip

    # another scope's key replays nothing of alpha's
    assert evaluate(app, BETA, EvalRequest())["questions"] == 0


def test_a_candidate_set_changes_the_figures_and_is_not_written(app: App) -> None:
    ids = _store(app)
    _gold(app, ids)
    result = evaluate(app, ALPHA, EvalRequest(scope="alpha", settings=NOTHING_RETURNED))
    assert result["settings"] == NOTHING_RETURNED
    current, candidate = result["current"]["stages"], result["candidate"]["stages"]
    assert candidate["returned"] == {"r@1": 0.0, "r@5": 0.0, "r@10": 0.0, "mrr": 0.0}
    assert candidate["fusion"] == current["fusion"]  # fusion is untouched by the thresholds
    assert result["difference"]["stages"]["returned"] == {
        "r@1": -0.6, "r@5": -0.8, "r@10": -0.8, "mrr": -0.7}  # fmt: skip
    # nothing was written: the settings are what they were, and no row holds them
    assert app.settings["query.score_threshold"] == 0.001
    assert app.settings["query.confidence"] == "evidence"
    with app.connection() as conn:
        rows = conn.execute("SELECT key FROM context_settings WHERE key LIKE 'query.%'").fetchall()
    assert rows == []
    assert evaluate(app, ALPHA, EvalRequest())["current"]["stages"]["returned"]["r@1"] == 0.6


@pytest.mark.parametrize(
    ("settings", "words"),
    [
        ({"query.nothing": 1}, "unknown setting 'query.nothing'"),
        ({"query.rrf_k": 0}, "query.rrf_k: must be >= 1"),
        ({"query.rrf_k": "many"}, "expected an integer"),
        ({"query.score_threshold": 0.5}, "must not exceed query.confident_threshold"),
    ],
)
def test_a_bad_candidate_is_refused_naming_the_problem(
    app: App, settings: dict[str, Any], words: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        evaluate(app, ALPHA, EvalRequest(settings=settings))
    assert caught.value.message.startswith("candidate settings: ")
    assert words in caught.value.message


def test_only_retrieval_settings_can_be_tried(app: App) -> None:
    with pytest.raises(ValueError, match="pattern"):
        EvalRequest.model_validate({"settings": {"guard.enabled": False}})
