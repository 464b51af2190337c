"""The real thing: a ``ctxd`` process driven by the ``ctx`` CLI, as a user would run them."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import time
from pathlib import Path

import httpx
import openai_server
import pytest
from ctxd import CLI, StderrLog, clean_env, ctx, free_port, start_server, stop, wait_healthy

pytestmark = pytest.mark.slow  # scheduled first (tests/conftest.py)


@pytest.fixture
def base_env(tmp_path: Path) -> dict[str, str]:
    return clean_env(tmp_path / "home")


def test_ctxd_driven_by_the_cli(base_env: dict[str, str], database_url: str) -> None:
    port = free_port()
    env = {**base_env, "CTX_DATABASE_URL": database_url, "CTX_SERVER_PORT": str(port)}
    init = ctx(env, "init", "--json")
    assert init.returncode == 0, init.stderr
    first = json.loads(init.stdout)
    assert first["url"] == f"http://127.0.0.1:{port}"
    assert first["api_key"].startswith("ctx_")
    again = json.loads(ctx(env, "init", "--json").stdout)
    assert again["api_key"] is None  # shown once only

    server = start_server(env)
    try:
        wait_healthy(first["url"], server)
        user = {**env, "CTX_URL": first["url"], "CTX_API_KEY": first["api_key"]}
        up = ctx(user, "health")
        assert up.returncode == 0 and up.stdout.startswith("ctx 0.") and ": ok" in up.stdout

        saved = ctx(
            user,
            "save",
            "Deploy checklist",
            "--category",
            "ops",
            "--tags",
            "deploy",
            "--json",
            stdin="Run migrations first, then roll the web nodes one by one.",
        )
        assert saved.returncode == 0, saved.stderr
        block = json.loads(saved.stdout)
        assert block["action"] == "created" and block["scope"] == "default"

        found = json.loads(ctx(user, "search", "migrations", "--json").stdout)
        assert [r["id"] for r in found["results"]] == [block["id"]]

        answer = json.loads(ctx(user, "query", "how do we roll out a release", "--json").stdout)
        assert answer["sources"] and answer["sources"][0]["id"] == block["id"]
        explained = ctx(user, "query", "deploy checklist", "--explain")
        assert explained.returncode == 0, explained.stderr
        assert "channels: " in explained.stdout and "fts_en #1" in explained.stdout
        assert "stages (ms): scopes " in explained.stdout and " sources " in explained.stdout
        assert "time:" not in explained.stdout  # the question named no time

        # a question that names a time says which, as the query used it: answer streamed or not
        asked = "what did we decide last week about deploys?"
        parsed = json.loads(ctx(user, "query", asked, "--json").stdout)["temporal"]
        said = f"time: {parsed['start']} – {parsed['end']} (en.relative_week, past)"
        for mode in ([], ["--no-answer"]):
            timed = ctx(user, "query", asked, *mode)
            assert timed.returncode == 0, timed.stderr
            assert said in timed.stdout.splitlines()

        shown = json.loads(ctx(user, "get", block["id"][:8], "--json").stdout)
        assert shown["content"].startswith("Run migrations first")

        stats = json.loads(ctx(user, "stats", "--json").stdout)
        assert stats["blocks"] == 1

        edited = ctx(user, "edit", block["id"][:8], "--title", "Deploy runbook [v2]")
        assert edited.returncode == 0, edited.stderr
        assert "[v2]" in edited.stdout and "default/ops" in edited.stdout  # no markup eaten
        assert ctx(user, "archive", block["id"][:8]).returncode == 0
        assert json.loads(ctx(user, "search", "migrations", "--json").stdout)["count"] == 0
        assert ctx(user, "unarchive", block["id"][:8]).returncode == 0
        shown = json.loads(ctx(user, "get", block["id"][:8], "--json").stdout)
        assert shown["title"] == "Deploy runbook [v2]" and not shown["is_archived"]

        bad = ctx(user, "get", "nothex!")
        assert bad.returncode == 2
        assert bad.stderr.strip().startswith("ctx:") and "Traceback" not in bad.stderr
        assert len(bad.stderr.strip().splitlines()) == 1

        wrong_key = ctx({**user, "CTX_API_KEY": "ctx_wrong"}, "stats")
        assert wrong_key.returncode == 2 and "invalid API key" in wrong_key.stderr

        deleted = ctx(user, "delete", block["id"], "--json")
        assert json.loads(deleted.stdout)["action"] == "deleted"
        assert json.loads(ctx(user, "stats", "--json").stdout)["blocks"] == 0
    finally:
        code = stop(server)
    assert code == 0


def test_embedded_postgres_starts_and_stops_with_ctxd(base_env: dict[str, str]) -> None:
    port = free_port()
    env = {**base_env, "CTX_SERVER_PORT": str(port), "CTX_EMBED_PROVIDER": "none-for-this-test"}
    init = ctx(env, "init", "--json")
    assert init.returncode == 0, init.stderr
    info = json.loads(init.stdout)
    pgdata = Path(env["CTX_HOME"]) / "pg"
    assert (pgdata / "PG_VERSION").exists()
    assert "host=" in info["database"] and str(pgdata) in info["database"]

    server = start_server(env)
    try:
        wait_healthy(info["url"], server)
        assert (pgdata / "postmaster.pid").exists()
        doctor = ctx(env, "doctor", "--json")
        report = json.loads(doctor.stdout)
        names = {c["name"]: c["ok"] for c in report["checks"]}
        assert names["extension vector"] and names["extension pg_trgm"]
        assert names["migrations"]
    finally:
        code = stop(server)
    assert code == 0
    deadline = time.monotonic() + 20
    while (pgdata / "postmaster.pid").exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not (pgdata / "postmaster.pid").exists(), "the embedded PostgreSQL kept running"


def test_a_busy_port_is_one_line_and_exit_2(base_env: dict[str, str], database_url: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {**base_env, "CTX_DATABASE_URL": database_url}
        result = ctx(env, "serve", "--port", str(port))
    assert result.returncode == 2
    assert result.stderr.strip() == (
        f"ctx: port {port} on 127.0.0.1 is already in use: is another ctxd running? Choose one "
        "with --port or CTX_SERVER_PORT"
    )
    assert "listening" not in result.stderr


def test_serve_init_prints_url_and_key_only_once_the_port_is_bound(
    base_env: dict[str, str], database_url: str
) -> None:
    """`make run` is `ctx serve --init`: a busy port says so and nothing else (no key, no export
    line); a free one prints the key the first time, then says it was shown."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**base_env, "CTX_DATABASE_URL": database_url, "CTX_SERVER_PORT": str(port)}
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", port))
        taken.listen()
        busy = ctx(env, "serve", "--init")
    assert busy.returncode == 2 and busy.stdout == ""
    assert busy.stderr.startswith(f"ctx: port {port} on 127.0.0.1 is already in use")
    assert len(busy.stderr.strip().splitlines()) == 1

    first = start_server(env, "--init")
    try:
        wait_healthy(url, first)
    finally:
        assert stop(first) == 0
    shown = first.stdout.read() if first.stdout else ""
    found = re.search(r"export CTX_URL=(\S+) CTX_API_KEY=(ctx_\S+)", shown)
    assert found is not None and found[1] == url, shown
    assert f"Or open {url}/ in a browser" in shown

    again = start_server(env, "--init")
    try:
        wait_healthy(url, again)
        user = {**env, "CTX_URL": url, "CTX_API_KEY": found[2]}
        stats = ctx(user, "stats", "--json")
        assert stats.returncode == 0 and json.loads(stats.stdout)["blocks"] == 0
    finally:
        assert stop(again) == 0
    later = again.stdout.read() if again.stdout else ""
    assert "The admin key was shown when ctx was first initialised" in later
    assert "CTX_API_KEY" not in later


