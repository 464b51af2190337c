"""Tenant and scope isolation through every interface, each probe proven able to fail.

The world (``iso_kit``): tenants ``acme`` and ``globex`` with a stale key row, a block grant,
links, a Guard flag, governor threads, an issue each, and two scopes of acme (``alpha``, ``beta``).
Every probe (REST, MCP, workbench, gateway, CLI, Guard, governor) answers the text a key got back
through one interface, and what it sent to the LLM; a write aimed at the other side also answers
whether it was accepted, whether it changed anything, and whether its answer told an existing
block from a missing one. First no probe sees anything of the other side. Then a rule is mutated
*in the database* (see ``iso_kit.MUTANTS``; for writes, the key's home scope moved as well), and
every probe must then see the other side: a probe that stays blind proves nothing and fails.

The registries (``iso_kit.http_routes``, the live MCP server's tool list, ``iso_kit.cli_commands``)
must each be covered entry by entry. For the REST API, the tools and the commands the covers
derive from the operations' declarations (access, reach); a new operation that reads the key's
scopes without a probe fails ``test_every_*``.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import typer
from declarations import leaf_commands
from fastapi.testclient import TestClient
from iso_kit import (
    EVERY_SCOPE,
    MUTANTS,
    ONE_TENANT_SCOPES,
    PRE_TENANT_READ_SCOPES,
    READ_SCOPES,
    SCOPE_TENANT,
    TENANCY_SQL,
    WORD,
    World,
    cli_commands,
    cli_env,
    h,
    http_routes,
    mutated,
    other_of,
    secret,
    world_database,
)
from openai_server import OpenAIServer
from web_kit import Browser

from ctx.core import App, Operation
from ctx.core.guard import run_checks
from ctx.ui import create_app
from ctx.ui.cli import build_cli, run
from ctx.ui.cli.present import is_local, presented, relayed

pytestmark = pytest.mark.slow  # scheduled first (tests/conftest.py)

HOME_MOVED = "home_moved"  # pre-tenant rule and globex's key now homed in acme: it writes there
MISSING = str(uuid.UUID(int=0x4242))  # an id nobody has: the answer for it is "not found"


# --- probes: each answers the text a key got back through one interface -------------------------


def _post(world: World, who: str, path: str, body: dict[str, Any]) -> str:
    r = world.client.post(path, json=body, headers=world.headers(who))
    assert r.status_code < 500 and r.json().get("field") is None, r.text  # no bad request
    return r.text


def _get(world: World, who: str, path: str, **params: Any) -> str:
    r = world.client.get(path, params=params, headers=world.headers(who))
    assert r.status_code < 500, r.text
    return r.text


def _asked(text: str, asked: list[str]) -> str:
    """``text`` without the ids a probe asked for: an error that names the id it was asked for
    reveals nothing; what the block holds (its secret word) still shows."""
    for ident in asked:
        text = text.replace(ident, "<asked>").replace(ident[:8], "<asked>")
    return text


def _leak(w: World, who: str, found: bool) -> str:
    """A marker of the other side when ``found``: one of its block ids."""
    return f" {w.other_ids(who)[0]}" if found else ""


def _answer(r: Any, asked: str, html: bool) -> str:
    """An answer as a caller compares it: the status and, for JSON, the body without its
    request id and with the asked id masked (a web page only by status: it holds tokens)."""
    if html:
        return str(r.status_code)
    try:
        body = r.json()
    except ValueError:
        return f"{r.status_code} {_asked(r.text, [asked])}"
    if isinstance(body, dict):
        body.pop("request_id", None)
    return f"{r.status_code} {_asked(json.dumps(body, sort_keys=True), [asked])}"


def aimed(
    w: World,
    who: str,
    send: Callable[[str], Any],
    targets: list[str],
    missing: str = MISSING,
    html: bool = False,
) -> str:
    """``send`` aimed at each of the other side's ``targets`` and at one nobody has: each must
    be refused (no 2xx, no redirect to it), answer as the missing one does (nothing inferred),
    and leave the other side as it was. Answers the texts, with a marker for each breach."""
    other = other_of(who)
    before = w.snapshot(other)
    r = send(missing)
    assert r.status_code < 500, r.text
    expected = _answer(r, missing, html)
    out = []
    for target in targets:
        r = send(target)
        assert r.status_code < 500, (target, r.text)
        accepted = r.status_code < 300 or (r.status_code < 400 and target[:8] in r.headers.get(
            "location", ""))  # fmt: skip
        inferred = _answer(r, target, html) != expected
        out.append(_asked(r.text, [target]) + _leak(w, who, accepted or inferred))
    return "".join(out) + _leak(w, who, w.snapshot(other) != before)


def _links(w: World, owner: str) -> list[str]:
    with w.app.connection() as conn:
        rows = conn.execute(
            "SELECT l.id::text AS id FROM context_links l JOIN context_blocks b "
            "ON b.id = l.source_id WHERE b.scope = %s ORDER BY l.id",
            (owner,),
        ).fetchall()
    return [str(r["id"]) for r in rows]


def _issue_number(w: World, owner: str) -> str:
    return str(w.issues[owner])


def p_rest_search(w: World, t: str) -> str:
    return _post(w, t, "/api/search", {"query": WORD, "limit": 50})


def p_rest_query(w: World, t: str) -> str:
    return _post(w, t, "/api/query", {"query": WORD, "limit": 20, "synthesize": False})


def p_rest_manage_get(w: World, t: str) -> str:
    """A block by id, its history (``blocks.history``) and its versions (``blocks.versions``)."""
    asked = w.other_ids(t)
    got = "".join(_post(w, t, "/api/manage", {"action": "get", "id": i}) for i in asked)
    got += "".join(
        w.client.get(f"/api/blocks/{i}/{what}", headers=w.headers(t)).text
        for i in asked
        for what in ("history", "versions")
    )
    return _asked(got, asked)


def p_rest_manage_list(w: World, t: str) -> str:
    return _post(w, t, "/api/manage", {"action": "list", "limit": 200})


def p_rest_manage_counts(w: World, t: str) -> str:
    """stats and categories count the key's blocks only: a count over that, or a count for the
    other scope, is a leak."""
    stats = w.client.post("/api/manage", json={"action": "stats"}, headers=w.headers(t)).json()
    cats = w.client.post("/api/manage", json={"action": "categories"}, headers=w.headers(t))
    with w.app.connection() as conn:
        row = conn.execute("SELECT count(*) AS n FROM context_blocks WHERE scope = %s", (t,))
        own = int(row.fetchone()["n"])  # type: ignore[index]
    counted = [int(stats["stats"]["blocks"]), sum(c["blocks"] for c in cats.json()["categories"])]
    leak = max(counted) > own or other_of(t) in stats["stats"]["by_scope"]
    return json.dumps(stats) + cats.text + _leak(w, t, leak)


def p_rest_manage_writes(w: World, t: str) -> str:
    """update, archive, unarchive and delete of the other side's blocks."""
    out = []
    for action in ("update", "archive", "unarchive", "delete"):
        body: dict[str, Any] = {"action": action}
        if action == "update":
            body["changes"] = {"title": "taken over"}
        out.append(aimed(w, t, lambda i, b=body: w.client.post(  # type: ignore[misc]
            "/api/manage", json={**b, "id": i}, headers=w.headers(t)), w.other_ids(t)))  # fmt: skip
    return "".join(out)


