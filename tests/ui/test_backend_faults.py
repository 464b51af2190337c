"""Every stage that calls a model backend, against every way a backend fails (issue 19).

One matrix: each stage of ``STAGES`` runs against a real loopback peer that hangs, answers
garbage, streams (or trickles its body) forever, breaks off mid-answer, or answers HTTP 500, with
the backend timeouts at one second. For every cell the stage returns (its own timeout fired: the
call log says ``timeout``), fails open in the stage's own way (the query keeps its sources, the
job is put back for later, the gateway answers a 5xx in OpenAI's error shape), and the call log
has the failed call. ``test_every_model_call_is_in_the_matrix`` reads the source for model calls,
so a new calling module or role fails until it is added here.
"""

from __future__ import annotations

import ast
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import openai_server
import pytest
from backend_kit import add_backend
from openai_server import OpenAIServer, RawReply

from ctx.core import App, Principal, QueryRequest, StoreRequest, blocks, embed, llm, query
from ctx.core.governor import ChatTurnRequest, chat_history, start_turn
from ctx.core.graph import run_cycle
from ctx.core.graph.digest import DIGEST_JOBS
from ctx.core.graph.digest import KIND as DIGEST_KIND
from ctx.core.graph.dream_state import store_keywords
from ctx.core.runtime import enqueue, run_kind, set_setting

ROOT = Path(__file__).resolve().parents[2]
WHO = Principal(key_id="00000000-0000-0000-0000-0000000000a1", name="a", home_scope="alpha")
FAULTS = ("hang", "garbage", "endless", "cut", "error500")
#: The backend timeouts (read and total) while a cell waits on a backend that never finishes;
#: a backend that answers at once (garbage, cut, 500) gets ``PATIENT_S``, so a loaded machine
#: cannot turn its answer into a timeout.
TIMEOUT_S = 0.5
PATIENT_S = 30.0
TRICKLE_S = 0.05
#: What the call log says of each fault: for a whole answer (JSON) and for a stream.
LOGGED = {
    "json": {"hang": "timeout", "garbage": "invalid", "endless": "timeout", "cut": "error",
             "error500": "error"},
    "stream": {"hang": "timeout", "garbage": "invalid", "endless": "timeout", "cut": "invalid",
               "error500": "error"},
}  # fmt: skip


# --- the faulty peer ------------------------------------------------------------------------------


class Faults:
    """Which fault the peer plays now. Streamed chat uses the peer's own chat behaviours (they
    are these five); whole answers (chat, rerank, embeddings) get ``json_fault``."""

    def __init__(self) -> None:
        self.now = "ok"


def _raw(status: int, body: bytes, length: int | None = None) -> RawReply:
    def write(h: BaseHTTPRequestHandler) -> None:
        h.send_response(status)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(body) if length is None else length))
        h.end_headers()
        h.wfile.write(body)
        h.wfile.flush()

    return RawReply(write)


def _trickle(server: OpenAIServer) -> RawReply:
    """A JSON body that never ends: a space every 50 ms until the client leaves (or release)."""
    release = server.release

    def write(h: BaseHTTPRequestHandler) -> None:
        h.send_response(200)
        h.send_header("Content-Type", "application/json")
        h.send_header("Connection", "close")
        h.end_headers()
        h.wfile.write(b"{")
        deadline = time.monotonic() + openai_server.HANG_SECONDS
        while not release.wait(TRICKLE_S) and time.monotonic() < deadline:
            h.wfile.write(b" ")
            h.wfile.flush()

    return RawReply(write)


def json_fault(server: OpenAIServer, fault: str) -> tuple[int, Any]:
    if fault == "hang":
        server.release.wait(openai_server.HANG_SECONDS)
        return 503, {"error": {"message": "released"}}
    if fault == "garbage":
        return 200, _raw(200, b"{not json")
    if fault == "endless":
        return 200, _trickle(server)
    if fault == "cut":
        return 200, _raw(200, b'{"object": "list", "da', length=4096)
    return 500, {"error": {"message": "the model crashed", "type": "server_error"}}


