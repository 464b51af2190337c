"""What ``/v1/chat/completions`` answers, read into a ``ChatResult``: a whole answer, or a stream
put together chunk by chunk (text deltas, usage, the finish reason and ``tool_calls`` deltas).

Only the JSON is known here; the HTTP side (timeouts, deadlines, SSE framing, ``[DONE]``) is
``OpenAIClient``'s. Both readers take ``tools``: whether the request offered tools, so that the
answer may be tool calls instead of (or besides) text. A shape the format does not allow is an
``InvalidResponse``; an error the server reports inside a stream is a ``ModelError``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ctx.core.llm.errors import InvalidResponse, ModelError


@dataclass
class ChatResult:
    text: str
    model: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    finish_reason: str | None = None


@dataclass(frozen=True)
class ToolCall:
    """One call the model asked for: ``arguments`` is the JSON text it wrote (perhaps invalid)."""

    id: str
    name: str
    arguments: str

    def message(self) -> dict[str, Any]:
        """The call as the assistant message's ``tool_calls`` entry that a next round repeats."""
        return {
            "id": self.id,
            "type": "function",
            "function": {"name": self.name, "arguments": self.arguments},
        }


@dataclass
class ToolChatResult(ChatResult):
    """A chat answer that may ask for tool calls instead of (or besides) text."""

    tool_calls: list[ToolCall] = field(default_factory=list)


def whole_answer(body: Any, model: str, who: str, max_chars: int, *, tools: bool) -> ChatResult:
    """A whole chat completion (``body``, parsed JSON) from backend ``who``: a ``ChatResult``
    whose text is ``choices[0].message.content``, or with ``tools`` a ``ToolChatResult`` whose
    text may be missing when the message carries ``tool_calls``. Text and call arguments
    together may not exceed ``max_chars``; ``model`` stands in when the answer names none."""
    try:
        choice = body["choices"][0]
        message = choice["message"]
        content = None if tools else message["content"]
    except (KeyError, IndexError, TypeError):
        wanted = "choices[0].message" if tools else "choices[0].message.content"
        raise InvalidResponse(f"{who} sent a chat answer without {wanted}") from None
    calls: list[ToolCall] | None = None
    if tools:
        if not isinstance(message, dict):
            raise InvalidResponse(f"{who} sent a chat answer whose message is not an object")
        content = message.get("content")
        calls = _tool_calls(message.get("tool_calls"), who)
        if content is None and not calls:
            raise InvalidResponse(f"{who} sent a chat answer with neither content nor tool_calls")
    if not isinstance(content, str) and not (tools and content is None):
        raise InvalidResponse(f"{who} sent a chat answer whose content is not text")
    text = content or ""
    if len(text) + sum(len(c.arguments) for c in calls or []) > max_chars:
        raise InvalidResponse(f"{who} sent an answer over {max_chars} chars")
    usage = body.get("usage") if isinstance(body.get("usage"), dict) else {}
    finish = choice.get("finish_reason") if isinstance(choice, dict) else None
    return _result(text, str(body.get("model") or model), usage, finish, calls)


class StreamedAnswer:
    """One streamed answer put together from its chunks: ``add`` each event's ``data`` (not the
    ``[DONE]`` marker) and pass on the text pieces it yields, then take ``result``. Text (and,
    with ``tools``, call arguments) past ``max_chars`` stops the stream.

    Without ``tools`` a chunk's ``tool_calls`` are not read (nor counted), and a ``delta`` that
    is not an object is skipped rather than refused: the plain stream has always done so, and
    a request that offered tools must not lose a call's pieces unnoticed."""

    def __init__(self, who: str, max_chars: int, *, tools: bool) -> None:
        self.who = who
        self.max_chars = max_chars
        self.calls = _CallParts(who) if tools else None
        self.pieces: list[str] = []
        #: characters read so far (text, and call arguments when tools are read)
        self.size = 0
        self.finish: str | None = None
        self.usage: dict[str, Any] = {}

    def add(self, data: str) -> Iterator[str]:
        """Read one event; its text pieces, in order, as they are read."""
        event = _event(data, self.who)
        if isinstance(event.get("usage"), dict):
            self.usage = event["usage"]
        choices = event.get("choices") or []
        if not isinstance(choices, list):
            raise InvalidResponse(f"{self.who} sent a malformed stream chunk")
        for choice in choices:
            if not isinstance(choice, dict):
                raise InvalidResponse(f"{self.who} sent a malformed stream chunk")
            delta = choice.get("delta") or {}
            if not isinstance(delta, dict):
                if self.calls is not None:
                    raise InvalidResponse(f"{self.who} sent a malformed stream chunk")
                delta = {}
            if self.calls is not None and delta.get("tool_calls") is not None:
                self.size += self.calls.add(delta["tool_calls"])
            content = delta.get("content")
            if isinstance(content, str) and content:
                self.size += len(content)
                self.pieces.append(content)
            if self.size > self.max_chars:
                raise InvalidResponse(
                    f"{self.who}'s stream ran past {self.max_chars} characters; stopped"
                )
            if isinstance(content, str) and content:
                yield content
            if choice.get("finish_reason"):
                self.finish = str(choice["finish_reason"])

    def result(self, model: str) -> ChatResult:
        """The whole answer (a ``ToolChatResult`` with the calls when tools were read); ``model``
        is the one asked for (stream chunks need not name it)."""
        calls = self.calls.calls() if self.calls is not None else None
        return _result("".join(self.pieces), model, self.usage, self.finish, calls)