def p_rest_export(w: World, t: str) -> str:
    return _get(w, t, "/api/export")


def p_rest_blobs(w: World, t: str) -> str:
    other = other_of(t)
    asked = [w.blobs[other]]
    raw = w.client.get(f"/api/blob/{asked[0]}/raw", headers=w.headers(t))
    by_id = [
        _post(w, t, "/api/blob/fetch", {"id": asked[0]}),
        _post(w, t, "/api/blob/manage", {"action": "get", "id": asked[0]}),
        raw.text,
        raw.headers.get("content-disposition", ""),
    ]
    theirs = w.client.post("/api/blob/manage", json={"action": "list", "scope": other},
                           headers=w.headers(t))  # fmt: skip
    deleted = aimed(w, t, lambda i: w.client.post("/api/blob/manage", json={
        "action": "delete", "id": i}, headers=w.headers(t)), asked)  # fmt: skip
    return "".join(
        [
            _post(w, t, "/api/blob/search", {"tags": [WORD]}),
            _post(w, t, "/api/blob/manage", {"action": "list"}),
            _post(w, t, "/api/blob/manage", {"action": "stats"}),
            theirs.text,
            _asked("".join(by_id), asked),
            deleted,
        ]
    )


def p_rest_graph(w: World, t: str) -> str:
    asked = w.other_ids(t)
    ego = [_asked(_get(w, t, "/api/graph/ego", id=i, depth=2), asked) for i in asked]
    daily = w.client.post("/api/synthesize/daily", json={}, headers=w.headers(t))
    assert daily.status_code < 500, daily.text
    return "".join([*ego, _get(w, t, "/api/graph/overview"), _get(w, t, "/api/digest"), daily.text])


def p_rest_guard(w: World, t: str) -> str:
    flagged = [w.acme_copy] if t == "globex" else [w.globex_copy]
    resolved = "".join(
        aimed(
            w,
            t,
            lambda i, which=which: w.client.post(
                "/api/guard/resolve", json={"id": i, "which": which}, headers=w.headers(t)
            ),
            flagged,
        )
        for which in ("block", "match")
    )
    return _get(w, t, "/api/guard", all=True) + _get(w, t, "/api/guard/stats") + resolved


def p_rest_eval(w: World, t: str) -> str:
    """The gold set: the other side's marks are neither listed, replayed, made nor removed."""
    theirs = _marks(w, other_of(t))
    ran = w.client.post("/api/eval", json={}, headers=w.headers(t))
    assert ran.status_code < 500, ran.text
    made = aimed(
        w,
        t,
        lambda i: w.client.post(
            "/api/eval/marks", json={"question": "which?", "id": i}, headers=w.headers(t)
        ),
        w.other_ids(t),
    )
    removed = aimed(
        w,
        t,
        lambda i: w.client.delete(f"/api/eval/marks/{i}", headers=w.headers(t)),
        theirs,
        missing="424242",
    )
    return _get(w, t, "/api/eval/marks") + ran.text + made + removed


def p_rest_dream(w: World, t: str) -> str:
    reviews = "".join(
        aimed(
            w,
            t,
            lambda i, a=action: w.client.post(
                f"/api/dream/links/{i}", json={"action": a}, headers=w.headers(t)
            ),
            _links(w, other_of(t)),
            missing="424242",
        )
        for action in ("confirm", "delete")
    )
    return _get(w, t, "/api/dream/links") + _get(w, t, "/api/dream/stats") + reviews


def p_rest_governor(w: World, t: str) -> str:
    """The desk of a prepare, a pin of the other side's block, its thread listed or read."""
    other = other_of(t)
    thread = {"session_id": f"probe-{t}"}
    desk = _post(w, t, "/api/governor/prepare", {
        "thread": thread, "focus": f"{WORD} plan budget", "budget": 4000,
        "event": {"content": f"what about the {WORD}?"}})  # fmt: skip
    pins = aimed(w, t, lambda i: w.client.post("/api/governor/protect", json={
        "thread": thread, "items": [{"block_id": i}]}, headers=w.headers(t)), w.other_ids(t))  # fmt: skip
    status = _post(w, t, "/api/governor/status", {"thread": thread})
    theirs = _post(w, t, "/api/governor/status",
                   {"thread": {"session_id": f"chat-{other}", "collection": other}})  # fmt: skip
    promote = w.client.post("/api/governor/promote", json={
        "thread": {"session_id": f"chat-{other}", "collection": other}, "seq": 1},
        headers=w.headers(t))  # fmt: skip
    threads = _get(w, t, "/api/governor/threads")
    return (
        desk
        + pins
        + status
        + theirs
        + promote.text
        + threads
        + _leak(w, t, promote.status_code < 300)
    )


def p_rest_whoami(w: World, t: str) -> str:
    who = w.client.get("/api/whoami", headers=w.headers(t)).json()
    # reading the other side's scope is a leak of all its blocks: say it with one of them
    return json.dumps(who) + _leak(w, t, other_of(t) in who["read_scopes"])


def _sse_and_sent(w: World, send: Callable[[], Any]) -> str:
    """A streamed answer and what the LLM was sent to make it."""
    w.peer.reset()
    w.peer.chat_replies = ["An answer."]
    r = send()
    assert r.status_code < 500, r.text
    return r.text + w.peer.sent_text()


def p_rest_llm(w: World, t: str) -> str:
    """/api/query/stream and /api/chat/stream: the answer and the context sent to the LLM."""
    query = {"query": f"{WORD} plan budget", "limit": 20, "synthesize": True}
    chat = {"message": f"What do we know about the {WORD} plan and budget?"}
    return _sse_and_sent(
        w, lambda: w.client.post("/api/query/stream", json=query, headers=w.headers(t))
    ) + _sse_and_sent(w, lambda: w.client.post("/api/chat/stream", json=chat, headers=w.headers(t)))


