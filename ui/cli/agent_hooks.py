"""Agent hooks: ``ctx brief``, ``ctx recall``, ``ctx persist`` and ``ctx statusline``.

With ``--hook`` a command is a Claude Code hook (any agent with the same hook format will do): it
reads the hook's JSON payload on stdin and prints the hook's JSON answer. A hook must never get in
the agent's way, so whatever goes wrong (no server, no key, no payload, no transcript, a slow
server, an option this version does not know) it exits 0 with the quiet answer and nothing on
stderr, within ``hooks.timeout`` seconds: Claude Code reads exit 2 as "block" (a prompt erased, a
stopping agent kept going). ``CTX_HOOKS_DEBUG=1`` names the problem on stderr. The JSON is ASCII
(escaped), so no console encoding can break it.

The hooks talk to ctxd over HTTP like the data commands. They load no plugins and never open the
database (``main.run`` starts them without the full App): an agent runs them on every prompt.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

from ctx.core.client import Client, ClientError, server_url
from ctx.core.errors import CtxError, ValidationError
from ctx.core.runtime import RUNTIME_SETTINGS, Registry, Settings
from ctx.ui.cli.agent_memory import (
    BRIEFING,
    block_heading,
    briefing,
    briefing_text,
    last_message,
    recall_text,
    status_text,
    store_marked,
)
from ctx.ui.cli.agent_settings import SETTINGS as AGENT_SETTINGS
from ctx.ui.cli.clicklib import UsageError, get_current_context
from ctx.ui.cli.common import JsonOpt, console, dump_json, read_stdin_text
from ctx.ui.cli.present import presents
from ctx.ui.cli.transcript import (
    last_assistant_text,
    persist_markers,
    project_of,
    read_payload,
)

if TYPE_CHECKING:
    from ctx.core.app import App

AGENT = "claude-code"
#: The answer that changes nothing: the agent goes on, the transcript shows nothing.
QUIET: dict[str, Any] = {"continue": True, "suppressOutput": True}

#: Most bytes of a payload read from stdin (a stdin that never ends must not hang the hook).
PAYLOAD_BYTES = 16 * 1024 * 1024

HookOpt = Annotated[
    bool, typer.Option("--hook", help="Run as an agent hook: JSON payload on stdin, JSON out.")
]


class TimeUp(BaseException):
    """The hook ran out of time (a BaseException, so no library's ``except Exception`` eats it)."""


@dataclass
class Hook:
    """One hook run: its payload, the settings and a client that keeps to the deadline."""

    payload: dict[str, Any]
    app: App | HookApp
    client: Client
    deadline: float

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        left = self.deadline - time.monotonic()
        if left <= 0.05:
            raise TimeUp
        self.client.timeout = left
        return self.client.post(path, body)

    @property
    def cwd(self) -> str:
        cwd = self.payload.get("cwd")
        return cwd if isinstance(cwd, str) and cwd else os.getcwd()

    def event(self, default: str) -> str:
        name = self.payload.get("hook_event_name")
        return name if isinstance(name, str) and name else default


@dataclass(frozen=True)
class HookApp:
    """What a hook reads of an App: its settings. Built from the few settings the hooks use
    (defaults and environment), so a hook loads neither the plugins nor the database code."""

    settings: Settings

    @classmethod
    def light(cls) -> HookApp:
        registry = Registry()
        for setting in (*RUNTIME_SETTINGS, *AGENT_SETTINGS):
            if setting.key.startswith(("server.", "hooks.")):
                registry.add(setting)
        return cls(Settings(registry, dict(os.environ)))


def light_app() -> App | HookApp:
    """The invocation's App (tests hand one in), or the hooks' light stand-in."""
    ctx = get_current_context(silent=True)
    obj = ctx.obj if ctx is not None else None
    return obj if obj is not None and hasattr(obj, "settings") else HookApp.light()


def client_for(app: App | HookApp, timeout: float) -> Client:
    return Client(url=os.environ.get("CTX_URL") or server_url(app), timeout=timeout)


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise ``TimeUp`` after ``seconds``, wherever the work is (a blocking read included)."""
    if (
        not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield  # the HTTP timeouts still apply
        return

    def _up(signum: int, frame: FrameType | None) -> None:
        raise TimeUp

    previous = signal.signal(signal.SIGALRM, _up)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _debug(name: str, exc: BaseException) -> None:
    if os.environ.get("CTX_HOOKS_DEBUG", "").strip().lower() in {"1", "true", "yes", "on"}:
        if isinstance(exc, TimeUp):
            message = "timed out (hooks.timeout)"
        elif isinstance(exc, CtxError):
            message = exc.message
        elif isinstance(exc, UsageError):
            message = exc.format_message()
        else:
            message = exc.__class__.__name__
        sys.stderr.write(f"ctx: {name} hook: {message}\n")


def run_hook(name: str, work: Callable[[Hook], dict[str, Any] | None]) -> None:
    """Run a hook's ``work`` and print its answer, or ``QUIET`` when anything goes wrong."""
    answer: dict[str, Any] | None = None
    try:
        app = light_app()
        seconds = float(app.settings["hooks.timeout"])
    except Exception as exc:  # a bad CTX_ variable: the agent must not notice
        _debug(name, exc)
        app, seconds = None, 5.0
    try:
        with time_limit(seconds):
            raw = sys.stdin.buffer.read(PAYLOAD_BYTES) if hasattr(sys.stdin, "buffer") else b""
            payload = read_payload(raw.decode("utf-8", errors="replace"))
            if app is not None and payload:
                hook = Hook(payload, app, client_for(app, seconds), time.monotonic() + seconds)
                answer = work(hook)
    except (Exception, TimeUp) as exc:
        _debug(name, exc)
        answer = None
    _answer(answer or QUIET)


def _answer(answer: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(answer, ensure_ascii=True) + "\n")
    sys.stdout.flush()


def fail_quietly(name: str, exc: BaseException) -> None:
    """What a hook does when it cannot even start (an unknown option, an argument that is not
    text, a crash): the quiet answer, as if ctx were offline."""
    _debug(name, exc)
    with suppress(Exception):  # stdout is closed: nobody is listening
        _answer(QUIET)


def with_context(event: str, text: str) -> dict[str, Any]:
    return {
        **QUIET,
        "hookSpecificOutput": {"hookEventName": event, "additionalContext": text},
    }


# -- brief ---------------------------------------------------------------------------------------


def _brief_hook(project: str | None, limit: int) -> Callable[[Hook], dict[str, Any] | None]:
    def work(hook: Hook) -> dict[str, Any] | None:
        name = project or project_of(hook.cwd)
        blocks = briefing(hook.post, name, limit)
        if not blocks:
            return None
        budget = int(hook.app.settings["hooks.brief_budget"])
        return with_context(hook.event("SessionStart"), briefing_text(name, blocks, budget))

    return work


ProjectOpt = Annotated[
    str | None,
    typer.Option(
        "--project", "-p", help="Project tag (default: the git root's name of the directory)."
    ),
]


@presents("blocks.manage")
def brief(
    hook: HookOpt = False,
    project: ProjectOpt = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=200, help="Most blocks.")] = 20,
    as_json: JsonOpt = False,
) -> None:
    """The project's agent-briefing blocks (SessionStart and SubagentStart hook)."""
    if hook:
        run_hook("brief", _brief_hook(project, limit))
        return
    name = project or project_of(os.getcwd())
    blocks = briefing(client_for(light_app(), 60).post, name, limit)
    if as_json:
        dump_json({"project": name, "blocks": blocks})
        return
    if not blocks:
        console.print(f"no {BRIEFING} blocks for project {name!r} (nor untagged ones)")
    for b in blocks:
        console.print(Text(block_heading(b), style="bold"))
        console.print(b["content"].strip(), markup=False)
        console.print()