def _faulty(faults: Faults, original: openai_server.Handler, path: str) -> openai_server.Handler:
    def handler(server: OpenAIServer, body: dict[str, Any]) -> tuple[int, Any]:
        if faults.now == "ok":
            return original(server, body)
        if path == "/v1/chat/completions" and body.get("stream") is True:
            server.chat_behaviour = faults.now
            return original(server, body)
        return json_fault(server, faults.now)

    return handler


@pytest.fixture(scope="module")
def faulty() -> Iterator[tuple[OpenAIServer, Faults]]:
    faults = Faults()
    with OpenAIServer(native_dimensions=16) as srv:
        for path in ("/v1/chat/completions", "/v1/rerank", "/v1/embeddings"):
            srv.routes[path] = _faulty(faults, srv.routes[path], path)
        yield srv, faults


@dataclass
class Cell:
    app: App
    client: Any
    srv: OpenAIServer
    faults: Faults
    keys: Any
    fault: str

    def backend(self, *roles: str) -> None:
        add_backend(self.app, self.srv, list(roles))

    def break_it(self) -> None:
        """From now on the peer plays the cell's fault, under short timeouts where it stalls."""
        seconds = TIMEOUT_S if self.fault in ("hang", "endless") else PATIENT_S
        for key in ("llm.read_timeout", "llm.total_timeout"):
            set_setting(self.app, key, seconds)
        self.srv.reset()
        self.faults.now = self.fault

    def store(self, title: str, content: str, **extra: Any) -> str:
        req = StoreRequest.model_validate({"title": title, "content": content, **extra})
        return str(blocks.store_block(self.app, WHO, req)["id"])

    def headers(self) -> dict[str, str]:
        return {"X-Context-Key": self.keys.make("alpha")}


# --- the stages -----------------------------------------------------------------------------------
# Each runs its stage against the broken peer, asserts that it failed open, and says how.


def _sources(out: dict[str, Any], block: str) -> None:
    assert block in [s["id"] for s in out["sources"]], "the query lost its retrieval results"


def run_translate(c: Cell) -> str:
    kept = c.store("Schreibschutz", "Geschützte Blöcke lehnen Änderungen ab.")
    c.backend("translate")
    c.break_it()
    out = query(c.app, WHO, QueryRequest(query="Wie funktioniert der Schreibschutz?"))
    _sources(out, kept)
    assert out["language"]["translation"].startswith("failed: ")
    assert any(w.startswith("translation failed (") for w in out["warnings"])
    return "original query searched, warning"


def run_temporal(c: Cell) -> str:
    kept = c.store("Release notes", "Release notes of version two, from a while ago.")
    c.backend("translate")
    c.break_it()
    out = query(c.app, WHO, QueryRequest(query="release notes from a while ago",
                                         now=date(2026, 3, 18)))  # fmt: skip
    _sources(out, kept)
    assert not out["temporal"]["matched"]
    assert out["temporal"]["fallback"].startswith("llm failed: ")
    return "rules' result kept, warning"


def _rerank_query(c: Cell, role: str) -> str:
    ids = [c.store(f"Backup note {i}", "backup " * (i + 1) + f"of host {i}") for i in range(3)]
    c.backend(role)
    c.break_it()
    out = query(c.app, WHO, QueryRequest(query="backup", rerank=True))
    _sources(out, ids[0])
    assert any(w.startswith("stage rerank failed (") for w in out["warnings"])
    return "fusion order kept, warning"


def run_rerank(c: Cell) -> str:
    return _rerank_query(c, "rerank")


def run_rerank_judge(c: Cell) -> str:
    return _rerank_query(c, "synthesis")  # no rerank backend: the synthesis chain judges


CORPUS = ("Ingress timeout", "The ingress drops idle websocket connections after sixty seconds.")


def run_synthesis(c: Cell) -> str:
    kept = c.store(*CORPUS)
    c.backend("synthesis")
    c.break_it()
    r = c.client.post("/api/query", json={"query": "ingress timeout", "synthesize": True},
                      headers=c.headers())  # fmt: skip
    assert r.status_code == 200, r.text
    out = r.json()
    _sources(out, kept)
    assert "answer" not in out and out["synthesis"]["failed"]
    assert any(w.startswith("no answer: ") for w in out["warnings"])
    return "200, sources, synthesis.failed"


def _events(text: str) -> list[tuple[str, Any]]:
    out = []
    for chunk in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in chunk.splitlines())
        out.append((lines["event"], json.loads(lines["data"])))
    return out


