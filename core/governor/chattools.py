"""The tools of a chat turn: their OpenAI specs, running a call the model asked for as the key,
and the trust gate on what comes back.

A tool result carries block content to the model, so it passes the same gate as any other
content: each block it names is looked up for its sensitivity, and the blocks the turn's backend
may not see are taken out (a whole block becomes an error, an answer written from withheld
sources is dropped). A store answer names a block, never its content.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ctx.core.llm import SENSITIVITY_ORDER, ToolCall, may_see
from ctx.core.tools import ToolOutcome, call_tool

if TYPE_CHECKING:
    from ctx.core.access import Principal
    from ctx.core.app import App

#: the tools a chat model is offered: reading and remembering, never deleting
TOOLS = ("query", "search", "get", "store")
RESULT_CHARS = 6000  # the longest tool result a model is sent


def tool_specs(app: App) -> list[dict[str, Any]]:
    """The chat tools in OpenAI's ``tools`` format, from the tools' own names, descriptions and
    input schemas."""
    specs = []
    for name in TOOLS:
        tool = app.tools.get(name)
        if tool is not None:
            function = {
                "name": tool.name,
                "description": tool.description,
                "parameters": tool.input_schema(),
            }
            specs.append({"type": "function", "function": function})
    return specs


def strongest(sensitivities: list[str]) -> str:
    """The most sensitive of several; an unknown one counts as credentials, as the gate treats
    it; none is public."""
    rank = 0
    for s in sensitivities:
        rank = max(rank, SENSITIVITY_ORDER.index(s) if s in SENSITIVITY_ORDER else 3)
    return SENSITIVITY_ORDER[rank]


@dataclass
class ToolUse:
    """One tool call of a turn: what was asked, what came back (as the model reads it)."""

    name: str
    arguments: Any
    ok: bool
    summary: str
    content: str
    ids: list[str] = field(default_factory=list)
    sensitivities: list[str] = field(default_factory=list)

    def card(self) -> dict[str, Any]:
        args = json.dumps(self.arguments, ensure_ascii=False, default=str)
        shown = self.arguments if len(args) <= 500 else args[:500] + "…"
        return {"name": self.name, "arguments": shown, "ok": self.ok, "summary": self.summary}


def parse_arguments(arguments: str) -> tuple[Any, str | None]:
    if not arguments.strip():
        return {}, None
    try:
        return json.loads(arguments), None
    except ValueError:
        return arguments, "the arguments are not valid JSON; send a JSON object"


def _sensitivities(app: App, ids: list[str]) -> dict[str, str]:
    if not ids:
        return {}
    with app.connection() as conn:
        rows = conn.execute(
            "SELECT id::text AS id, sensitivity FROM context_blocks WHERE id = ANY(%s::uuid[])",
            (ids,),
        ).fetchall()
    return {r["id"]: r["sensitivity"] for r in rows}


def gate_result(app: App, name: str, result: Any, trust: str) -> tuple[Any, list[str], list[str]]:
    """A tool result with the blocks the backend may not see taken out: ``(result, ids of the
    blocks it shows, their sensitivities)``. A store answer names a block, never its content."""
    if name == "store" or not isinstance(result, dict):
        return result, [], []
    found = result.get("results")
    items: list[Any] = found if isinstance(found, list) else []
    whole = "content" in result and "id" in result  # a block in full (get)
    ids = [str(i["id"]) for i in items if isinstance(i, dict) and "id" in i]
    if whole:
        ids.append(str(result["id"]))
    marks = _sensitivities(app, ids)

    def visible(block_id: str) -> bool:
        return may_see(trust, marks.get(block_id, "credentials"))

    if whole and not visible(str(result["id"])):
        message = (
            f"block {result['id']} is withheld: its sensitivity is above what this model "
            "backend may see"
        )
        return {"error": message}, [], []
    out = dict(result)
    if items:
        kept = [i for i in items if isinstance(i, dict) and visible(str(i.get("id")))]
        withheld = len(items) - len(kept)
        out["results"] = kept
        if withheld:  # an answer written from the withheld blocks would carry them
            out.pop("answer", None)
            out.pop("citations", None)
            out["withheld"] = (
                f"{withheld} result(s) left out: above what this model backend may see"
            )
    shown = [str(i["id"]) for i in out.get("results") or [] if isinstance(i, dict) and "id" in i]
    if whole:
        shown.append(str(out["id"]))
    return out, shown, [marks[i] for i in shown if i in marks]


def summarize(name: str, result: Any) -> str:
    """A line for people: what the tool found or did."""
    if not isinstance(result, dict):
        return "done"
    if "error" in result and len(result) == 1:
        return str(result["error"])[:300]
    if name == "store":
        return f"{result.get('action', 'stored')} block {str(result.get('id', ''))[:8]}"
    if "content" in result and "title" in result:
        return f"{result['title']} ({str(result.get('id', ''))[:8]})"[:300]
    found = result.get("results")
    items: list[Any] = found if isinstance(found, list) else []
    titles = [str(i.get("title", "")) for i in items[:3] if isinstance(i, dict)]
    text = f"{len(items)} result{'s' if len(items) != 1 else ''}"
    if titles:
        text += ": " + ", ".join(titles) + ("…" if len(items) > 3 else "")
    if result.get("withheld"):
        text += f" ({result['withheld']})"
    return text[:300]


def _capped(result: Any) -> str:
    if isinstance(result, dict) and isinstance(result.get("content"), str):
        content = result["content"]
        if len(content) > RESULT_CHARS - 500:
            result = {**result, "content": content[: RESULT_CHARS - 500] + " …(cut)"}
    text = json.dumps(result, ensure_ascii=False, default=str)
    return text if len(text) <= RESULT_CHARS else text[:RESULT_CHARS] + " …(cut)"


def run_tool(app: App, who: Principal, call: ToolCall, trust: str) -> ToolUse:
    """Run one call the model asked for, as the key, and gate its result for ``trust``."""
    arguments, problem = parse_arguments(call.arguments)
    if call.name not in TOOLS:
        outcome = ToolOutcome(error=f"unknown tool {call.name!r}; tools: {', '.join(TOOLS)}")
    elif problem is not None:
        outcome = ToolOutcome(error=problem)
    else:
        outcome = call_tool(app, who, call.name, arguments)
    if outcome.error is not None:
        error = {"error": outcome.error}
        return ToolUse(call.name, arguments, False, outcome.error[:300], json.dumps(error))
    result, ids, marks = gate_result(app, call.name, outcome.result, trust)
    ok = not (isinstance(result, dict) and set(result) == {"error"})
    return ToolUse(call.name, arguments, ok, summarize(call.name, result), _capped(result), ids,
                   marks)  # fmt: skip
