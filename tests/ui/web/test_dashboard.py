"""The dashboard (``ctx.ui.web.routes.dashboard``): the job queues after their jobs ran, the
governed threads apart from the blocks."""

from __future__ import annotations

import re

from governor_kit import record_thread
from web_kit import Browser

from ctx.core import App
from ctx.core.runtime import drain, run_kind


def _row(html: str, kind: str) -> list[str]:
    """The cells of a queue's row: kind, waiting, failed, done, total, share, last done."""
    found = re.search(rf"<tr><td>{re.escape(kind)}</td>(.*?)</tr>", html, re.S)
    assert found, html
    return [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>",
                                                                   found.group(1), re.S)]  # fmt: skip


def test_the_queues_show_the_jobs_that_ran(app: App, admin: Browser) -> None:
    """Done jobs leave the queue: the table said "No jobs yet" after they ran."""
    for n in range(3):
        r = admin.client.post("/api/store", json={"title": f"Note {n}", "content": f"Fact {n}."},
                              headers={"X-Context-Key": admin.key})  # fmt: skip
        assert r.status_code == 200, r.text
    waiting = admin.get("/dashboard/queues")
    assert _row(waiting.text, "embed")[:4] == ["3", "0", "0", "3"]
    assert "every 3s" in waiting.text  # it polls while jobs wait
    assert drain(app, "embed") == 3
    done = admin.get("/dashboard/queues")
    assert done.status_code == 200 and "No jobs yet" not in done.text
    waiting_, failed, finished, total, share, last = _row(done.text, "embed")
    assert (waiting_, failed, finished, total) == ("0", "0", "3", "3")
    assert share == "100% 100%" and last == "just now"
    page = admin.get("/")
    assert "<h2>Job queues</h2>" in page.text and "No jobs yet" not in page.text


def test_governed_threads_are_a_tile_of_their_own_not_categories(admin: Browser) -> None:
    h = {"X-Context-Key": admin.key}
    r = admin.client.post("/api/store", json={"title": "Backups", "content": "Nightly.",
                                             "category": "ops"}, headers=h)  # fmt: skip
    assert r.status_code == 200, r.text
    record_thread(admin.client, h, "agent-1", "We moved staging to db-7.", "Noted.")
    page = admin.get("/").text
    tiles = {label: n for n, label in re.findall(
        r'<span class="num">(\d+)</span> ([a-z ]+)</', page)}  # fmt: skip
    assert tiles["blocks"] == "1" and tiles["categories"] == "1"
    assert tiles["governed threads"] == "1"
    assert 'href="/blocks?category=ops"' in page and "thread/" not in page
    assert '<a href="/blocks?type=event">' not in page


def test_the_embedding_backlog_shows_its_rate_and_time_left_until_it_is_gone(
    app: App, admin: Browser
) -> None:
    h = {"X-Context-Key": admin.key}
    for n in range(5):
        r = admin.client.post("/api/store", json={"title": f"Import {n}", "content": f"Row {n}."},
                              headers=h)  # fmt: skip
        assert r.status_code == 200, r.text
    idle = admin.get("/dashboard/queues").text
    assert "5 blocks waiting for embedding; nothing was embedded in the last minute" in idle
    assert '<progress max="5" value="0" aria-label="blocks embedded">' in idle

    assert run_kind(app, app.job_handlers["embed"], 2) == 2  # a worker got through two
    page = admin.get("/").text
    line = re.search(r"3 blocks waiting for embedding at ([\d.]+)/s, about (\d+) s left", page)
    assert line, page
    assert float(line.group(1)) > 0 and '<progress max="5" value="2"' in page
    assert "every 3s" in page  # the panel polls while the backlog drains

    drain(app, "embed")
    done = admin.get("/dashboard/queues").text
    assert "waiting for embedding" not in done and '<progress max="5"' not in done