def p_rest_issues(w: World, t: str) -> str:
    """Issues listed, shown, suggested; the other side's issue aimed at by its scope."""
    other, n = other_of(t), _issue_number(w, other_of(t))
    shown = aimed(w, t, lambda s: w.client.get(f"/api/issues/{n}", params={"scope": s},
                                               headers=w.headers(t)), [other], missing="nosuchscope")  # fmt: skip
    suggest = _post(w, t, "/api/issues/suggest", {"title": f"{WORD} plan", "body": WORD})
    listed = w.client.get("/api/issues", params={"scope": other}, headers=w.headers(t)).text
    return _get(w, t, "/api/issues", text=WORD) + suggest + shown + listed


def p_home_writes(w: World, t: str) -> str:
    """Writes that name the other side's scope: each refused and changing nothing (under
    ``HOME_MOVED`` the key's home is that scope, so a write there is accepted)."""
    other = other_of(t)
    thread = {"session_id": f"chat-{other}", "collection": other}
    event = {"content": f"{WORD} written from {t}"}
    calls: list[tuple[str, dict[str, Any]]] = [
        ("/api/store", {"title": f"from {t}", "content": WORD, "scope": other}),
        ("/api/governor/prepare", {"thread": thread, "desk": False, "event": event}),
        ("/api/governor/commit", {"thread": thread, "event": {**event, "role": "assistant"}}),
        ("/api/governor/protect", {"thread": thread, "items": [{"content": WORD}]}),
        ("/api/governor/release", {"thread": thread, "all": True}),
        ("/api/governor/flush", {"thread": thread}),
        ("/api/governor/ingest", {"thread": thread, "title": "doc", "content": WORD}),
        ("/api/import", {"records": [{"kind": "header", "version": 1},
                                      {"kind": "block", "id": w.other_ids(t)[0], "scope": other,
                                       "title": "overwritten", "content": WORD}]}),
    ]  # fmt: skip
    before = w.snapshot(other)
    out = []
    for path, body in calls:
        r = w.client.post(path, json=body, headers=w.headers(t))
        assert r.status_code < 500, (path, r.text)
        out.append(_asked(r.text, w.other_ids(t)) + _leak(w, t, r.status_code < 300))
    return "".join(out) + _leak(w, t, w.snapshot(other) != before)


def p_mcp_retrieval(w: World, t: str) -> str:
    asked = w.other_ids(t)
    found = w.mcp(t, [("search", {"query": WORD, "limit": 50}),
                      ("query", {"query": WORD, "limit": 20})])  # fmt: skip
    by_id = [
        (tool, args)
        for i in asked
        for tool, args in (("get", {"id": i}), ("get", {"id": i, "version": 1}),
                           ("history", {"id": i}), ("versions", {"id": i}))
    ]  # fmt: skip
    return found + _asked(w.mcp(t, by_id), asked)


def p_mcp_listings(w: World, t: str) -> str:
    """recent, stats and timeline: never a granted block; counts by scope name no other scope
    (one of the other side's ids tells it)."""
    text = w.mcp(t, [("recent", {"limit": 50}), ("stats", {}), ("timeline", {"when": "today"})])
    return text + _leak(w, t, f'"{other_of(t)}"' in text)


class _Tool:
    """An MCP tool call as ``aimed`` sends it: the status an HTTP answer would have."""

    def __init__(self, text: str, error: bool) -> None:
        self.text, self.status_code, self.headers = text, 404 if error else 200, {}

    def json(self) -> Any:
        return {"text": self.text}


def p_mcp_writes(w: World, t: str) -> str:
    """delete and governor_protect of the other side's blocks; governor_status of its thread."""
    other = other_of(t)

    def tool(name: str, args: Callable[[str], dict[str, Any]]) -> Callable[[str], _Tool]:
        def call(target: str) -> _Tool:
            text = w.mcp(t, [(name, args(target))])
            return _Tool(text, text.startswith(("no ", "block ", "not ")) or "not found" in text
                         or "cannot" in text or "forbidden" in text.lower())  # fmt: skip

        return call

    thread = {"session_id": f"probe-{t}"}
    out = [
        aimed(w, t, tool("delete", lambda i: {"id": i}), w.other_ids(t)),
        aimed(
            w,
            t,
            tool("governor_protect", lambda i: {"thread": thread, "items": [{"block_id": i}]}),
            w.other_ids(t),
        ),
        w.mcp(
            t,
            [
                (
                    "governor_status",
                    {"thread": {"session_id": f"chat-{other}", "collection": other}},
                ),
                (
                    "governor_prepare",
                    {
                        "thread": thread,
                        "focus": f"{WORD} plan budget",
                        "budget": 4000,
                        "event": {"content": WORD},
                    },
                ),
            ],
        ),
    ]
    return "".join(out)


def p_mcp_issues(w: World, t: str) -> str:
    other, n = other_of(t), int(_issue_number(w, other_of(t)))
    text = w.mcp(t, [("issue_list", {"text": WORD}), ("issue_conflicts", {}),
                     ("issue_suggest", {"title": f"{WORD} plan", "body": WORD}),
                     ("issue_show", {"number": n, "scope": other})])  # fmt: skip
    return _asked(text, [other])


def p_mcp_home_writes(w: World, t: str) -> str:
    other = other_of(t)
    thread = {"session_id": f"chat-{other}", "collection": other}
    before = w.snapshot(other)
    text = w.mcp(t, [
        ("store", {"title": f"from {t}", "content": WORD, "scope": other}),
        ("governor_prepare", {"thread": thread, "desk": False, "event": {"content": WORD}}),
        ("governor_commit", {"thread": thread, "event": {"content": WORD, "role": "assistant"}}),
        ("governor_release", {"thread": thread, "all": True}),
        ("governor_flush", {"thread": thread}),
    ])  # fmt: skip
    accepted = any(x.startswith("{") for x in text.split("\n"))
    return text + _leak(w, t, accepted or w.snapshot(other) != before)


def _browser(w: World, t: str) -> Iterator[Browser]:
    with TestClient(create_app(w.app), raise_server_exceptions=False) as c:
        b = Browser(c, w.token[t])
        b.sign_in()
        yield b