def run_synthesis_stream(c: Cell) -> str:
    kept = c.store(*CORPUS)
    c.backend("synthesis")
    c.break_it()
    r = c.client.post("/api/query/stream", json={"query": "ingress timeout", "synthesize": True},
                      headers=c.headers())  # fmt: skip
    assert r.status_code == 200, r.text
    events = _events(r.text)
    assert events[0][0] == "sources" and kept in [s["id"] for s in events[0][1]["sources"]]
    name, data = events[-1]
    assert name == "error" and data["message"].startswith("no answer: ")
    assert "answer" not in [n for n, _ in events]
    return "sources, then an error event"


def run_chat(c: Cell) -> str:
    c.backend("chat")
    c.break_it()
    headers = c.headers()
    r = c.client.post("/api/chat/stream", json={"message": "Anyone there?"}, headers=headers)
    assert r.status_code == 200, r.text
    events = _events(r.text)
    assert events[0][0] == "session" and events[-1][0] == "error"
    assert "the model backend failed" in events[-1][1]["message"]
    session = events[0][1]["id"]
    turns = c.client.get(f"/api/chat/sessions/{session}", headers=headers).json()["turns"]
    assert [t["role"] for t in turns] == ["user"]  # the question kept, no answer committed
    return "error event, the user's turn kept"


def run_chat_whole(c: Cell) -> str:
    c.backend("chat")
    turn = start_turn(c.app, WHO, ChatTurnRequest(message="Anyone there?"))
    c.break_it()
    events = list(turn.events(stream=False))  # the workbench's chat page asks this way
    assert [name for name, _ in events] == ["session", "error"]
    assert "the model backend failed" in events[-1][1]["message"]
    turns = chat_history(c.app, WHO, turn.session, 10)["turns"]
    assert [t["role"] for t in turns] == ["user"]  # the question kept, no answer committed
    return "error event, the user's turn kept"


def _stalled(fault: str) -> bool:
    return fault in ("hang", "endless")


def _openai_error(body: dict[str, Any], fault: str) -> dict[str, Any]:
    error = body["error"]
    assert set(error) == {"message", "type", "param", "code"}
    assert error["type"] == "api_error"
    assert error["code"] == ("backend_timeout" if _stalled(fault) else "backend_error")
    assert "the turn is stored" in error["message"]
    assert "the model crashed" not in error["message"]  # the server's own words stay out
    return dict(error)


def _gateway(c: Cell, stream: bool) -> Any:
    c.backend("chat")
    c.break_it()
    body = {"model": "test-model", "messages": [{"role": "user", "content": "hi"}],
            "stream": stream}  # fmt: skip
    key = c.keys.make("alpha")
    return c.client.post("/v1/chat/completions", json=body,
                         headers={"Authorization": f"Bearer {key}", "X-Ctx-Thread": "t1"})  # fmt: skip


def run_gateway(c: Cell) -> str:
    r = _gateway(c, stream=False)
    assert r.status_code == (504 if _stalled(c.fault) else 502), r.text
    assert r.headers["x-should-retry"] == "false"
    error = _openai_error(r.json(), c.fault)
    return f"{r.status_code} {error['code']}"


def run_gateway_stream(c: Cell) -> str:
    r = _gateway(c, stream=True)
    if r.status_code != 200:  # failed before its first piece: the status line says it
        assert r.status_code == (504 if _stalled(c.fault) else 502), r.text
        error = _openai_error(r.json(), c.fault)
        return f"{r.status_code} {error['code']}"
    data = [ln[len("data: ") :] for ln in r.text.split("\n") if ln.startswith("data: ")]
    assert data[-1] == "[DONE]"
    error = _openai_error(json.loads(data[-2]), c.fault)
    return f"200, pieces, then an error event ({error['code']}) and [DONE]"