def test_health_and_doctor_say_whether_the_server_is_up(
    base_env: dict[str, str], database_url: str
) -> None:
    env = {**base_env, "CTX_DATABASE_URL": database_url, "CTX_SERVER_PORT": str(free_port())}
    down = ctx(env, "health")
    assert down.returncode == 1 and "cannot reach ctx at http://127.0.0.1:" in down.stdout
    report = json.loads(ctx(env, "doctor", "--json").stdout)
    checks = {c["name"]: c for c in report["checks"]}
    assert checks["migrations"]["ok"] or checks["connection"]["ok"]  # the database side answers
    assert checks["server"]["ok"] is False and report["ok"] is False
    text = ctx(env, "doctor").stdout
    assert "not ok: server" in text


def test_one_sigterm_stops_ctxd_while_a_request_waits_on_a_stalled_model(
    base_env: dict[str, str], database_url: str
) -> None:
    """A query whose answer waits on a model that never replies: SIGTERM cancels it after the
    graceful shutdown, and the process exits then, not when the model call gives up (the
    request's worker thread used to hold the process for as long as the call lasted)."""
    port = free_port()
    env = {**base_env, "CTX_DATABASE_URL": database_url, "CTX_SERVER_PORT": str(port)}
    init = json.loads(ctx(env, "init", "--json").stdout)
    with openai_server.OpenAIServer() as model:
        made = ctx(env, "backends", "create", "lan", "--url", model.base_url, "--role",
                   "synthesis", "--model", "default=tiny", "--trust", "full-trust")  # fmt: skip
        assert made.returncode == 0, made.stderr
        server = start_server(env)
        try:
            wait_healthy(init["url"], server)
            user = {**env, "CTX_URL": init["url"], "CTX_API_KEY": init["api_key"]}
            saved = ctx(user, "save", "Backups", stdin="Backups run every night at two.")
            assert saved.returncode == 0, saved.stderr
            model.reset(chat="hang")
            asking = subprocess.Popen(
                [*CLI, "query", "when do backups run"],
                env=user,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            deadline = time.monotonic() + 60
            while not any(r.path == "/v1/chat/completions" for r in model.requests):
                assert time.monotonic() < deadline, "the query never reached the model"
                time.sleep(0.05)
            server.send_signal(signal.SIGTERM)
            try:
                code = server.wait(timeout=40)  # the model would hang for 120 s
            except subprocess.TimeoutExpired:
                raise AssertionError("ctxd outlived one SIGTERM") from None
            asking.wait(timeout=60)
        finally:
            if server.poll() is None:
                server.kill()
                server.wait()
    assert code == 0
    assert "stopping with 1 request thread(s) still running" in (
        server.stderr.read() if server.stderr else ""
    )


def _health(url: str) -> int | None:
    try:
        return httpx.get(url + "/health", timeout=2).status_code
    except httpx.HTTPError:
        return None


def test_ctxd_restarts_its_embedded_postgres_after_the_postmaster_is_killed(
    base_env: dict[str, str],
) -> None:
    """kill -9 of the embedded cluster's postmaster: ctxd notices, starts the cluster again and
    serves writes and reads; it still stops the new cluster when it stops."""
    port = free_port()
    with openai_server.OpenAIServer(native_dimensions=32) as embedder:
        env = {
            **base_env,
            "CTX_SERVER_PORT": str(port),
            "CTX_EMBED_PROVIDER": "openai",
            "CTX_EMBED_BASE_URL": embedder.base_url,
            "CTX_EMBED_MODEL": "m",
            "CTX_EMBED_DIMENSIONS": "16",
        }
        made = ctx(env, "init", "--json")
        assert made.returncode == 0, made.stderr
        init = json.loads(made.stdout)
        url, headers = init["url"], {"Authorization": f"Bearer {init['api_key']}"}
        pgdata = Path(env["CTX_HOME"]) / "pg"
        server = start_server(env)
        log = StderrLog(server)  # the restart logs much: a full pipe would stop ctxd
        try:
            wait_healthy(url, server)
            first = int((pgdata / "postmaster.pid").read_text().split()[0])
            os.kill(first, signal.SIGKILL)
            deadline = time.monotonic() + 60
            while _health(url) == 200:  # until ctxd sees the database gone
                assert time.monotonic() < deadline, "the killed database still answered"
                time.sleep(0.1)
            while _health(url) != 200:  # and back
                assert server.poll() is None, "ctxd exited"
                assert time.monotonic() < deadline, (
                    f"the database did not come back:\n{log.so_far()}"
                )
                time.sleep(0.2)
            second = int((pgdata / "postmaster.pid").read_text().split()[0])
            assert second != first

            stored = httpx.post(
                url + "/api/store",
                json={"title": "After the crash", "content": "The cluster came back by itself."},
                headers=headers,
                timeout=30,
            )
            assert stored.status_code == 200, stored.text
            found = httpx.post(
                url + "/api/search", json={"query": "came back"}, headers=headers, timeout=30
            )
            assert found.status_code == 200, found.text
            assert [r["id"] for r in found.json()["results"]] == [stored.json()["id"]]
        finally:
            code = stop(server)
    assert code == 0
    said = log.text()
    assert "the embedded PostgreSQL stopped" in said and "restarted the embedded PostgreSQL" in said
    deadline = time.monotonic() + 20
    while (pgdata / "postmaster.pid").exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not (pgdata / "postmaster.pid").exists(), "the restarted PostgreSQL kept running"
