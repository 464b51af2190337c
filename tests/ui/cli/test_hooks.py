"""The agent hooks as Claude Code runs them: the real ``ctx`` CLI, a hook payload on stdin, one
real ``ctxd`` for the module."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from ctxd import CLI, clean_env, ctx, free_port, start_server, stop, wait_healthy
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from ctx.core import App

DATA = Path(__file__).parent / "data"
QUIET = {"continue": True, "suppressOutput": True}


@dataclass
class Server:
    env: dict[str, str]  # CTX_URL and CTX_API_KEY set: what an agent's hook sees
    url: str
    key: str
    root: Path

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = httpx.post(
            self.url + path, json=body, headers={"X-Context-Key": self.key}, timeout=30
        )
        assert response.status_code < 400, response.text
        return dict(response.json())

    def save(self, title: str, content: str, category: str, tags: list[str] = []) -> str:  # noqa: B006
        body = {"title": title, "content": content, "category": category, "tags": tags}
        return str(self.post("/api/store", body)["id"])

    def blocks(self, category: str) -> list[dict[str, Any]]:
        rows = self.post("/api/manage", {"action": "list", "category": category})["blocks"]
        return [self.post("/api/manage", {"action": "get", "id": r["id"]})["block"] for r in rows]


@pytest.fixture(scope="module")
def server(
    pg_admin_url: str, template_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    name = "t_hooks_" + uuid.uuid4().hex[:8]
    with psycopg.connect(pg_admin_url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "ctx_test_template"')
    params = conninfo_to_dict(pg_admin_url)
    params["dbname"] = name
    root = tmp_path_factory.mktemp("hooks")
    port = free_port()
    env = {
        **clean_env(root / "home"),
        "CTX_DATABASE_URL": make_conninfo(**params),  # type: ignore[arg-type]
        "CTX_SERVER_PORT": str(port),
    }
    init = ctx(env, "init", "--json")
    assert init.returncode == 0, init.stderr
    key = json.loads(init.stdout)["api_key"]
    proc = start_server(env)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc)
        agent_env = {**env, "CTX_URL": url, "CTX_API_KEY": key}
        del agent_env["CTX_DATABASE_URL"]  # an agent's hook knows the server, not the database
        yield Server(agent_env, url, key, root)
    finally:
        stop(proc)
        with psycopg.connect(pg_admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def project_dir(root: Path, name: str, git: bool = True) -> Path:
    folder = root / name / "src" / "app"
    folder.mkdir(parents=True, exist_ok=True)
    if git:
        (root / name / ".git").mkdir(exist_ok=True)
    return folder


def run_hook(
    env: dict[str, str], *args: str | bytes, stdin: str = "", timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """``ctx ARGS`` as an agent runs a hook; exit 0 and an empty stderr are asserted."""
    done = subprocess.run(
        [*CLI, *args], env=env, input=stdin, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done


def hook(
    env: dict[str, str], command: str, payload: dict[str, Any] | str, timeout: float = 120
) -> dict[str, Any]:
    raw = payload if isinstance(payload, str) else json.dumps(payload)
    done = run_hook(env, command, "--hook", stdin=raw, timeout=timeout)
    answer = json.loads(done.stdout)
    assert answer["continue"] is True and answer["suppressOutput"] is True
    return dict(answer)


def payload(event: str, cwd: Path, **fields: Any) -> dict[str, Any]:
    return {
        "session_id": "5d1c2b0e-8a4f-4c3e-9b7a-2f6e1d0c9a31",
        "transcript_path": str(DATA / "transcript.jsonl"),
        "cwd": str(cwd),
        "permission_mode": "default",
        "hook_event_name": event,
        **fields,
    }


def test_brief_gives_the_projects_briefing_then_the_untagged_one(server: Server) -> None:
    tagged = server.save("Shop conventions", "Money is integer cents.", "agent-briefing", ["shop"])
    server.save("Shop deploys", "Deploy with `make ship`.", "agent-briefing", ["shop", "ops"])
    server.save("Everyone", "Answer in English.", "agent-briefing")
    server.save("Blog style", "Short paragraphs.", "agent-briefing", ["blog"])
    server.save("Shop lore", "Not a briefing.", "notes", ["shop"])

    cwd = project_dir(server.root, "shop")  # a subfolder: the project is the git root's name
    answer = hook(
        server.env, "brief", payload("SubagentStart", cwd, agent_id="a1", agent_type="Explore")
    )
    out = answer["hookSpecificOutput"]
    assert out["hookEventName"] == "SubagentStart"
    text = out["additionalContext"]
    assert "Shop conventions [agent-briefing · " + tagged[:8] + "]" in text
    assert "Money is integer cents." in text and "make ship" in text
    assert "Everyone" not in text and "Blog style" not in text and "Shop lore" not in text

    elsewhere = project_dir(server.root, "scratch", git=False)  # no git: the folder's own name
    answer = hook(server.env, "brief", payload("SessionStart", elsewhere, source="startup"))
    text = answer["hookSpecificOutput"]["additionalContext"]
    assert answer["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert "Everyone" in text and "Shop conventions" not in text and "'app'" in text

    human = ctx(server.env, "brief", "--project", "shop", "--limit", "1")
    assert human.returncode == 0, human.stderr
    assert "Shop deploys" in human.stdout and "Shop conventions" not in human.stdout  # newest


def test_recall_adds_the_relevant_blocks_within_the_budget(server: Server) -> None:
    long_text = "Rotate the signing keys every quarter with `ops/rotate.sh`. " + "Details. " * 400
    block = server.save("Signing key rotation", long_text, "runbooks")
    server.save("Lunch places", "The ramen place on Elm Street closes at three.", "notes")
    cwd = project_dir(server.root, "shop")
    env = {**server.env, "CTX_HOOKS_RECALL_BUDGET": "200"}
    prompt = "how do we rotate the signing keys?"
    answer = hook(env, "recall", payload("UserPromptSubmit", cwd, prompt=prompt))
    out = answer["hookSpecificOutput"]
    assert out["hookEventName"] == "UserPromptSubmit"
    text = out["additionalContext"]
    assert f"Signing key rotation [runbooks · {block[:8]}]" in text
    assert "ops/rotate.sh" in text and text.endswith("…")  # cut to the budget
    assert len(text) <= 200 * 4 and "ramen" not in text

    unrelated = payload("UserPromptSubmit", cwd, prompt="paint the bikeshed green")
    assert hook(server.env, "recall", unrelated) == QUIET  # nothing confident: nothing added


def test_persist_stores_each_marker_once_with_its_metadata(server: Server) -> None:
    cwd = project_dir(server.root, "shop")
    stop_payload = payload("Stop", cwd, stop_hook_active=False)
    assert hook(server.env, "persist", stop_payload) == QUIET
    decisions = server.blocks("decisions")
    assert [b["title"] for b in decisions] == ["Checkout retries use the monotonic clock"]
    kept = decisions[0]
    assert kept["content"].startswith("The retry backoff in shop/payments/retry.py")
    assert kept["tags"] == ["shop"]
    assert kept["metadata"] == {
        "session_id": "5d1c2b0e-8a4f-4c3e-9b7a-2f6e1d0c9a31",
        "host": socket.gethostname(),
        "project": "shop",
        "agent": "claude-code",
    }
    briefing = [
        b for b in server.blocks("agent-briefing") if b["title"] == "Running the shop tests"
    ]
    assert len(briefing) == 1 and "STRIPE_FAKE=1 pytest" in briefing[0]["content"]
    quoted = {"Not this one", "Inside code"}  # an earlier message's marker, a marker in code
    assert not [b for b in server.blocks("notes") if b["title"] in quoted]

    before = server.post("/api/manage", {"action": "stats"})["stats"]["blocks"]
    again = {**stop_payload, "stop_hook_active": True}  # the hook fires a second time
    assert hook(server.env, "persist", again) == QUIET
    assert server.post("/api/manage", {"action": "stats"})["stats"]["blocks"] == before
    assert server.blocks("decisions")[0]["id"] == kept["id"]

    sub = payload(
        "SubagentStop",
        cwd,
        stop_hook_active=False,
        agent_id="a7f3c2e1",
        agent_type="Explore",
        agent_transcript_path=str(DATA / "agent-a7f3c2e1.jsonl"),
    )
    assert hook(server.env, "persist", sub) == QUIET
    [invoice] = [b for b in server.blocks("notes") if b["title"] == "Invoice PDF rendering"]
    assert invoice["metadata"]["agent"] == "Explore"
    assert invoice["metadata"]["agent_id"] == "a7f3c2e1"

    by_hand = ctx(server.env, "persist", "-p", "shop", "--json", stdin="[PERSIST:notes:By hand]\nx")
    assert by_hand.returncode == 0, by_hand.stderr
    assert [s["action"] for s in json.loads(by_hand.stdout)["stored"]] == ["created"]


def test_every_hook_degrades_silently(server: Server, tmp_path: Path) -> None:
    cwd = project_dir(tmp_path, "shop")
    down = {**server.env, "CTX_URL": f"http://127.0.0.1:{free_port()}"}
    no_key = {k: v for k, v in server.env.items() if k != "CTX_API_KEY"}
    # A server that takes the connection and never answers: the timeout ends the hook.
    stuck = socket.socket()
    stuck.bind(("127.0.0.1", 0))
    stuck.listen(8)
    slow = {
        **server.env,
        "CTX_URL": f"http://127.0.0.1:{stuck.getsockname()[1]}",
        "CTX_HOOKS_TIMEOUT": "1",
    }
    events = {"brief": "SessionStart", "recall": "UserPromptSubmit", "persist": "Stop"}
    cases = []
    for command, event in events.items():
        good = payload(event, cwd, prompt="how do we rotate the signing keys?")
        cases += [
            (down, command, good),
            (no_key, command, good),
            (server.env, command, "{not json"),
        ]
        cases.append((slow, command, good))
    missing = payload("Stop", cwd, transcript_path=str(tmp_path / "gone.jsonl"))
    cases += [(server.env, "persist", missing), (server.env, "brief", "")]

    def run(case: tuple[dict[str, str], str, Any]) -> dict[str, Any]:
        # a server that never answers would hang a hook without its deadline until the
        # subprocess timeout fails the test: no timing assertion needed. A hook allowed 1 s
        # that is still running after 30 s is broken, so the slow cases fail fast.
        return hook(case[0], case[1], case[2], timeout=30 if case[0] is slow else 120)

    try:
        with ThreadPoolExecutor(4) as pool:
            results = list(pool.map(run, cases))
    finally:
        stuck.close()
    assert all(answer == QUIET for answer in results)


def test_persist_finishes_on_hostile_input(server: Server, tmp_path: Path) -> None:
    # A signal cannot stop work inside one regex match or one read() call, so hooks.timeout
    # bounds neither: the input itself must bound the work. A regression runs into the 30 s
    # subprocess timeout (no timing assertion: those are flaky).
    cwd = project_dir(tmp_path, "fences")
    fences = "```x\n" * 20_000 + "[PERSIST:notes:After twenty thousand fences]\nStill found."
    stop_payload = payload("Stop", cwd, last_assistant_message=fences)
    assert hook(server.env, "persist", stop_payload, timeout=30) == QUIET
    [kept] = [b for b in server.blocks("notes") if b["title"] == "After twenty thousand fences"]
    assert kept["content"] == "Still found."

    endless = payload("Stop", cwd, transcript_path="/dev/zero")  # no size, no end, no newline
    assert hook(server.env, "persist", endless, timeout=30) == QUIET


def test_hook_json_is_ascii_whatever_the_console_encoding(server: Server, tmp_path: Path) -> None:
    server.save(
        "Kiosk launch \U0001f680", "Ship it \U0001f680 on Fridays.", "agent-briefing", ["kiosk"]
    )
    cwd = project_dir(tmp_path, "kiosk")
    windows = {**server.env, "PYTHONIOENCODING": "cp1252"}  # a Windows pipe
    done = run_hook(windows, "brief", "--hook", stdin=json.dumps(payload("SessionStart", cwd)))
    assert done.stdout.isascii()
    text = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "## Kiosk launch \U0001f680 [agent-briefing" in text and "Ship it \U0001f680" in text


def test_a_hook_that_cannot_start_answers_quietly(tmp_path: Path) -> None:
    # settings written for another ctx version: exit 2 would erase the user's prompt
    # (UserPromptSubmit) or keep a stopping agent going (Stop)
    env = clean_env(tmp_path / "home")
    stdin = json.dumps(payload("Stop", tmp_path, prompt="hello"))
    for args in [
        ("recall", "--hook", "--bogus"),
        ("persist", "--hook", "--nope"),
        ("brief", "--hook", "--limit", "0"),
        ("recall", "--hook", b"\xff"),  # an argument that is not UTF-8
    ]:
        done = run_hook(env, *args, stdin=stdin, timeout=30)
        assert json.loads(done.stdout) == QUIET, args
    debug = {**env, "CTX_HOOKS_DEBUG": "1"}
    done = subprocess.run(
        [*CLI, "recall", "--hook", "--bogus"], env=debug, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0 and json.loads(done.stdout) == QUIET
    assert done.stderr == "ctx: recall hook: No such option: --bogus\n"


def test_statusline_up_and_down(server: Server) -> None:
    claude_json = json.dumps({"session_id": "s", "model": {"display_name": "Opus"}, "cwd": "/"})
    up = ctx(server.env, "statusline", stdin=claude_json)
    blocks = server.post("/api/manage", {"action": "stats"})["stats"]["blocks"]
    assert up.returncode == 0
    assert re.fullmatch(rf"ctx: {blocks} blocks(, \d+ jobs pending)?\n", up.stdout)
    no_key = {k: v for k, v in server.env.items() if k != "CTX_API_KEY"}
    assert ctx(no_key, "statusline", stdin="").stdout == "ctx: online (no API key)\n"
    down = ctx({**server.env, "CTX_URL": f"http://127.0.0.1:{free_port()}"}, "statusline")
    assert down.returncode == 0 and down.stdout == "ctx: offline\n" and down.stderr == ""


def test_the_hook_settings_come_from_the_environment() -> None:
    app = App(builtins=("cli",), load_entry_points=False, environ={"CTX_HOOKS_TIMEOUT": "2.5"})
    assert app.settings.resolve("hooks.timeout") == (2.5, "env")
    assert app.settings.resolve("hooks.recall_budget") == (1500, "default")


def test_a_hook_loads_no_database_or_model_code(tmp_path: Path) -> None:
    """The hooks run on every prompt: they must not pay for psycopg, sqlmodel or numpy (about a
    second of imports), which the lazy facades of ctx.core keep out of their way."""
    probe = (
        "import sys\n"
        "from ctx.ui.cli.root import run\n"
        "run(['recall', '--hook'])\n"
        "heavy = ('psycopg', 'sqlmodel', 'sqlalchemy', 'numpy', 'pgvector', 'fastapi')\n"
        "print(','.join(m for m in heavy if m in sys.modules), file=sys.stderr)\n"
    )
    env = {
        **clean_env(tmp_path / "home"),
        "CTX_URL": f"http://127.0.0.1:{free_port()}",
        "CTX_API_KEY": "ctx_x",
    }
    done = subprocess.run(
        [sys.executable, "-c", probe],
        input=json.dumps({"hook_event_name": "UserPromptSubmit", "prompt": "deploys?"}),
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and json.loads(done.stdout) == QUIET
    assert done.stderr.strip() == ""  # not one heavy module was imported


def test_the_paths_the_hooks_post_to_are_their_operations_routes(app: App) -> None:
    """The hooks skip importing the declarations (their models cost time on every prompt), so
    the paths they keep must be the declared routes of the operations they name."""
    from ctx.ui.cli.agent_memory import ROUTES

    for name, path in ROUTES.items():
        rest = app.operations[name].rest
        assert rest is not None and rest.path == path and rest.method == "POST", name
