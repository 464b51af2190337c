"""ctxd's warm-up: /health says warming until it finished, a query that arrives meanwhile waits
for it (and says so in explain), a failed warm-up is only a warning."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from ctx.core import App, Principal, QueryRequest, StoreRequest, blocks, retrieval

ALPHA = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")


def _embed_notes(res: dict[str, Any]) -> dict[str, Any]:
    return dict(next(s["notes"] for s in res["stages"] if s["name"] == "embed"))


def test_an_app_that_does_not_serve_never_warms_up(app: App, client: Any) -> None:
    assert not app.warmup.warming
    assert client.get("/health").json() == {"status": "ok"}


def test_health_says_warming_until_the_warm_up_finished(
    app: App, client: Any, loopback: Any
) -> None:
    app.warmup.begin()  # what start() does before its thread runs
    warming = client.get("/health")
    assert (warming.status_code, warming.json()) == (200, {"status": "warming"})

    app.warmup.run()

    assert client.get("/health").json() == {"status": "ok"}
    assert app.warmup.error is None and app.warmup.seconds is not None
    # it embedded one short text with the active generation's embedder
    assert [r.path for r in loopback.requests] == ["/v1/embeddings"]


def test_a_failed_warm_up_reports_ok_and_logs_why(
    app: App, client: Any, loopback: Any, caplog: pytest.LogCaptureFixture
) -> None:
    loopback.reset("error500")
    app.warmup.start().join()
    assert app.warmup.error and "warm-up failed" in caplog.text
    assert client.get("/health").json() == {"status": "ok"}


def test_a_query_during_the_warm_up_waits_for_it_and_says_so(app: App, loopback: Any) -> None:
    blocks.store_block(app, ALPHA, StoreRequest(title="Ferry times", content="hourly at ten"))
    request = QueryRequest(query="ferry times", explain=True)
    plain = retrieval.query(app, ALPHA, request)
    assert "waited_for_warmup_ms" not in _embed_notes(plain)

    app.warmup.begin()
    answers: list[dict[str, Any]] = []
    asking = threading.Thread(target=lambda: answers.append(retrieval.query(app, ALPHA, request)))
    asking.start()
    for _ in range(2000):  # until the query waits for the warm-up
        if app.warmup.waiting:
            break
        asking.join(0.01)
    assert app.warmup.waiting == 1 and not answers
    app.warmup.run()
    asking.join()

    (res,) = answers
    assert _embed_notes(res)["waited_for_warmup_ms"] >= 0
    assert res["sources"][0]["title"] == "Ferry times"
