"""One chat-completions request read as a governed turn: which thread, which budget, the client's
system prompt, the incoming message and the sampling params to pass through.

Only the system message(s) and the last message are used: the client's earlier history is the
thread's memory, which the governor holds and replaces it with.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ctx.core import CtxError
from ctx.core.validation import check_input
from ctx.ui.gateway.errors import GatewayError

THREAD_HEADER = "x-ctx-thread"
COLLECTION_HEADER = "x-ctx-collection"
BUDGET_HEADER = "x-ctx-budget"
STRICT_HEADER = "x-ctx-strict"

#: Sampling params passed through to the backend (the backend row's own params win).
NUMBERS = ("temperature", "top_p", "presence_penalty", "frequency_penalty")
INTEGERS = ("max_tokens", "max_completion_tokens", "seed")
PASSED = (*NUMBERS, *INTEGERS, "stop", "response_format", "tools", "tool_choice")
SYSTEM_ROLES = ("system", "developer")
ROLES = ("system", "developer", "user", "assistant", "tool")
TRUE = ("true", "1", "yes", "on")
FALSE = ("false", "0", "no", "off", "")

NO_THREAD = (
    "name the thread this turn belongs to: send the header 'X-Ctx-Thread: <session id>' "
    "(OpenAI clients: default_headers) or the body's 'user' field; ctx keeps the thread's "
    "history, so send only the new message"
)


@dataclass(frozen=True)
class Turn:
    thread: str
    collection: str | None
    budget: int | None
    strict: bool
    system: str | None
    role: str  # user or tool
    content: str
    name: str | None
    stream: bool
    include_usage: bool
    model: str | None
    params: dict[str, Any] = field(default_factory=dict)


def _bad(message: str, param: str | None = None, code: str = "invalid_value") -> GatewayError:
    return GatewayError(400, message, param=param, code=code)


def parse_json(raw: bytes) -> dict[str, Any]:
    """The body as a JSON object, or a 400 saying what it is instead."""
    if not raw.strip():
        raise _bad("the request body is empty; send a JSON object with 'messages'", code="no_body")
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise _bad(f"the request body is not valid JSON ({exc})", code="invalid_json") from None
    if not isinstance(body, dict):
        raise _bad("the request body must be a JSON object with 'messages'", code="invalid_json")
    try:
        check_input(body)
    except CtxError as exc:
        raise _bad(exc.message, exc.field) from None
    return body


def text_of(content: Any, where: str) -> str:
    """A message's text: a string, or the text parts of a list joined by newlines."""
    if isinstance(content, str):
        return content
    if content is None:
        return ""
    if not isinstance(content, list):
        raise _bad(f"{where}.content must be a string or a list of content parts", where)
    texts: list[str] = []
    for i, part in enumerate(content):
        kind = part.get("type") if isinstance(part, dict) else None
        text = part.get("text") if isinstance(part, dict) else None
        if kind != "text" or not isinstance(text, str):
            raise _bad(
                f'{where}.content[{i}] is not a text part ({{"type": "text", "text": …}}); '
                "the gateway carries text only",
                f"{where}.content",
            )
        texts.append(text)
    return "\n".join(texts)


def header_text(headers: Mapping[str, str], name: str) -> str | None:
    """A header's value, read as UTF-8 (HTTP delivers header bytes as latin-1)."""
    value = headers.get(name)
    if value is None:
        return None
    with contextlib.suppress(UnicodeError):  # not UTF-8: keep the latin-1 reading
        value = value.encode("latin-1").decode("utf-8")
    return value.strip()


def _strict(headers: Mapping[str, str]) -> bool:
    value = (header_text(headers, STRICT_HEADER) or "").lower()
    if value in TRUE:
        return True
    if value in FALSE:
        return False
    raise _bad("X-Ctx-Strict must be true or false", "X-Ctx-Strict")


