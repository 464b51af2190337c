"""The evaluation over REST: marks made, listed and removed with the scope rules, the replay with
a candidate set, and a bad candidate answered 422 with JSON naming it (nothing written)."""

from __future__ import annotations

from typing import Any

from ctx.core import App


def _h(token: str) -> dict[str, str]:
    return {"X-Context-Key": token}


def test_marks_and_the_replay_over_rest(app: App, client: Any, keys: Any) -> None:
    alpha, beta = _h(keys.make("alpha")), _h(keys.make("beta"))
    body = {
        "title": "Ingress timeout",
        "content": "The ingress closes idle connections after 60 s.",
    }
    block = client.post("/api/store", json=body, headers=alpha).json()["id"]
    question = "What is the idle timeout of the ingress?"

    refused = client.post("/api/eval/marks", json={"question": question, "id": block}, headers=beta)
    assert refused.status_code == 404 and "no block" in refused.json()["message"]
    made = client.post("/api/eval/marks", json={"question": question, "id": block}, headers=alpha)
    assert made.status_code == 200, made.text
    mark = made.json()
    assert mark["verdict"] == "answered" and mark["scope"] == "alpha"

    assert client.get("/api/eval/marks", headers=beta).json()["marks"] == []
    listed = client.get("/api/eval/marks", headers=alpha).json()
    assert [m["id"] for m in listed["marks"]] == [mark["id"]] and listed["questions"] == 1

    run = client.post("/api/eval", json={"settings": {"query.rrf_k": 60}}, headers=alpha)
    assert run.status_code == 200, run.text
    figures = run.json()
    assert figures["questions"] == 1 and figures["settings"] == {"query.rrf_k": 60}
    assert figures["current"]["stages"]["returned"]["r@1"] == 1.0
    assert figures["candidate"]["stages"]["returned"]["r@1"] == 1.0
    assert figures["difference"]["stages"]["returned"]["mrr"] == 0.0

    for settings, words in (
        ({"query.rrf_k": 0}, "query.rrf_k: must be >= 1"),
        ({"query.nothing": 1}, "unknown setting 'query.nothing'"),
        ({"guard.enabled": False}, "settings"),
    ):
        bad = client.post("/api/eval", json={"settings": settings}, headers=alpha)
        assert bad.status_code == 422, bad.text
        assert words in bad.json()["message"]
    with app.connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM context_settings").fetchone()["n"] == 0

    assert client.delete(f"/api/eval/marks/{mark['id']}", headers=beta).status_code == 404
    gone = client.delete(f"/api/eval/marks/{mark['id']}", headers=alpha)
    assert gone.status_code == 200 and gone.json() == {"id": mark["id"], "deleted": True}
    assert client.get("/api/eval/marks", headers=alpha).json()["total"] == 0
