"""Answers end to end: a ``ctxd`` process, a model peer on loopback, the ``ctx`` CLI in between.

The backend is created by a separate ``ctx`` process writing to the database; the running ctxd
picks it up (and later a change to it) through NOTIFY, with no restart.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import openai_server
import pytest
from ctxd import clean_env, ctx, free_port, start_server, stop, wait_healthy

pytestmark = pytest.mark.slow  # scheduled first (tests/conftest.py)


def test_ctx_query_answers_from_a_backend_added_while_ctxd_runs(
    tmp_path: Path, database_url: str
) -> None:
    port = free_port()
    env = {**clean_env(tmp_path / "home"), "CTX_DATABASE_URL": database_url,
           "CTX_SERVER_PORT": str(port)}  # fmt: skip
    init = json.loads(ctx(env, "init", "--json").stdout)
    first, second = openai_server.OpenAIServer().start(), openai_server.OpenAIServer().start()
    server = start_server(env)
    try:
        wait_healthy(init["url"], server)
        user = {**env, "CTX_URL": init["url"], "CTX_API_KEY": init["api_key"]}
        saved = ctx(user, "save", "Backup schedule", "--category", "ops",
                    stdin="Backups run every night at two and are kept for thirty days.")  # fmt: skip
        assert saved.returncode == 0, saved.stderr

        plain = ctx(user, "query", "when do backups run")
        assert plain.returncode == 0, plain.stderr
        assert "Backup schedule" in plain.stdout and "cited:" not in plain.stdout

        made = ctx(env, "backends", "create", "lan", "--url", first.base_url, "--role",
                   "synthesis", "--model", "default=tiny", "--trust", "full-trust")  # fmt: skip
        assert made.returncode == 0, made.stderr
        tested = ctx(env, "backends", "test", "lan")
        assert tested.returncode == 0 and "synthesis" in tested.stdout, tested.stdout

        first.chat_default = "Every night at two [1]."
        deadline = time.monotonic() + 20
        while True:  # ctxd learns of the new row through NOTIFY
            answered = ctx(user, "query", "when do backups run")
            assert answered.returncode == 0, answered.stderr
            if "cited:" in answered.stdout or time.monotonic() > deadline:
                break
            time.sleep(0.3)
        assert "Every night at two [1]." in answered.stdout
        assert "cited: [1] Backup schedule" in answered.stdout

        moved = ctx(env, "backends", "update", "lan", "--url", second.base_url)
        assert moved.returncode == 0, moved.stderr
        second.chat_default = "At two in the night [1]."
        deadline = time.monotonic() + 20
        while not any(r.path == "/v1/chat/completions" for r in second.requests):
            assert time.monotonic() < deadline, "ctxd kept the old backend"
            ctx(user, "query", "when do backups run")
            time.sleep(0.3)

        log = json.loads(ctx(env, "llmlog", "--json").stdout)
        assert {r["backend"] for r in log} == {"lan"} and "request" not in log[0]
        data = json.loads(ctx(user, "query", "when do backups run", "--json").stdout)
        assert data["answer"] == "At two in the night [1]."  # --json asks /api/query, auto
        bare = ctx(user, "query", "when do backups run", "--no-answer")
        assert "cited:" not in bare.stdout and "Backup schedule" in bare.stdout
    finally:
        code = stop(server)
        first.stop()
        second.stop()
    assert code == 0