def p_web(w: World, t: str) -> str:
    other = other_of(t)
    with contextmanager(_browser)(w, t) as b:
        pages = ["/", "/dashboard/queues", f"/blocks?q={WORD}", "/blocks", "/review", "/graph",
                 "/graph/data/overview", "/chat", f"/chat/chat-{other}", "/issues",
                 "/issues/board", "/issues/conflicts", f"/issues/{other}/1", "/eval",
                 "/eval?run=1"]  # fmt: skip
        for i in w.other_ids(t):
            pages += [f"/blocks/{i}", f"/graph/data/ego?id={i}", f"/blocks/{i}/edit",
                      f"/blocks/{i}/delete"]  # fmt: skip
        texts = []
        for page in pages:
            r = b.get(page)
            assert r.status_code < 500, (page, r.text)
            texts.append(r.text)
        for i in w.other_ids(t):  # a form post here is a 500 today: JSON, as the page sends
            r = b.client.post("/graph/data/ego", json={"focus": i, "keep": []},
                              headers={"X-CSRF-Token": b.csrf})  # fmt: skip
            assert r.status_code < 500, r.text
            texts.append(r.text)
    return _asked("".join(texts), w.other_ids(t))


def _marks(w: World, owner: str) -> list[str]:
    """Marks of ``owner``'s gold set (made here, as its key would): targets for the other side."""
    with w.app.connection() as conn:
        rows = conn.execute(
            "INSERT INTO context_eval_marks (scope, question, block_id, verdict) "
            "SELECT scope, %s, id, 'answered' FROM context_blocks WHERE scope = %s "
            "ORDER BY id LIMIT 1 ON CONFLICT DO NOTHING RETURNING id",
            (f"{WORD} probe", owner),
        ).fetchall()
        if not rows:
            rows = conn.execute(
                "SELECT id FROM context_eval_marks WHERE scope = %s", (owner,)
            ).fetchall()
    return [str(r["id"]) for r in rows]


def p_web_writes(w: World, t: str) -> str:
    """The workbench's forms aimed at the other side's blocks, flags and links."""
    flagged = [w.acme_copy] if t == "globex" else [w.globex_copy]
    with contextmanager(_browser)(w, t) as b:
        out = [
            aimed(
                w,
                t,
                lambda i, p=path: b.post(p.format(i), {"title": "taken", "content": WORD}),
                w.other_ids(t),
                html=True,
            )
            for path in (
                "/blocks/{}",
                "/blocks/{}/archive",
                "/blocks/{}/unarchive",
                "/blocks/{}/delete",
            )
        ]
        out.append(aimed(w, t, lambda i: b.post("/review/guard/resolve", {"id": i, "which": "block"}),
                         flagged, html=True))  # fmt: skip
        out.append(aimed(w, t, lambda i: b.post(f"/review/dream/{i}", {"action": "delete"}),
                         _links(w, other_of(t)), missing="424242", html=True))  # fmt: skip
        out.append(aimed(w, t, lambda i: b.post("/eval/mark", {"question": WORD, "id": i}),
                         w.other_ids(t), html=True))  # fmt: skip
        out.append(aimed(w, t, lambda i: b.post(f"/eval/marks/{i}/delete", {}),
                         _marks(w, other_of(t)), missing="424242", html=True))  # fmt: skip
        n = _issue_number(w, other_of(t))
        for verb in ("comment", "close", "reopen", "edit"):
            out.append(aimed(w, t, lambda s, v=verb: b.post(f"/issues/{s}/{n}/{v}", {
                "body": WORD, "title": "taken"}), [other_of(t)], missing="nosuchscope", html=True))  # fmt: skip
    return "".join(out)


def p_web_llm(w: World, t: str) -> str:
    """/ask and a chat turn in the workbench: the answer and the context sent to the LLM."""
    with contextmanager(_browser)(w, t) as b:
        ask = _sse_and_sent(w, lambda: b.post("/ask", {"q": f"{WORD} plan budget",
                                                       "question": f"{WORD} plan budget"}))  # fmt: skip
        chat = _sse_and_sent(w, lambda: b.post(f"/chat/chat-probe-{t}/send", {
            "message": f"What about the {WORD} plan budget?"}))  # fmt: skip
    return ask + chat


def p_gateway(w: World, t: str) -> str:
    """/v1/chat/completions: the context ctx put into the prompt the peer received."""
    body = {
        "model": "test-model",
        "messages": [{"role": "user", "content": f"What about the {WORD} plan budget?"}],
    }
    headers = {"Authorization": f"Bearer {w.token[t]}", "X-Ctx-Thread": f"gw-{t}"}
    models = w.client.get("/v1/models", headers=headers)
    assert models.status_code == 200, models.text
    return models.text + _sse_and_sent(
        w, lambda: w.client.post("/v1/chat/completions", json=body, headers=headers)
    )


def p_cli_search(w: World, t: str) -> str:
    with cli_env(w, t):
        return w.cli(["search", WORD, "--limit", "50"]) + w.cli(["search", WORD, "--json"])


def p_cli_reads(w: World, t: str) -> str:
    """The CLI's reading commands through the live server with the key."""
    asked = w.other_ids(t)
    _marks(w, other_of(t))  # the other side's gold set, which `marks` and `eval` must not show
    with cli_env(w, t):
        text = "".join(
            w.cli(argv, ok=False)
            for argv in (
                ["query", WORD, "--json"], ["stats", "--json"], ["categories", "--json"],
                ["list-meta", "--json"], ["digest"], ["recall", WORD],
                ["brief"], ["blob", "list"], ["dream", "stats"], ["dream", "review"],
                ["governor", "threads"], ["guard", "list"], ["guard", "stats"],
                ["marks", "--json"], ["eval", "--json"],
                ["issues", "list"], ["issues", "show", _issue_number(w, other_of(t)),
                                     "--scope", other_of(t)],
                ["blob", "get", w.blobs.get(other_of(t), MISSING)],
                *[["get", i] for i in asked],
                *[["history", i] for i in asked],
                *[["versions", i] for i in asked],
            )
        )  # fmt: skip
        stats = w.cli(["stats", "--json"])
    return _asked(text, asked) + _leak(w, t, f'"{other_of(t)}"' in stats)


def p_cli_writes(w: World, t: str) -> str:
    """The CLI's writing commands aimed at the other side's blocks: each must fail, say what it
    says for a block nobody has, and change nothing."""
    other = other_of(t)
    before = w.snapshot(other)
    out = []

    def ctx(argv: list[str], ident: str) -> tuple[int, str]:
        assert w.capsys is not None
        w.capsys.readouterr()
        code = run([a.replace("ID", ident) for a in argv], app=w.app)
        got = w.capsys.readouterr()
        return code, _asked(got.out + got.err, [ident])

    with cli_env(w, t):
        for argv in (["edit", "ID", "--title", "taken"], ["archive", "ID"], ["unarchive", "ID"],
                     ["guard", "resolve", "ID"], ["mark", "which?", "ID"],
                     ["delete", "ID", "--yes"]):  # fmt: skip
            expected = ctx(argv, MISSING)
            for i in w.other_ids(t)[:2]:
                code, text = ctx(argv, i)
                out.append(text + _leak(w, t, code == 0 or (code, text) != expected))
    return "".join(out) + _leak(w, t, w.snapshot(other) != before)