# -- recall --------------------------------------------------------------------------------------


def _recall_hook(hook: Hook) -> dict[str, Any] | None:
    prompt = hook.payload.get("prompt")
    if not isinstance(prompt, str):
        return None
    text = recall_text(hook.post, prompt, int(hook.app.settings["hooks.recall_budget"]))
    return with_context(hook.event("UserPromptSubmit"), text) if text else None


@presents("retrieval.query", "blocks.manage")
def recall(
    prompt: Annotated[
        str | None, typer.Argument(help="Without --hook: the prompt to recall memory for.")
    ] = None,
    hook: HookOpt = False,
) -> None:
    """Memory relevant to a prompt, within hooks.recall_budget tokens (UserPromptSubmit hook)."""
    if hook:
        run_hook("recall", _recall_hook)
        return
    if not prompt:
        raise ValidationError("no prompt: pass one, or use --hook with the hook's JSON on stdin")
    app = light_app()
    text = recall_text(client_for(app, 60).post, prompt, int(app.settings["hooks.recall_budget"]))
    console.print(text or "nothing confident enough to recall", markup=False)


# -- persist -------------------------------------------------------------------------------------


def _persist_hook(hook: Hook) -> dict[str, Any] | None:
    # Stop hooks that block can loop (stop_hook_active says the agent already went on after a
    # Stop hook). This one never blocks, and the upsert makes a second run harmless, so the
    # markers of a turn that followed a blocking hook are still kept.
    blocks = persist_markers(last_message(hook.payload))
    if not blocks:
        return None
    project = project_of(hook.cwd)
    agent = hook.payload.get("agent_type")
    metadata: dict[str, Any] = {
        "session_id": hook.payload.get("session_id"),
        "host": socket.gethostname(),
        "project": project,
        "agent": agent if isinstance(agent, str) and agent else AGENT,
    }
    if isinstance(hook.payload.get("agent_id"), str):
        metadata["agent_id"] = hook.payload["agent_id"]
    store_marked(hook.post, blocks, project, metadata)
    return None


