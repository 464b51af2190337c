"""The rerank stage against a real OpenAI-compatible peer: realignment, the blend, the trust
gate, fail-open, the LLM-as-judge fallback."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import openai_server
import pytest
from backend_kit import add_backend

from ctx.core import App, Principal, QueryRequest, StoreRequest, blocks, llm, retrieval
from ctx.core.retrieval.reranking import blend, parse_marks, sigmoid
from ctx.core.runtime import set_setting

WHO = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")
QUERY = "backup"


@pytest.fixture(scope="module")
def server() -> Iterator[Any]:
    with openai_server.OpenAIServer() as srv:
        yield srv


@pytest.fixture(autouse=True)
def text_only(app: App) -> None:
    """The text channels alone: embedding every stored block inline would dominate the time.
    The stages that move scores before rerank (neighbours, rescore) are off: the corpus is one
    burst of look-alike notes, and these tests place documents by the fusion's order."""
    set_setting(app, "query.weight_dense", 0.0)
    set_setting(app, "query.neighbour_weight", 0.0)
    set_setting(app, "query.rescore_depth", 0)


@pytest.fixture
def peer(server: Any) -> Any:
    server.reset()
    return server


def _backend(app: App, srv: Any, roles: list[str], trust: str = "full-trust") -> None:
    add_backend(app, srv, roles, trust=trust)
    set_setting(app, "llm.read_timeout", 0.5)


def _store(app: App, title: str, content: str, **extra: Any) -> str:
    req = StoreRequest.model_validate({"title": title, "content": content, **extra})
    return str(blocks.store_block(app, WHO, req)["id"])


def _corpus(app: App, n: int) -> None:
    """n blocks that all match QUERY, with different fusion scores (more mentions rank higher)."""
    for i in range(n):
        _store(app, f"Note {i}", "backup " * (1 + i % 7) + f"filler words number {i}")


def _run(app: App, **request: Any) -> tuple[Any, list[Any]]:
    """The run and its candidates after the rerank stage."""
    req = QueryRequest.model_validate({"query": QUERY, **request})
    return retrieval.run_pipeline(app, WHO, req, stop_after="rerank")


def _ids(candidates: list[Any]) -> list[str]:
    return [c.block_id for c in candidates]


def _fusion(app: App) -> list[Any]:
    return _run(app, rerank=False)[1]


def _notes(run: Any) -> dict[str, Any]:
    return next(t for t in run.trace if t["name"] == "rerank").get("notes", {})


def _rerank_requests(srv: Any) -> list[Any]:
    return [r for r in srv.requests if r.path == "/v1/rerank"]


def test_sigmoid_and_blend() -> None:
    assert sigmoid(0.0) == 0.5
    assert sigmoid(6.0) == pytest.approx(0.997527, abs=1e-6)
    assert sigmoid(-11.0) == pytest.approx(1.67e-5, rel=1e-2)
    assert sigmoid(-1000.0) == 0.0 and sigmoid(1000.0) == 1.0  # no overflow
    assert blend(0.5, 0.2, 1.0) == pytest.approx(0.6)
    assert blend(1.0, 0.2, 1.0) == 0.2 and blend(0.0, 0.2, 1.0) == 1.0


def test_the_stage_sits_after_gravity_before_thresholds(app: App) -> None:
    names = [s.name for s in app.query_stages]
    # after gravity and graph expansion (the graph stage places itself before rerank)
    assert names.index("gravity") + 2 == names.index("rerank") < names.index("thresholds")
    assert names[names.index("gravity") + 1] == "graph"
    assert "backends" in app.rerankers


def test_default_off_sends_nothing(app: App, peer: Any) -> None:
    _backend(app, peer, ["rerank"])
    _corpus(app, 4)
    run, out = _run(app)
    assert _ids(out) == _ids(_fusion(app))
    assert peer.requests == [] and run.warnings == [] and _notes(run) == {}


def test_pure_reranker_order_is_realigned_by_index(app: App, peer: Any) -> None:
    _backend(app, peer, ["rerank"])
    _corpus(app, 6)
    fused = _fusion(app)
    # the peer sorts its answer by score: the client realigns by index, so the order must be
    # the scripted one and not the answer's array order
    peer.rerank_scores = [-3.0, 5.0, -8.0, 2.0, 0.0, 4.0]
    set_setting(app, "query.rerank_weight", 1.0)
    run, out = _run(app, rerank=True)
    assert _ids(out) == [_ids(fused)[i] for i in (1, 5, 3, 4, 0, 2)]
    assert run.warnings == []
    notes = _notes(run)
    assert notes["reranked"] == 6 and notes["withheld"] == 0 and notes["backend"] == "peer"
    by_id = {c.block_id: c for c in out}
    assert by_id[fused[1].block_id].factors["rerank"] == pytest.approx(sigmoid(5.0))
    # the score stays on the fusion scale
    assert [by_id[c.block_id].score for c in fused] == [c.score for c in fused]