def p_cli_export(w: World, t: str) -> str:
    assert w.tmp is not None
    out = w.tmp / f"export-{t}-{uuid.uuid4().hex[:6]}.jsonl"
    with cli_env(w, t):
        w.cli(["export", "-o", str(out)])
    return out.read_text()


def p_guard(w: World, t: str) -> str:
    """The Guard job on the tenant's copy of a backup note: the match and the cross match."""
    block = w.globex_copy if t == "globex" else w.acme_copy
    with w.app.connection() as conn:  # due again, as after an edit: the job decides afresh
        conn.execute(
            "UPDATE context_blocks SET guard_status = 'pending', is_archived = false WHERE id = %s",
            (block,),
        )
    decided, deferred = run_checks(w.app, [block])
    assert decided and not deferred, (decided, deferred)
    with w.app.connection() as conn:
        row = conn.execute(
            "SELECT match_id::text AS m, cross_match_id::text AS x FROM context_guard_matches "
            "WHERE block_id = %s",
            (block,),
        ).fetchone()
    assert row is not None
    return f"{row['m']} {row['x']}"


# name -> (probe, may show the granted block, the mutation that must turn it red, also run for
# two scopes of one tenant)
Probe = tuple[Callable[[World, str], str], bool, str, bool]
PROBES: dict[str, Probe] = {
    "rest search": (p_rest_search, True, READ_SCOPES, True),
    "rest query": (p_rest_query, True, READ_SCOPES, True),
    "rest manage get": (p_rest_manage_get, True, READ_SCOPES, True),
    "rest manage list": (p_rest_manage_list, False, READ_SCOPES, True),
    "rest manage stats/categories": (p_rest_manage_counts, False, READ_SCOPES, True),
    "rest manage writes": (p_rest_manage_writes, False, READ_SCOPES, True),
    "rest export": (p_rest_export, False, READ_SCOPES, True),
    "rest blobs": (p_rest_blobs, False, READ_SCOPES, False),
    "rest graph/digest": (p_rest_graph, False, READ_SCOPES, True),
    "rest guard": (p_rest_guard, False, READ_SCOPES, False),
    "rest dream": (p_rest_dream, False, READ_SCOPES, False),
    "rest eval": (p_rest_eval, False, READ_SCOPES, False),
    "rest governor": (p_rest_governor, True, READ_SCOPES, False),
    "rest whoami": (p_rest_whoami, False, READ_SCOPES, True),
    "rest llm": (p_rest_llm, True, READ_SCOPES, False),
    "rest issues": (p_rest_issues, True, READ_SCOPES, False),
    "home writes": (p_home_writes, False, HOME_MOVED, False),
    "mcp search/query/get": (p_mcp_retrieval, True, READ_SCOPES, True),
    "mcp recent/stats/timeline": (p_mcp_listings, False, READ_SCOPES, False),
    "mcp writes": (p_mcp_writes, True, READ_SCOPES, False),
    "mcp issues": (p_mcp_issues, True, READ_SCOPES, False),
    "mcp home writes": (p_mcp_home_writes, False, HOME_MOVED, False),
    "workbench pages": (p_web, False, READ_SCOPES, True),
    "workbench writes": (p_web_writes, False, READ_SCOPES, False),
    "workbench llm": (p_web_llm, True, READ_SCOPES, False),
    "gateway": (p_gateway, True, READ_SCOPES, False),
    "cli search": (p_cli_search, True, READ_SCOPES, True),
    "cli reads": (p_cli_reads, True, READ_SCOPES, False),
    "cli writes": (p_cli_writes, False, READ_SCOPES, False),
    "cli export": (p_cli_export, False, READ_SCOPES, False),
    "guard match": (p_guard, False, READ_SCOPES, False),
    "guard cross match": (p_guard, False, SCOPE_TENANT, False),
}
# globex's key row made acme's (home scope and tenant): a write there is accepted, so the write
# probes show they can tell; the row is restored after.
HOME_MOVED_SQL = (
    "UPDATE context_api_keys SET home_scope = 'acme', tenant_id = "
    "(SELECT tenant_id FROM context_api_keys WHERE name = 'acme-member') "
    "WHERE name = 'globex-member'"
)
HOME_RESTORED_SQL = (
    "UPDATE context_api_keys SET home_scope = 'globex', tenant_id = "
    "(SELECT id FROM context_tenants WHERE name = 'globex') WHERE name = 'globex-member'"
)

