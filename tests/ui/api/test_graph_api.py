"""The graph and digest endpoints over HTTP, and ``ctx digest`` against a live server."""

from __future__ import annotations

import json
from typing import Any

import pytest
from backend_kit import add_backend
from live import live_server

from ctx.core import App, graph
from ctx.core.runtime import drain
from ctx.ui.cli.root import run


def _store(client: Any, headers: dict[str, str], title: str) -> str:
    r = client.post("/api/store", json={"title": title, "content": f"Body of {title}."},
                    headers=headers)  # fmt: skip
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


@pytest.fixture
def alpha(keys: Any) -> dict[str, str]:
    return {"X-Context-Key": keys.make("alpha")}


@pytest.fixture
def linked(app: App, client: Any, alpha: dict[str, str], keys: Any) -> dict[str, str]:
    """Two linked blocks in alpha, two in beta; the map refreshed."""
    beta = {"X-Context-Key": keys.make("beta")}
    ids = {t: _store(client, alpha, t) for t in ("Ingress", "Timeouts")}
    ids.update({t: _store(client, beta, t) for t in ("Payroll", "Salaries")})
    with app.connection() as conn:
        graph.write_link(conn, ids["Ingress"], ids["Timeouts"], "topical", 0.9)
        graph.write_link(conn, ids["Payroll"], ids["Salaries"], "causal", 0.7)
        graph.queue_overview(conn)
    drain(app, "graph.overview")
    return ids


def test_ego_answers_with_readable_nodes_only(
    client: Any, alpha: dict[str, str], linked: dict[str, str]
) -> None:
    r = client.get("/api/graph/ego", params={"id": linked["Ingress"], "depth": 2}, headers=alpha)
    assert r.status_code == 200, r.text
    body = r.json()
    assert {n["title"] for n in body["nodes"]} == {"Ingress", "Timeouts"}
    assert body["edges"][0]["type"] == "topical"
    other = client.get("/api/graph/ego", params={"id": linked["Payroll"]}, headers=alpha)
    assert other.status_code == 404 and other.json()["error"] == "not_found"


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"id": "zz!"},
        {"id": "abcd", "depth": 0},
        {"id": "abcd", "depth": 4},
        {"id": "abcd", "depth": "two"},
        {"id": "abcd", "limit": 0},
        {"id": "abcd", "limit": 1001},
        {"id": "a" * 37},
    ],
)
def test_ego_bad_input_is_a_4xx(client: Any, alpha: dict[str, str], params: Any) -> None:
    r = client.get("/api/graph/ego", params=params, headers=alpha)
    assert 400 <= r.status_code < 500 and r.json()["error"] in ("invalid", "not_found"), r.text


def test_overview_and_digest_show_the_callers_scopes(
    client: Any, alpha: dict[str, str], linked: dict[str, str]
) -> None:
    r = client.get("/api/graph/overview", headers=alpha)
    assert r.status_code == 200, r.text
    body = r.json()
    assert [c["id"] for c in body["clusters"]] == [1]
    assert {t["title"] for t in body["clusters"][0]["titles"]} == {"Ingress", "Timeouts"}
    assert "Payroll" not in r.text and body["refreshed_at"]
    d = client.get("/api/digest", headers=alpha)
    assert d.status_code == 200, d.text
    assert d.json()["clusters"][0]["titles"] == ["Ingress", "Timeouts"]
    assert d.json()["categories"] == [{"category": "general", "blocks": 2}]
    assert "Salaries" not in d.text
    bad = client.get("/api/graph/overview", params={"max_clusters": 0}, headers=alpha)
    assert bad.status_code == 422 and bad.json()["field"] == "query.max_clusters"
    assert client.get("/api/graph/overview").status_code == 401


def test_daily_synthesis_endpoint(app: App, client: Any, srv: Any, alpha: dict[str, str]) -> None:
    _store(client, alpha, "Ingress")
    skipped = client.post("/api/synthesize/daily", headers=alpha)  # no body: today
    assert skipped.status_code == 200, skipped.text
    assert skipped.json()["skipped"].startswith("no digest backend")
    add_backend(app, srv, ["digest"])
    srv.chat_default = "The ingress was written down [1]."
    done = client.post("/api/synthesize/daily", json={}, headers=alpha)
    assert done.status_code == 200, done.text
    body = done.json()
    assert body["action"] == "created" and body["citations"][0]["title"] == "Ingress"
    day = body["day"]
    again = client.post("/api/synthesize/daily", json={"date": day}, headers=alpha)
    assert again.status_code == 200 and again.json()["id"] == body["id"]
    assert again.json()["action"] == "updated"
    old = client.post("/api/synthesize/daily", json={"date": "2001-01-01"}, headers=alpha)
    assert old.status_code == 200 and "nothing was written" in old.json()["skipped"]


@pytest.mark.parametrize(
    "payload",
    [
        {"date": "yesterday"},
        {"date": "2026-13-01"},
        {"date": 20260101},
        {"day": "2026-01-01"},
        [],
    ],
)
def test_daily_synthesis_bad_input_is_a_4xx(
    client: Any, alpha: dict[str, str], payload: Any
) -> None:
    r = client.post("/api/synthesize/daily", json=payload, headers=alpha)
    assert r.status_code == 422 and r.json()["error"] == "invalid", r.text


def test_ctx_digest_commands(
    app: App,
    srv: Any,
    keys: Any,
    linked: dict[str, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    add_backend(app, srv, ["digest"])
    srv.chat_default = "Ingress work [1]."
    with live_server(app) as url:
        monkeypatch.setenv("CTX_URL", url)
        monkeypatch.setenv("CTX_API_KEY", keys.make("alpha"))
        assert run(["digest", "--json"], app=app) == 0
        topic = json.loads(capsys.readouterr().out)
        assert topic["clusters"][0]["titles"] == ["Ingress", "Timeouts"]
        assert run(["digest"], app=app) == 0
        printed = capsys.readouterr().out
        assert "Ingress · Timeouts" in printed and "Payroll" not in printed
        assert run(["digest", "--daily"], app=app) == 0
        assert "Ingress work [1]." in capsys.readouterr().out
        assert run(["digest", "--daily", "--date", "2001-01-01", "--json"], app=app) == 0
        assert "nothing was written" in json.loads(capsys.readouterr().out)["skipped"]
        assert run(["digest", "--daily", "--date", "soon"], app=app) == 2
        assert run(["digest", "--date", "2001-01-01"], app=app) == 2
        assert "--date needs --daily" in capsys.readouterr().err