def test_sorted_server_scores_keep_fusion_order(app: App, peer: Any) -> None:
    _backend(app, peer, ["rerank"])
    _corpus(app, 5)
    fused = _fusion(app)
    peer.rerank_scores = [4.0, 3.0, 2.0, 1.0, 0.0]
    _, out = _run(app, rerank=True)
    assert _ids(out) == _ids(fused)


def test_the_blend_of_relevance_and_fusion(app: App, peer: Any) -> None:
    _backend(app, peer, ["rerank"])
    _corpus(app, 7)
    fused = _fusion(app)
    raw = [-2.0, 1.0, 3.0, -1.0, 0.5, 2.5, -4.0]
    peer.rerank_scores = raw
    set_setting(app, "query.rerank_weight", 0.3)
    _, out = _run(app, rerank=True)
    best = max(c.score for c in fused)
    key = {
        c.block_id: blend(0.3, sigmoid(r), c.score / best) for c, r in zip(fused, raw, strict=True)
    }
    assert _ids(out) == sorted(key, key=lambda i: -key[i])
    assert _ids(out) != _ids(fused)  # the scripted scores do move something


def test_weight_zero_keeps_fusion_order(app: App, peer: Any) -> None:
    _backend(app, peer, ["rerank"])
    _corpus(app, 5)
    fused = _fusion(app)
    peer.rerank_scores = [0.0, 1.0, 2.0, 3.0, 4.0]
    set_setting(app, "query.rerank_weight", 0.0)
    run, out = _run(app, rerank=True)
    assert _ids(out) == _ids(fused)
    assert _notes(run)["reranked"] == 5 and len(_rerank_requests(peer)) == 1


def test_the_setting_turns_it_on_and_the_request_off(app: App, peer: Any) -> None:
    _backend(app, peer, ["rerank"])
    _corpus(app, 3)
    set_setting(app, "query.rerank", True)
    _run(app, rerank=False)
    assert _rerank_requests(peer) == []
    run, _ = _run(app)
    assert len(_rerank_requests(peer)) == 1 and _notes(run)["reranked"] == 3


def test_only_the_top_fifty_are_sent_and_the_rest_follow(app: App, peer: Any) -> None:
    _backend(app, peer, ["rerank"])
    _corpus(app, 56)
    fused = _fusion(app)
    assert len(fused) == 56
    peer.rerank_scores = [i / 10 - 2.5 for i in range(50)]  # reverses the first 50
    set_setting(app, "query.rerank_weight", 1.0)
    _, out = _run(app, rerank=True)
    (sent,) = _rerank_requests(peer)
    assert len(sent.body["documents"]) == 50
    first = sent.body["documents"][0]
    assert first.startswith("Note ") and "\nbackup" in first  # title, newline, content
    assert _ids(out) == _ids(fused)[:50][::-1] + _ids(fused)[50:]


def test_rerank_max_docs_and_the_document_head(app: App, peer: Any) -> None:
    _backend(app, peer, ["rerank"])
    _store(app, "Long backup", "backup " + "x" * 5000)
    _corpus(app, 3)
    set_setting(app, "query.rerank_max_docs", 2)
    _run(app, rerank=True)
    (sent,) = _rerank_requests(peer)
    assert len(sent.body["documents"]) == 2
    assert max(len(d) for d in sent.body["documents"]) <= len("Long backup\n") + 2048


def _id_of(app: App, title: str) -> str:
    with app.connection() as conn:
        row = conn.execute("SELECT id::text AS id FROM context_blocks WHERE title = %s", (title,))
        return str(row.fetchone()["id"])


def test_withheld_documents_keep_their_slot_and_never_leave(app: App, peer: Any) -> None:
    _backend(app, peer, ["rerank"], trust="non-personal")
    _corpus(app, 4)
    _store(app, "Private backup", "backup backup backup secretword", sensitivity="personal")
    private = _id_of(app, "Private backup")
    ids = _ids(_fusion(app))
    slot = ids.index(private)
    peer.rerank_scores = [float(i) for i in range(4)]  # reverses the four visible ones
    set_setting(app, "query.rerank_weight", 1.0)
    run, out = _run(app, rerank=True)
    assert "secretword" not in peer.sent_text() and "Private backup" not in peer.sent_text()
    visible = [i for i in ids if i != private][::-1]
    assert _ids(out) == [*visible[:slot], private, *visible[slot:]]
    assert _notes(run)["withheld"] == 1 and _notes(run)["reranked"] == 4


@pytest.mark.parametrize("behaviour", ["gap", "duplicate", "outofrange", "error500", "malformed"])
def test_bad_answers_fail_open(app: App, peer: Any, behaviour: str) -> None:
    _backend(app, peer, ["rerank"])
    _corpus(app, 4)
    fused = _fusion(app)
    peer.reset(rerank=behaviour)
    peer.rerank_scores = [0.0, 1.0, 2.0, 3.0]
    run, out = _run(app, rerank=True)
    assert _ids(out) == _ids(fused)
    assert len(run.warnings) == 1 and run.warnings[0].startswith("stage rerank failed (")
    assert "rerank" not in out[0].factors


