"""What the agent hooks ask ctx and how they word it: briefings, recalled blocks, persisted
markers, the status line. Every function takes ``post`` (a ``Client.post``) so a hook can pass one
that keeps to its deadline.

The hooks run on every prompt and do not import the operations' declarations (their models cost
about a tenth of a second): ``ROUTES`` holds the paths of the operations they call, and a test
checks each against its declaration."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ctx.core.client import Client, ClientError
from ctx.ui.cli.transcript import Marked, last_assistant_text

Post = Callable[[str, dict[str, Any]], dict[str, Any]]
BRIEFING = "agent-briefing"
CHARS_PER_TOKEN = 4  # the usual estimate for English text; ctx has no tokenizer on this path
RECALL_SOURCES = 5
RELATIVE_FLOOR = 0.5  # a recalled block scores at least this share of the best one
MIN_ROOM = 200  # characters: a block with less room than this is left out, not cut to nothing
LIST_PAGE, LIST_PAGES = 200, 5
#: operation name -> its route's path (tests/ui/cli/test_hooks.py checks them)
ROUTES = {
    "blocks.manage": "/api/manage",
    "blocks.store": "/api/store",
    "retrieval.query": "/api/query",
}
MANAGE, STORE, QUERY = (ROUTES[n] for n in ("blocks.manage", "blocks.store", "retrieval.query"))


def briefing(post: Post, project: str, limit: int) -> list[dict[str, Any]]:
    """The ``agent-briefing`` blocks tagged with ``project``, newest first; the untagged ones
    when none is."""
    listed: list[dict[str, Any]] = []
    for page in range(LIST_PAGES):
        body = {"action": "list", "category": BRIEFING, "limit": LIST_PAGE}
        rows = post(MANAGE, {**body, "offset": page * LIST_PAGE})["blocks"]
        listed += [r for r in rows if not r.get("is_archived")]
        if len(rows) < LIST_PAGE:
            break
    chosen = [r for r in listed if project in r["tags"]] or [r for r in listed if not r["tags"]]
    return [post(MANAGE, {"action": "get", "id": r["id"]})["block"] for r in chosen[:limit]]


def block_heading(block: dict[str, Any]) -> str:
    return f"{block['title']} [{block['category']} · {block['id'][:8]}]"


def fitted(blocks: Iterable[dict[str, Any]], room: int) -> list[str]:
    """Blocks as ``## heading`` + content, in order, within ``room`` characters: the last one that
    fits is cut at a word, the rest are not taken (nor, for a lazy iterable, fetched)."""
    parts: list[str] = []
    for block in blocks:
        heading = f"## {block_heading(block)}\n"
        space = room - len(heading) - 2
        if space < MIN_ROOM:
            break
        body = trimmed(block["content"], space)
        parts.append(heading + body)
        room -= len(heading) + len(body) + 2
    return parts


def briefing_text(project: str, blocks: list[dict[str, Any]], budget_tokens: int) -> str:
    """The briefing within ``budget_tokens``: blocks newest first, the last one that fits cut at a
    word; the ones left out are counted, so the agent knows to ask for them."""
    intro = f"Briefing from ctx for project {project!r}:"
    left_out = f"(NNN more briefing blocks: `ctx brief -p {project}`)"
    parts = fitted(blocks, budget_tokens * CHARS_PER_TOKEN - len(intro) - len(left_out) - 2)
    if len(parts) < len(blocks):
        parts.append(f"({len(blocks) - len(parts)} more briefing blocks: `ctx brief -p {project}`)")
    return "\n\n".join([intro, *parts])


def trimmed(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` characters, cut at a word with an ellipsis."""
    flat = text.strip()
    if len(flat) <= limit:
        return flat
    cut = flat[: max(limit - 1, 0)]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip() + "…"


def recall_text(post: Post, prompt: str, budget_tokens: int) -> str | None:
    """The most relevant blocks for ``prompt`` within the budget; None unless ctx is confident."""
    prompt = prompt.strip()[:2000]
    if not prompt:
        return None
    result = post(QUERY, {"query": prompt, "limit": RECALL_SOURCES})
    sources = result.get("sources") or []
    if result.get("confidence") != "confident" or not sources:
        return None
    best = float(sources[0]["score"])
    relevant = (
        post(MANAGE, {"action": "get", "id": source["id"]})["block"]
        for source in sources
        if float(source["score"]) >= best * RELATIVE_FLOOR
    )
    intro = "Relevant memory from ctx (ids work with `ctx get`):"
    parts = fitted(relevant, budget_tokens * CHARS_PER_TOKEN - len(intro))
    return "\n\n".join([intro, *parts]) if parts else None


def last_message(payload: dict[str, Any]) -> str:
    """The agent's last message: from the payload when it carries it, else from the transcript
    (the subagent's own for SubagentStop)."""
    given = payload.get("last_assistant_message")
    if isinstance(given, str) and given.strip():
        return given
    subagent = payload.get("hook_event_name") == "SubagentStop"
    own = payload.get("agent_transcript_path")
    if subagent and isinstance(own, str) and own:
        return last_assistant_text(own, sidechain=None)
    path = payload.get("transcript_path")
    if not isinstance(path, str) or not path:
        return ""
    return last_assistant_text(path, sidechain=subagent and not own)


def store_marked(
    post: Post, blocks: list[Marked], project: str, metadata: dict[str, Any]
) -> tuple[list[dict[str, Any]], list[str]]:
    """Store each block, tagged with the project (an upsert by category and title: a second run
    stores nothing new). Returns what was stored and why the others were not."""
    stored, problems = [], []
    for b in blocks:
        body = {
            "title": b.title,
            "content": b.content,
            "category": b.category,
            "tags": [project],
            "metadata": metadata,
        }
        try:
            stored.append(post(STORE, body))
        except ClientError as exc:  # one bad marker (a title too long, ...) costs only itself
            problems.append(f"{b.category}:{b.title}: {exc.message}")
    return stored, problems


def status_text(client: Client) -> str:
    try:
        health = client.health()
    except ClientError:
        return "ctx: offline"
    if health.get("status") not in ("ok", "warming"):
        return "ctx: database unavailable"
    if not client.key:
        return "ctx: online (no API key)"
    try:
        stats = client.post(MANAGE, {"action": "stats"})["stats"]
    except ClientError:
        return "ctx: online (key refused)"
    line = f"ctx: {stats['blocks']} blocks"
    pending = int(stats.get("pending_jobs") or 0)
    return f"{line}, {pending} jobs pending" if pending else line