# refused to a tenant key, asserted below: 403, or 404 for another tenant's name, or 422 for a
# body that is checked before the key (nothing served either way); a web page may redirect away
ADMIN = "admin"
REFUSED = {302, 303, 401, 403, 404, 422}
HOME = "allowed: reads or writes the key's home scope only; no parameter names another scope"
# The REST API's routes, MCP tools and commands derive from declared operations, and so do their
# covers: an admin operation must refuse a tenant key (ADMIN), one that reaches only the key's home
# scope is HOME, one that shows no data of any scope is allowed. Only what a declaration cannot say
# is listed below: which probe covers an operation that reads the key's scopes (a new one without
# a probe fails test_every_*), and the operations whose role check refuses a tenant's member key.
LOCAL = "allowed: runs on the server's own machine with the database (no key): an operator's"
KEYED_ADMIN = "allowed: sends the key to an admin-only route (its operation is ADMIN)"
NONE = "allowed: shows no data of any scope (its operation's reach is none)"
RELAY = "allowed: the MCP server over stdio: the tools (TOOL_COVERS)"
#: operation -> its REST route's cover, where the declaration does not decide it
REST_COVERS: dict[str, str] = {
    **dict.fromkeys(
        (
            "access.accept-tenant-block",
            "access.add-tenant-scope",
            "access.create-tenant",
            "access.create-tenant-key",
            "access.delete-tenant",
            "access.grant-to-tenant",
            "access.list-tenant-grants",
            "access.revoke-tenant-grant",
            "access.revoke-tenant-key",
            "access.show-tenant",
            "issues.sync",
            "issues.sync.resolve",
        ),
        ADMIN,  # a tenant's owner or admin only (the role check), or a root admin
    ),
    "access.whoami": "rest whoami",
    **dict.fromkeys(("blobs.fetch", "blobs.manage", "blobs.raw", "blobs.search"), "rest blobs"),
    "blocks.export": "rest export",
    "blocks.manage": "rest manage writes",
    "blocks.history": "rest manage get",
    "blocks.versions": "rest manage get",
    "blocks.search": "rest search",
    **dict.fromkeys(
        (
            "blocks.import",
            "blocks.store",
            "governor.commit",
            "governor.flush",
            "governor.ingest",
            "governor.prepare",
            "governor.release",
        ),
        "home writes",
    ),
    **dict.fromkeys(("governor.chat", "retrieval.query-stream"), "rest llm"),
    **dict.fromkeys(
        ("governor.promote", "governor.protect", "governor.status", "governor.threads"),
        "rest governor",
    ),
    **dict.fromkeys(
        ("graph.daily-digest", "graph.digest", "graph.ego", "graph.overview"), "rest graph/digest"
    ),
    **dict.fromkeys(("graph.dream-links", "graph.dream-stats", "graph.review-link"), "rest dream"),
    **dict.fromkeys(("guard.flags", "guard.resolve", "guard.stats"), "rest guard"),
    **dict.fromkeys(("eval.mark", "eval.marks", "eval.run", "eval.unmark"), "rest eval"),
    **dict.fromkeys(("issues.list", "issues.show", "issues.suggest"), "rest issues"),
    "issues.sync.conflicts": "allowed: sync conflicts of the key's scopes; NOT probed: the world "
    "has no forge sync",
    "issues.sync.links": "allowed: sync links of the key's scopes; NOT probed: the world has no "
    "forge sync",
    "retrieval.query": "rest query",
}
#: operation -> its MCP tool's cover, where the declaration does not decide it
TOOL_COVERS: dict[str, str] = {
    **dict.fromkeys(
        ("blocks.get", "blocks.history", "blocks.search", "blocks.versions", "retrieval.query"),
        "mcp search/query/get",
    ),
    **dict.fromkeys(
        ("blocks.recent", "blocks.stats", "blocks.timeline"), "mcp recent/stats/timeline"
    ),
    **dict.fromkeys(("blocks.delete", "governor.protect", "governor.status"), "mcp writes"),
    "eval.mark": "rest eval",
    **dict.fromkeys(
        (
            "blocks.store",
            "governor.commit",
            "governor.flush",
            "governor.prepare",
            "governor.release",
        ),
        "mcp home writes",
    ),
    **dict.fromkeys(
        ("issues.list", "issues.show", "issues.suggest", "issues.sync.conflicts"), "mcp issues"
    ),
    **dict.fromkeys(("issues.sync", "issues.sync.resolve"), ADMIN),
}
#: command -> its cover, where its operations' declarations do not decide it
CLI_COVERS: dict[str, str] = {
    **dict.fromkeys(
        (
            "blob get",
            "blob list",
            "brief",
            "categories",
            "eval",
            "marks",
            "digest",
            "dream review",
            "dream stats",
            "get",
            "governor status",
            "governor threads",
            "guard list",
            "guard stats",
            "history",
            "issues list",
            "issues show",
            "list-meta",
            "query",
            "recall",
            "stats",
            "versions",
        ),
        "cli reads",
    ),
    **dict.fromkeys(
        (
            "archive",
            "blob delete",
            "delete",
            "dream confirm",
            "dream delete",
            "edit",
            "governor flush",
            "guard resolve",
            "unarchive",
        ),
        "cli writes",
    ),
    "search": "cli search",
    "export": "cli export",
    **dict.fromkeys(
        ("issues conflicts", "issues links", "issues resolve", "issues sync"), KEYED_ADMIN
    ),
    "statusline": "allowed: the key's own thread counters",
}
# Every HTTP route that is no operation's (the workbench, OAuth, the gateway, the documentation):
# the probe that covers it, ADMIN, or why it shows nothing of another tenant.
PAGES: dict[str, str] = {
    "GET /": "workbench pages",
    "GET /.well-known/oauth-authorization-server": "allowed: OAuth metadata",
    "GET /.well-known/oauth-protected-resource": "allowed: OAuth metadata",
    "GET /.well-known/oauth-protected-resource/mcp": "allowed: OAuth metadata",
    "GET /admin": ADMIN,
    "GET /admin/backends": ADMIN,
    "POST /admin/backends": ADMIN,
    "GET /admin/backends/new": ADMIN,
    "POST /admin/backends/{backend}/delete": ADMIN,
    "GET /admin/backends/{backend}/edit": ADMIN,
    "POST /admin/backends/{backend}/edit": ADMIN,
    "POST /admin/backends/{backend}/test": ADMIN,
    "GET /admin/keys": ADMIN,
    "POST /admin/keys": ADMIN,
    "POST /admin/keys/{key_id}/revoke": ADMIN,
    "GET /admin/llmlog": ADMIN,
    "GET /admin/plugins": ADMIN,
    "GET /admin/secrets": ADMIN,
    "POST /admin/secrets": ADMIN,
    "POST /admin/secrets/{name}/delete": ADMIN,
    "GET /admin/settings": ADMIN,
    "POST /admin/settings/{key}": ADMIN,
    "POST /admin/settings/{key}/reset": ADMIN,
    "GET /admin/types": ADMIN,
    "GET /admin/types/{name}": ADMIN,
    "POST /admin/types/{name}": ADMIN,
    "GET /ask": "allowed: the empty question form",
    "POST /ask": "workbench llm",
    "GET /authorize": "allowed: OAuth consent form, no block data",
    "POST /authorize": "allowed: OAuth consent, issues a code for the key given",
    "GET /blocks": "workbench pages",
    "POST /blocks": HOME,
    "GET /blocks/new": "allowed: the empty new-block form",
    "GET /blocks/{ident}": "workbench pages",
    "POST /blocks/{ident}": "workbench writes",
    "POST /blocks/{ident}/archive": "workbench writes",
    "GET /blocks/{ident}/delete": "workbench pages",
    "POST /blocks/{ident}/delete": "workbench writes",
    "GET /blocks/{ident}/edit": "workbench pages",
    "POST /blocks/{ident}/unarchive": "workbench writes",
    "GET /chat": "workbench pages",
    "GET /chat/{session}": "workbench pages",
    "POST /chat/{session}/send": "workbench llm",
    "GET /dashboard/queues": "workbench pages",
    "GET /docs": "allowed: the API documentation page",
    "GET /graph": "workbench pages",
    "GET /graph/data/ego": "workbench pages",
    "POST /graph/data/ego": "workbench pages",
    "GET /graph/data/overview": "workbench pages",
    "GET /issues": "workbench pages",
    "GET /issues/board": "workbench pages",
    "GET /issues/conflicts": "workbench pages",
    "POST /issues/conflicts/{conflict_id}/resolve": ADMIN,
    "GET /issues/new": "allowed: the empty new-issue form",
    "POST /issues/new": HOME,
    "POST /issues/suggest": "allowed: the htmx twin of POST /api/issues/suggest (rest issues)",
    "GET /issues/{scope}/{number}": "workbench pages",
    "POST /issues/{scope}/{number}/close": "workbench writes",
    "POST /issues/{scope}/{number}/comment": "workbench writes",
    "POST /issues/{scope}/{number}/edit": "workbench writes",
    "POST /issues/{scope}/{number}/reopen": "workbench writes",
    "GET /openapi.json": "allowed: the API schema",
    "POST /register": "allowed: OAuth client registration, no block data",
    "GET /eval": "workbench pages",
    "POST /eval/mark": "workbench writes",
    "POST /eval/marks/{mark_id}/delete": "workbench writes",
    "GET /review": "workbench pages",
    "POST /review/dream/{link_id}": "workbench writes",
    "POST /review/guard/resolve": "workbench writes",
    "GET /signin": "allowed: the sign-in form",
    "POST /signin": "allowed: signs in with the key given",
    "POST /signout": "allowed: ends the caller's own session",
    "GET /tenant": "allowed: the key's own tenant (as GET /api/tenants)",
    "POST /tenant": ADMIN,
    "GET /tenant/{name}": ADMIN,
    "POST /tenant/{name}/keys": ADMIN,
    "POST /tenant/{name}/keys/{key_id}/revoke": ADMIN,
    "POST /tenant/{name}/scopes": ADMIN,
    "POST /tenant/{name}/share": ADMIN,
    "POST /token": "allowed: OAuth token exchange, no block data",
    "GET /v1/models": "gateway",
    "POST /v1/chat/completions": "gateway",
}