@presents("blocks.store")
def persist(
    hook: HookOpt = False,
    transcript: Annotated[
        Path | None,
        typer.Option(
            "--transcript",
            metavar="FILE",
            help="Without --hook: a Claude Code transcript instead of stdin.",
        ),
    ] = None,
    project: ProjectOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Store the [PERSIST:category:title] blocks of the agent's last message (Stop and
    SubagentStop hook); without --hook, of the message on stdin."""
    if hook:
        run_hook("persist", _persist_hook)
        return
    if transcript is not None and not transcript.is_file():
        raise ValidationError(f"no transcript at {transcript}")
    text = last_assistant_text(transcript) if transcript else read_stdin_text()
    blocks = persist_markers(text)
    name = project or project_of(os.getcwd())
    metadata = {"host": socket.gethostname(), "project": name, "agent": "ctx-cli"}
    stored, problems = store_marked(client_for(light_app(), 60).post, blocks, name, metadata)
    if problems and not stored:
        raise ClientError(problems[0])
    if as_json:
        dump_json({"stored": stored, "refused": problems})
        return
    for s in stored:
        console.print(f"{s['action']} {s['id']}  {s['scope']}/{s['category']}  {s['title']}")
    for problem in problems:
        console.print(f"refused {problem}", markup=False)
    if not blocks:
        console.print("no [PERSIST:category:title] markers")


# -- statusline ----------------------------------------------------------------------------------


@presents("runtime.health", "blocks.manage")
def statusline() -> None:
    """One short line for an agent's status bar: reachable, block count (JSON on stdin is read and
    ignored)."""
    line = "ctx: offline"
    try:
        app = light_app()
        seconds = float(app.settings["hooks.timeout"])
        with time_limit(seconds):
            if not sys.stdin.isatty():
                sys.stdin.read()
            line = status_text(client_for(app, seconds))
    except (Exception, TimeUp) as exc:
        _debug("statusline", exc)
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def direct(args: list[str]) -> Callable[[], None] | None:
    """The agent command as the installed hooks call it (``ctx NAME --hook``, ``ctx statusline``),
    to run without building a command tree: typer coerces every parameter through pydantic, which
    cost a hook most of its start-up. Its options take their declared defaults; any other call
    goes through the tree."""
    if args == ["statusline"]:
        return statusline
    commands: dict[str, Callable[..., None]] = {
        "brief": brief,
        "recall": recall,
        "persist": persist,
    }
    if len(args) == 2 and args[1] == "--hook" and args[0] in commands:
        return partial(commands[args[0]], hook=True)
    return None


def _root() -> None:
    """ctx: memory and knowledge layer for LLM agents."""


def agent_cli() -> typer.Typer:
    """A command tree with the agent commands alone (what ``main.run`` starts them with)."""
    cli = typer.Typer(name="ctx", pretty_exceptions_enable=False, add_completion=False)
    cli.callback()(_root)
    register(cli)
    return cli


def register(cli: typer.Typer) -> None:
    cli.command()(brief)
    cli.command()(recall)
    cli.command()(persist)
    cli.command()(statusline)