def test_a_hanging_reranker_times_out_and_fails_open(app: App, peer: Any) -> None:
    _backend(app, peer, ["rerank"])
    _corpus(app, 3)
    fused = _fusion(app)
    peer.reset(rerank="hang")
    run, out = _run(app, rerank=True)
    assert _ids(out) == _ids(fused)
    assert len(run.warnings) == 1 and "stage rerank failed" in run.warnings[0]


def test_no_backend_skips_with_a_warning_only_when_asked(app: App) -> None:
    _corpus(app, 3)
    fused = _fusion(app)
    run, out = _run(app)
    assert run.warnings == []
    run, out = _run(app, rerank=True)
    assert _ids(out) == _ids(fused)
    assert len(run.warnings) == 1 and run.warnings[0].startswith("rerank skipped: no rerank")


def test_an_unknown_reranker_fails_open(app: App) -> None:
    _corpus(app, 2)
    set_setting(app, "query.reranker", "nope")
    run, out = _run(app, rerank=True)
    assert len(out) == 2
    assert "'nope', which no plugin registers (registered: backends)" in run.warnings[0]


def _judged(body: dict[str, Any]) -> list[str]:
    """The documents a judge request carries."""
    user = body["messages"][-1]["content"]
    return re.findall(r'<document index="\d+">\n(.*?)\n</document>', user, re.S)


def _judge(body: dict[str, Any]) -> str:
    """Rates 10 a document that mentions 'zebra', else 0; wraps the array in chatter."""
    docs = _judged(body)
    return "Ratings:\n```json\n" + json.dumps([10 if "zebra" in d else 0 for d in docs]) + "\n```"


def test_the_synthesis_chain_judges_without_a_rerank_backend(app: App, peer: Any) -> None:
    _backend(app, peer, ["synthesis"], trust="non-personal")
    _corpus(app, 4)
    _store(app, "Zoo", "backup of the zebra enclosure plan")
    _store(app, "Private backup", "backup backup backup secretword", sensitivity="personal")
    zebra, private = _id_of(app, "Zoo"), _id_of(app, "Private backup")
    ids = _ids(_fusion(app))
    peer.chat_responder = _judge
    set_setting(app, "query.rerank_weight", 1.0)
    run, out = _run(app, rerank=True)
    assert run.warnings == [] and _rerank_requests(peer) == []
    (chat,) = [r for r in peer.requests if r.path == "/v1/chat/completions"]
    assert chat.body["messages"][0]["role"] == "system"
    assert "secretword" not in peer.sent_text()
    notes = _notes(run)
    assert notes["how"] == "judge" and notes["reranked"] == 5 and notes["withheld"] == 1
    # the private block keeps its slot; the zebra one leads the visible ones; the rest (all
    # rated 0) keep their fusion order
    slot = ids.index(private)
    visible = [i for i in ids if i != private]
    visible = [zebra] + [i for i in visible if i != zebra]
    assert _ids(out) == [*visible[:slot], private, *visible[slot:]]
    assert out[_ids(out).index(zebra)].factors["rerank"] == 1.0
    assert "rerank" not in out[slot].factors


def test_the_judge_sees_at_most_15_documents_of_400_characters(app: App, peer: Any) -> None:
    _backend(app, peer, ["synthesis"])
    _store(app, "Long backup", "backup " + "y" * 3000)
    _corpus(app, 20)
    peer.chat_responder = _judge
    run, out = _run(app, rerank=True)
    (chat,) = [r for r in peer.requests if r.path == "/v1/chat/completions"]
    docs = _judged(chat.body)
    assert len(docs) == 15 and max(len(d) for d in docs) == 400
    assert _notes(run)["reranked"] == 15 and len(out) == 21


@pytest.mark.parametrize(
    "reply", ["no numbers here", "[1, 2]", '[1, 2, "x", 4]', "[1, 2, 3, 11]", "[1, 2, 3,"]
)
def test_malformed_judge_answers_fail_open(app: App, peer: Any, reply: str) -> None:
    _backend(app, peer, ["synthesis"])
    _corpus(app, 4)
    fused = _fusion(app)
    peer.chat_default = reply
    try:
        run, out = _run(app, rerank=True)
    finally:
        peer.chat_default = "OK"
    assert _ids(out) == _ids(fused)
    assert len(run.warnings) == 1 and "the rerank judge (peer)" in run.warnings[0]


def test_parse_marks() -> None:
    assert parse_marks("sure: [0, 10, 2.5] done", 3, "b") == [0.0, 10.0, 2.5]
    with pytest.raises(llm.InvalidResponse, match="gave 2 ratings for 3 documents"):
        parse_marks("[1, 2]", 3, "b")
    with pytest.raises(llm.InvalidResponse, match="True, not a rating"):
        parse_marks("[true]", 1, "b")


def test_explain_shows_the_rerank_factor(app: App, peer: Any) -> None:
    _backend(app, peer, ["rerank"])
    _corpus(app, 3)
    res = retrieval.query(app, WHO, QueryRequest(query=QUERY, rerank=True, explain=True))
    assert all("rerank" in s["channels"] for s in res["sources"])
    assert res["confidence"] != "no_relevant_blocks_found"