def _cover(op: Operation, covers: dict[str, str]) -> str:
    """What covers an operation: its entry above, else what its declaration says."""
    if op.name in covers:
        return covers[op.name]
    if op.access == "admin":
        return ADMIN
    if op.reach == "home":
        return HOME
    if op.reach == "none":
        return NONE
    return f"NO PROBE for {op.name}: it reads the key's scopes"


def route_covers(app: App) -> dict[str, str]:
    """Every HTTP route the product serves as ``"METHOD /path"``, with its cover."""
    out = dict(PAGES)
    for op in app.operations.values():
        if op.rest is not None:
            for path in (op.rest.path, *op.rest.also):
                out[f"{op.rest.method} {path}"] = _cover(op, REST_COVERS)
    return out


def tool_covers(app: App) -> dict[str, str]:
    return {
        tool.name: _cover(tool.operation, TOOL_COVERS)
        for tool in app.tools.values()
        if tool.operation is not None
    }


def command_covers(app: App) -> dict[str, str]:
    """Every leaf command with its cover: local ones are the operator's, the stdio relay serves
    the tools, the others as the operations they present."""
    out = {}
    for name, callback in leaf_commands(typer.main.get_command(build_cli(app))):
        ops = [app.operations[n] for n in presented(callback) if n in app.operations]
        if is_local(callback):
            out[name] = LOCAL
        elif relayed(callback):
            out[name] = RELAY
        elif name in CLI_COVERS:
            out[name] = CLI_COVERS[name]
        elif ops and all(op.access == "admin" for op in ops):
            out[name] = KEYED_ADMIN
        elif ops and all(_cover(op, {}) in (HOME, NONE) for op in ops):
            out[name] = _cover(ops[0], {})
        else:
            out[name] = f"NO PROBE for the command {name!r}"
    return out


@pytest.fixture(scope="module")
def world(
    pg_admin_url: str, template_url: str, tmp_path_factory: pytest.TempPathFactory,
    peer: OpenAIServer,
) -> Iterator[World]:  # fmt: skip
    with world_database(pg_admin_url, template_url, tmp_path_factory, peer) as w:
        yield w


@contextmanager
def broken(world: World, which: str) -> Iterator[None]:
    """A rule broken in the database (``HOME_MOVED``: the key's home scope too); restored after,
    with whatever the probes wrote meanwhile."""
    if which != HOME_MOVED:
        with mutated(world, which):
            yield
        return
    with world.app.connection() as conn:
        since = conn.execute("SELECT clock_timestamp() AS t").fetchone()["t"]  # type: ignore[index]
        conn.execute(HOME_MOVED_SQL)
    try:
        yield
    finally:
        with world.app.connection() as conn:
            conn.execute(HOME_RESTORED_SQL)
            conn.execute(TENANCY_SQL.read_text())
            conn.execute("DELETE FROM context_blocks WHERE scope = 'acme' AND created_at >= %s",
                         (since,))  # fmt: skip


PAIRS = (("globex", "acme"), ("acme", "globex"))
SCOPE_PAIRS = (("beta", "alpha"), ("alpha", "beta"))


def test_no_probe_sees_the_other_side_and_each_goes_red_under_its_mutation(
    world: World, capsys: pytest.CaptureFixture[str]
) -> None:
    world.capsys = capsys
    leaks: dict[str, set[str]] = {}
    for name, (probe, shared_ok, _, scoped) in PROBES.items():
        for who, other in PAIRS + (SCOPE_PAIRS if scoped else ()):
            seen = world.seen(probe(world, who), other, shared=not shared_ok)
            if seen:
                leaks[f"{name} as {who}"] = seen
    assert leaks == {}, leaks
    # the grant is seen where it may be: the retrieval probes are not blind to acme's data
    assert "acmeshared" in p_rest_search(world, "globex").lower()
    assert "acmeshared" in p_mcp_retrieval(world, "globex").lower()

    blind: list[str] = []
    for which in [*MUTANTS, HOME_MOVED]:
        with broken(world, which):
            for name, (probe, shared_ok, mutation, scoped) in PROBES.items():
                if which == EVERY_SCOPE and scoped:
                    seen = world.seen(probe(world, "beta"), "alpha", shared=False)
                elif mutation == which:
                    seen = world.seen(probe(world, "globex"), "acme", shared=not shared_ok)
                else:
                    continue
                if not seen - {"shared block"}:
                    blind.append(f"{name} under {which}")
    assert not blind, f"probes that cannot fail: {blind}"
    # restored: isolation is back
    for name in ("rest search", "home writes", "guard match", "guard cross match"):
        probe, shared_ok, _, _ = PROBES[name]
        assert world.seen(probe(world, "globex"), "acme", shared=not shared_ok) == set()