def _result(
    text: str,
    model: str,
    usage: Mapping[str, Any],
    finish: str | None,
    calls: list[ToolCall] | None,
) -> ChatResult:
    prompt, completion = _count(usage.get("prompt_tokens")), _count(usage.get("completion_tokens"))
    if calls is None:
        return ChatResult(text, model, prompt, completion, finish)
    return ToolChatResult(text, model, prompt, completion, finish, tool_calls=calls)


def _event(data: str, who: str) -> dict[str, Any]:
    try:
        event = json.loads(data)
    except ValueError:
        raise InvalidResponse(
            f"{who} sent a stream event that is not JSON: {data[:80]!r}"
        ) from None
    if not isinstance(event, dict):
        raise InvalidResponse(f"{who} sent a stream event that is not an object")
    if "error" in event:
        error = event["error"]
        message = error.get("message") if isinstance(error, dict) else error
        raise ModelError(f"{who} reported an error in its stream", detail=str(message)[:300])
    return event


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _arguments(value: Any, who: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):  # a few servers send the object itself
        return json.dumps(value, ensure_ascii=False)
    if value is None:
        return ""
    raise InvalidResponse(f"{who} sent tool-call arguments that are neither text nor an object")


def _tool_calls(raw: Any, who: str) -> list[ToolCall]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise InvalidResponse(f"{who} sent tool_calls that are not a list")
    calls = []
    for i, item in enumerate(raw):
        function = item.get("function") if isinstance(item, dict) else None
        name = function.get("name") if isinstance(function, dict) else None
        if not isinstance(name, str) or not name:
            raise InvalidResponse(f"{who} sent tool call {i} without a function name")
        assert isinstance(function, dict) and isinstance(item, dict)
        cid = item.get("id")
        calls.append(
            ToolCall(
                cid if isinstance(cid, str) and cid else f"call_{i}",
                name,
                _arguments(function.get("arguments"), who),
            )
        )
    return calls


class _CallParts:
    """Tool calls put together from stream deltas: each delta names its call by ``index``; the
    id and name come once, the arguments in pieces."""

    def __init__(self, who: str) -> None:
        self.who = who
        self.parts: dict[int, dict[str, str]] = {}

    def add(self, deltas: Any) -> int:
        """Take one chunk's ``delta.tool_calls``; the number of argument characters added."""
        if not isinstance(deltas, list):
            raise InvalidResponse(f"{self.who} sent delta.tool_calls that is not a list")
        added = 0
        for delta in deltas:
            index = delta.get("index", 0) if isinstance(delta, dict) else None
            if not isinstance(index, int) or isinstance(index, bool) or index < 0:
                raise InvalidResponse(f"{self.who} sent a tool-call delta without an index")
            assert isinstance(delta, dict)
            part = self.parts.setdefault(index, {"id": "", "name": "", "arguments": ""})
            if isinstance(delta.get("id"), str) and not part["id"]:
                part["id"] = delta["id"]
            function = delta.get("function") or {}
            if not isinstance(function, dict):
                raise InvalidResponse(f"{self.who} sent a tool-call delta whose function is odd")
            if isinstance(function.get("name"), str) and not part["name"]:
                part["name"] = function["name"]
            piece = function.get("arguments")
            if piece is not None:
                text = _arguments(piece, self.who)
                part["arguments"] += text
                added += len(text)
        return added

    def calls(self) -> list[ToolCall]:
        out = []
        for n, (index, part) in enumerate(sorted(self.parts.items())):
            if not part["name"]:
                raise InvalidResponse(f"{self.who} streamed tool call {index} without a name")
            out.append(ToolCall(part["id"] or f"call_{n}", part["name"], part["arguments"]))
        return out