def _budget(headers: Mapping[str, str]) -> int | None:
    value = header_text(headers, BUDGET_HEADER)
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        raise _bad(
            f"X-Ctx-Budget must be a whole number of tokens, not {value[:40]!r}", "X-Ctx-Budget"
        ) from None


def _params(body: Mapping[str, Any]) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for name in PASSED:
        value = body.get(name)
        if value is None:
            continue
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if name in NUMBERS and not number:
            raise _bad(f"{name} must be a number", name)
        if name in INTEGERS and (not isinstance(value, int) or isinstance(value, bool)):
            raise _bad(f"{name} must be a whole number", name)
        if name == "stop" and not (
            isinstance(value, str)
            or (isinstance(value, list) and all(isinstance(s, str) for s in value))
        ):
            raise _bad("stop must be a string or a list of strings", name)
        if name == "response_format" and not isinstance(value, dict):
            raise _bad("response_format must be an object", name)
        if name == "tools" and not isinstance(value, list):
            raise _bad("tools must be a list", name)
        if name == "tool_choice" and not isinstance(value, str | dict):
            raise _bad("tool_choice must be a string or an object", name)
        params[name] = value
    return params


def _messages(body: Mapping[str, Any]) -> list[dict[str, Any]]:
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise _bad(
            "'messages' is required: a non-empty list whose last message is the user's (or a "
            "tool's) new turn",
            "messages",
            code="missing_messages" if messages is None else "invalid_value",
        )
    for i, m in enumerate(messages):
        if not isinstance(m, dict):
            raise _bad(f"messages[{i}] must be an object", f"messages[{i}]")
        if m.get("role") not in ROLES:
            raise _bad(
                f"messages[{i}].role must be one of {', '.join(ROLES)}", f"messages[{i}].role"
            )
    return messages


def read_turn(body: Mapping[str, Any], headers: Mapping[str, str]) -> Turn:
    """The turn a request carries, or a 400 that names the problem."""
    messages = _messages(body)
    last = messages[-1]
    where = f"messages[{len(messages) - 1}]"
    if last["role"] not in ("user", "tool"):
        raise _bad(
            f"the last message must be the new turn, role user or tool, not {last['role']!r}; "
            "ctx answers one new turn per call",
            f"{where}.role",
        )
    content = text_of(last.get("content"), where)
    if not content.strip():
        raise _bad(f"{where} has no text", f"{where}.content")
    name = last.get("name")
    if name is not None and not isinstance(name, str):
        raise _bad(f"{where}.name must be a string", f"{where}.name")
    systems = [
        text_of(m.get("content"), f"messages[{i}]")
        for i, m in enumerate(messages)
        if m["role"] in SYSTEM_ROLES
    ]
    system = "\n\n".join(s for s in systems if s.strip()) or None

    stream = body.get("stream", False)
    if not isinstance(stream, bool):
        raise _bad("stream must be true or false", "stream")
    options = body.get("stream_options")
    if options is not None and not isinstance(options, dict):
        raise _bad("stream_options must be an object", "stream_options")
    include_usage = bool((options or {}).get("include_usage"))
    n = body.get("n")
    if n is not None and n != 1:
        raise _bad("the gateway answers with one choice: n must be 1", "n")
    model = body.get("model")
    if model is not None and not isinstance(model, str):
        raise _bad("model must be a string", "model")
    user = body.get("user")
    if user is not None and not isinstance(user, str):
        raise _bad("user must be a string", "user")

    thread = header_text(headers, THREAD_HEADER) or (user or "").strip()
    if not thread:
        raise _bad(NO_THREAD, "user", code="thread_required")
    return Turn(
        thread=thread,
        collection=header_text(headers, COLLECTION_HEADER) or None,
        budget=_budget(headers),
        strict=_strict(headers),
        system=system,
        role=str(last["role"]),
        content=content,
        name=name.strip() if isinstance(name, str) and name.strip() else None,
        stream=stream,
        include_usage=include_usage,
        model=model or None,
        params=_params(body),
    )