def _filled(route: str, world: World) -> tuple[str, str]:
    """A route's method and a path with its parameters filled with the other tenant's names."""
    method, path = route.split(" ", 1)
    values = {"name": "acme", "key": "server.body_limit", "key_id": MISSING, "backend": "peer",
              "link_id": "1", "conflict_id": "1", "client_id": "x", "forge": "github"}  # fmt: skip
    return method, re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), "1"), path)


def test_every_route_tool_and_command_is_covered(world: World) -> None:
    routes_, tools_, commands_ = (
        route_covers(world.app),
        tool_covers(world.app),
        command_covers(world.app),
    )
    served = http_routes(create_app(world.app))
    assert served["mcp"] == {"/mcp"}  # its tools are the registry below
    routes = served["http"] | served["gateway"]
    assert sorted(routes - set(routes_)) == [], "routes without a probe or a reason"
    assert sorted(set(routes_) - routes) == [], "stale entries"
    tools = world.mcp_tools()
    assert sorted(tools - set(tools_)) == [] and sorted(set(tools_) - tools) == []
    commands = cli_commands(world.app)
    assert sorted(commands - set(commands_)) == [] and sorted(set(commands_) - commands) == []
    for cover in [*routes_.values(), *tools_.values(), *commands_.values()]:
        assert cover in PROBES or cover == ADMIN or cover.startswith("allowed: "), cover
    stale = (set(REST_COVERS) | set(TOOL_COVERS)) - set(world.app.operations)
    assert stale == set(), "covers of operations that do not exist"
    assert set(CLI_COVERS) - commands == set(), "covers of commands that do not exist"
    covers = {*routes_.values(), *tools_.values(), *commands_.values()}
    assert set(PROBES) - covers <= {"guard match", "guard cross match", "cli search"} | {
        n for n in PROBES if n.startswith(("rest", "mcp"))
    }


def test_admin_routes_refuse_a_tenant_key_and_allowed_ones_show_nothing_of_the_other(
    world: World,
) -> None:
    with TestClient(create_app(world.app), raise_server_exceptions=False,
                    follow_redirects=False) as c:  # fmt: skip
        b = Browser(c, world.token["globex"])
        b.sign_in()
        wrong: dict[str, int] = {}
        for route, cover in sorted(route_covers(world.app).items()):
            method, path = _filled(route, world)
            if cover == ADMIN:
                if path.startswith("/api/") or path.startswith("/v1/"):
                    r = c.request(method, path, json={}, headers=world.headers("globex"))
                    ok = r.status_code in REFUSED
                elif method == "GET":
                    r = b.get(path)
                    ok = r.status_code in REFUSED
                else:
                    r = b.post(path, {})
                    ok = r.status_code in REFUSED
                if not ok or world.seen(r.text, "acme"):
                    wrong[route] = r.status_code
            elif cover.startswith("allowed: ") and method == "GET":
                r = c.get(path, headers=world.headers("globex")) if path.startswith("/api") \
                    else b.get(path)  # fmt: skip
                assert r.status_code < 500 and world.seen(r.text, "acme") == set(), route
    assert wrong == {}, json.dumps(wrong)


@pytest.fixture
def moved(app: App, keys: Any, client: TestClient) -> dict[str, dict[str, str]]:
    """A root key of home ``ops``; a root admin cannot move ``ops`` to globex while that key lives
    there, so the row is changed by hand (the stale state a move must never leave); then a globex
    key of home ``ops`` starts a chat there (with globex's secret word)."""
    root = h(keys.make("ops-admin", admin=True))
    old = h(keys.make("ops"))
    assert client.post("/api/tenants", json={"name": "globex"}, headers=root).status_code == 201
    r = client.post("/api/tenants/globex/scopes", json={"scope": "ops", "move": True},
                    headers=root)  # fmt: skip
    assert r.status_code == 409 and "home scope" in r.text, r.text
    with app.connection() as conn:
        conn.execute(
            "INSERT INTO context_tenant_scopes (scope, tenant_id) "
            "SELECT 'ops', id FROM context_tenants WHERE name = 'globex'"
        )
    body = {"name": "globex-ops", "home_scope": "ops", "role": "member"}
    r = client.post("/api/tenants/globex/keys", json=body, headers=root)
    assert r.status_code == 201, r.text
    globex = h(str(r.json()["api_key"]))
    r = client.post(
        "/api/governor/prepare",
        json={"thread": {"session_id": "chat-globex"}, "desk": False,
              "event": {"content": f"{WORD} board meeting {secret('globex')}"}},
        headers=globex,
    )  # fmt: skip
    assert r.status_code == 200, r.text
    # the old key is refused whole ...
    r = client.get("/api/whoami", headers=old)
    assert r.status_code == 403 and "no longer belongs" in r.text, r.text
    # ... and the probe is not blind: globex's own key lists and reads its chat
    for path in ("/api/chat/sessions", "/api/chat/sessions/chat-globex"):
        r = client.get(path, headers=globex)
        assert r.status_code == 200 and secret("globex") in r.text, r.text
    return {"old": old, "globex": globex}


def test_chat_sessions_of_a_moved_home_scope_stay_with_the_new_tenant(
    app: App, client: TestClient, moved: dict[str, dict[str, str]]
) -> None:
    """/api/chat/sessions and /api/chat/sessions/{id} read the key's home scope: a key whose home
    scope now belongs to another tenant is refused whole and sees none of its chats; with the
    pre-tenant rule in the database (the mutation) it would read them."""

    def leaked() -> dict[str, int]:
        return {
            path: r.status_code
            for path in ("/api/chat/sessions", "/api/chat/sessions/chat-globex")
            if secret("globex") in (r := client.get(path, headers=moved["old"])).text
        }

    assert leaked() == {}
    assert client.get("/api/chat/sessions", headers=moved["old"]).status_code == 403
    with app.connection() as conn:  # both guards off: read scopes and home-scope ownership
        conn.execute(PRE_TENANT_READ_SCOPES)
        conn.execute(ONE_TENANT_SCOPES)
    try:
        assert leaked() == {"/api/chat/sessions": 200, "/api/chat/sessions/chat-globex": 200}
    finally:
        with app.connection() as conn:
            conn.execute(TENANCY_SQL.read_text())
