"""The Eval page and the Ask page's mark buttons: with and without htmx, CSRF checked, marks
listed and removed, figures of a replay and of a candidate set, a bad candidate named on the
page."""

from __future__ import annotations

import re
from typing import Any

from web_kit import Browser

from ctx.core import App

QUESTION = "What is the idle timeout of the ingress controller?"


def _store(b: Browser, title: str, content: str) -> str:
    r = b.client.post("/api/store", json={"title": title, "content": content},
                      headers={"X-Context-Key": b.key})  # fmt: skip
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


def _marks(app: App) -> list[dict[str, Any]]:
    with app.connection() as conn:
        rows = conn.execute("SELECT id, block_id::text AS block_id, verdict, question "
                            "FROM context_eval_marks ORDER BY id").fetchall()  # fmt: skip
    return [dict(r) for r in rows]


def test_the_ask_page_marks_a_source_and_the_eval_page_scores_it(
    app: App, browser: Browser
) -> None:
    block = _store(browser, "Ingress timeout", "The ingress controller closes idle connections "
                   "after 60 seconds.")  # fmt: skip
    asked = browser.get("/ask", params={"q": QUESTION})
    assert asked.status_code == 200
    assert f'id="mark-{block}"' in asked.text and 'hx-post="/eval/mark"' in asked.text
    assert 'name="verdict" value="answered"' in asked.text

    # without the form's token nothing is marked
    form = {"question": QUESTION, "id": block, "verdict": "answered"}
    assert browser.post("/eval/mark", form, csrf=False).status_code == 403
    assert _marks(app) == []

    marked = browser.post("/eval/mark", form, htmx=True)
    assert marked.status_code == 200
    assert "<html" not in marked.text and "Marked: answered the question" in marked.text
    assert 'aria-pressed="true"' in marked.text
    plain = browser.post("/eval/mark", {**form, "verdict": "not_answered"})
    assert plain.status_code == 303 and plain.headers["location"].startswith("/ask?q=")
    assert [(m["block_id"], m["verdict"]) for m in _marks(app)] == [(block, "not_answered")]
    browser.post("/eval/mark", form, htmx=True)  # answered again
    other = browser.post("/eval/mark", {**form, "id": "00000000-0000-4000-8000-000000000000"},
                         htmx=True)  # fmt: skip
    assert other.status_code == 404 and "no block" in other.text

    page = browser.get("/eval")
    assert page.status_code == 200 and "<h1>Eval</h1>" in page.text and "<html" in page.text
    assert QUESTION in page.text and "Ingress timeout" in page.text
    assert 'hx-target="#eval-figures"' in page.text
    fragment = browser.get("/eval", htmx=True)
    assert fragment.status_code == 200 and "<html" not in fragment.text

    figures = browser.get("/eval", params={"run": "1"}, htmx=True,
                          headers={"HX-Target": "eval-figures"})  # fmt: skip
    assert figures.status_code == 200 and "<h1>Eval</h1>" not in figures.text
    assert "1 question(s) replayed, 1 with an answer marked" in figures.text
    assert re.search(r"<th scope=\"row\">returned</th>\s*<td class=\"num\">1\.000", figures.text)
    compared = browser.get("/eval", params={"run": "1", "settings": "query.rrf_k=60\n"})
    assert compared.status_code == 200 and "query.rrf_k=60" in compared.text
    assert "1.000 → 1.000" in compared.text
    bad = browser.get("/eval", params={"run": "1", "settings": "query.rrf_k=0"}, htmx=True,
                      headers={"HX-Target": "eval-figures"})  # fmt: skip
    assert bad.status_code == 422 and "query.rrf_k: must be &gt;= 1" in bad.text

    mark_id = _marks(app)[0]["id"]
    assert browser.post(f"/eval/marks/{mark_id}/delete", {}, csrf=False).status_code == 403
    removed = browser.post(f"/eval/marks/{mark_id}/delete", {}, htmx=True)
    assert removed.status_code == 200 and removed.text == ""
    assert _marks(app) == []
    assert "No marks yet" in browser.get("/eval").text