def run_dream(c: Cell) -> str:
    words = ["backup", "postgres"]
    source = c.store("Backup plan", "Postgres backups run nightly at 02:00 on db-2.")
    c.store("Restore drill", "We restored the postgres backup of db-2 in 14 minutes.")
    with c.app.connection() as conn:
        row = conn.execute("SELECT content_hash FROM context_blocks WHERE id = %s",
                           (source,)).fetchone()  # fmt: skip
        assert row is not None
        store_keywords(conn, source, words, row["content_hash"])  # straight to the evaluation
    c.backend("dream")
    c.break_it()
    result = run_cycle(c.app, block_id=source)
    assert result is not None and result.outcome == "failed" and result.error
    assert result.candidates >= 1  # it was the evaluation that failed
    with c.app.connection() as conn:
        state = conn.execute(
            "SELECT errors, due_at > now() AS later FROM context_dream_state WHERE block_id = %s",
            (source,),
        ).fetchone()
        links = conn.execute("SELECT count(*) AS n FROM context_links").fetchone()
    assert state is not None and state["errors"] == 1 and state["later"]
    assert links is not None and links["n"] == 0
    return "cycle failed, block due again later"


def run_digest(c: Cell) -> str:
    day = datetime.now(UTC).date()
    c.store("Standup", "We agreed to move the backup window to 03:00.")
    c.backend("digest")
    with c.app.connection() as conn:
        enqueue(conn, DIGEST_KIND, {"scope": "alpha", "day": day.isoformat()})
    c.break_it()
    with pytest.raises(llm.ModelError):
        run_kind(c.app, DIGEST_JOBS)
    with c.app.connection() as conn:
        job = conn.execute(
            "SELECT status, attempts, last_error, run_after > now() AS later FROM context_jobs"
            " WHERE kind = %s",
            (DIGEST_KIND,),
        ).fetchone()
        digests = conn.execute(
            "SELECT count(*) AS n FROM context_blocks WHERE block_type = 'digest'"
        ).fetchone()
    assert job is not None and job["status"] == "queued" and job["attempts"] == 1
    assert job["later"] and job["last_error"]
    assert digests is not None and digests["n"] == 0
    return "job queued again with backoff"


def run_embed(c: Cell) -> str:
    kept = c.store("Pager rota", "Ana is on the pager on Monday.")
    c.backend("embed")
    embed.start_rebuild(c.app, "backend", {"backend": "peer", "dimensions": 8})
    while embed.rebuild_step(c.app):
        pass
    c.break_it()
    out = query(c.app, WHO, QueryRequest(query="pager rota"))
    _sources(out, kept)  # the text channels still found it
    assert any(w.startswith("query embedding failed (") for w in out["warnings"])
    return "text channels only, warning"


def run_probe(c: Cell) -> str:
    c.backend("chat")
    c.break_it()
    backend = next(b for b in c.app.backends.backends() if b.name == "peer")
    (result,) = llm.probe_backend(c.app, backend, ["chat"])
    assert result["ok"] is False and result["error"]
    return "ok false with the error"


@dataclass(frozen=True)
class Stage:
    name: str
    role: str  # the chain (or backend role) it calls
    operation: str  # what the call log says it did
    wire: str  # json (a whole answer) or stream
    module: str  # where the call is made, under the repository root
    run: Callable[[Cell], str]


STAGES = (
    Stage("translate", "translate", "chat", "json", "core/retrieval/translation.py",
          run_translate),
    Stage("temporal-llm", "translate", "chat", "json", "core/retrieval/temporal_llm.py",
          run_temporal),
    Stage("rerank", "rerank", "rerank", "json", "core/retrieval/reranking.py", run_rerank),
    Stage("rerank-judge", "synthesis", "chat", "json", "core/retrieval/reranking.py",
          run_rerank_judge),
    Stage("synthesis", "synthesis", "chat", "json", "core/retrieval/synthesis.py",
          run_synthesis),
    Stage("synthesis-stream", "synthesis", "stream", "stream", "core/retrieval/synthesis.py",
          run_synthesis_stream),
    Stage("chat", "chat", "stream", "stream", "core/governor/chat.py", run_chat),
    Stage("chat-whole", "chat", "chat", "json", "core/governor/chat.py", run_chat_whole),
    Stage("gateway", "chat", "chat", "json", "ui/gateway/relay.py", run_gateway),
    Stage("gateway-stream", "chat", "stream", "stream", "ui/gateway/relay.py",
          run_gateway_stream),
    Stage("dream-evaluate", "dream", "chat", "json", "core/graph/dream_cycle.py", run_dream),
    Stage("digest", "digest", "chat", "json", "core/graph/digest.py", run_digest),
    Stage("embed", "embed", "embed", "json", "core/embed/backend_embedder.py", run_embed),
    Stage("probe", "chat", "test", "json", "core/llm/probe.py", run_probe),
)  # fmt: skip
#: Roles no code calls yet; a caller appearing makes the coverage test fail.
UNCALLED = {"classify": "reserved in llm.ROLES; nothing asks the classify chain yet"}


def _log_rows(app: App) -> list[dict[str, Any]]:
    with app.connection() as conn:
        return llm.read_log(conn, limit=100)


@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("stage", STAGES, ids=[s.name for s in STAGES])
def test_a_failing_backend_fails_the_stage_open_and_is_logged(
    app: App, client: Any, keys: Any, faulty: tuple[OpenAIServer, Faults], stage: Stage,
    fault: str
) -> None:  # fmt: skip
    srv, faults = faulty
    faults.now = "ok"
    srv.reset()
    cell = Cell(app, client, srv, faults, keys, fault)
    try:
        how = stage.run(cell)
    finally:
        faults.now = "ok"
        srv.release.set()
    calls = [r for r in _log_rows(app) if (r["role"], r["operation"]) == (stage.role,
                                                                         stage.operation)]  # fmt: skip
    assert calls, f"no call of {stage.role}/{stage.operation} in the log"
    failed = calls[0]  # the newest: the broken call (any before it worked, during setup)
    assert failed["outcome"] == LOGGED[stage.wire][fault], failed
    assert failed["error"] and failed["backend"] == "peer"
    print(f"MATRIX {stage.name:17} {fault:9} {failed['outcome']:8} {how}")


# --- coverage -------------------------------------------------------------------------------------

MODEL_CALLS = {"chat", "stream", "rerank", "embed", "ToolChat"}


def _model_calls(path: Path) -> list[str | None]:
    """The roles of the model calls in one module (None: a role not written as a constant)."""
    tree = ast.parse(path.read_text())
    imported = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ctx.core.llm")
        for alias in node.names
        if alias.name in MODEL_CALLS
    }
    constants = {
        t.id: node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)
        for t in node.targets
        if isinstance(t, ast.Name)
    }
    roles: list[str | None] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        via_llm = (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name)
                   and f.value.id == "llm" and f.attr in MODEL_CALLS)  # fmt: skip
        direct = isinstance(f, ast.Name) and f.id in imported
        pool = (isinstance(f, ast.Attribute) and f.attr == "client"
                and isinstance(f.value, ast.Attribute) and f.value.attr == "backends")  # fmt: skip
        if not (via_llm or direct or pool):
            continue
        name = f.attr if isinstance(f, ast.Attribute) else f.id  # type: ignore[union-attr]
        if name in ("rerank", "embed"):
            roles.append(name)
            continue
        arg = node.args[1] if len(node.args) > 1 else None
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            roles.append(arg.value)
        elif isinstance(arg, ast.Name) and isinstance(constants.get(arg.id), str):
            roles.append(constants[arg.id])
        else:
            roles.append(None)
    return roles


def test_every_model_call_is_in_the_matrix() -> None:
    found: dict[str, list[str | None]] = {}
    for top in ("core", "plugins", "ui"):
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith("core/llm/"):
                continue  # the calls themselves
            roles = _model_calls(path)
            if roles:
                found[rel] = roles
    covered = {s.module for s in STAGES}
    missing = sorted(set(found) - covered)
    assert not missing, f"model calls outside the fault matrix, add a Stage: {missing}"
    assert set(found) | {"core/llm/probe.py"} == covered, "a Stage names a module with no call"
    by_module = {m: {s.role for s in STAGES if s.module == m} for m in covered}
    for module, roles in found.items():
        known = {r for r in roles if r is not None}
        assert known <= by_module[module], (module, known - by_module[module])
    called = {s.role for s in STAGES}
    assert called | set(UNCALLED) == set(llm.ROLES), "a role of llm.ROLES has no Stage"
    assert not called & set(UNCALLED)
    every = {r for roles in found.values() for r in roles}
    assert not every & set(UNCALLED), f"a caller of {set(UNCALLED) & every}: add its Stage"
