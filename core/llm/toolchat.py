"""Chat with tools: OpenAI's ``tools`` / ``tool_calls`` exchange, whole or streamed, with every
round of one turn on the same backend.

A turn in which the model may call tools is several model calls: the model asks for calls, the
caller runs them and sends the results back, until the model answers in text. The caller filters
each tool result for the trust level of the backend that will read it, so the rounds must not
wander: the first round walks the role's chain (a backend that fails before its first output is
replaced by the next, as ``stream`` does), and later rounds stay with the backend that answered.

The built-in ``openai`` kind speaks the exchange here; a plugin kind's client may offer
``tool_chat`` and ``stream_tool_chat`` with the same signatures, and one that offers neither
still answers in text (its rounds offer no tools).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

import httpx

from ctx.core.llm.backends import Backend
from ctx.core.llm.calls import Attempt, _exhausted, _failed, _log, _merged, attempts
from ctx.core.llm.errors import InvalidResponse, ModelError, ModelTimeout, NoBackend
from ctx.core.llm.gate import Piece
from ctx.core.llm.openai_wire import RESERVED, ChatResult, OpenAIClient, _event, _int
from ctx.core.llm.sse import sse_events

if TYPE_CHECKING:
    from ctx.core.app import App

PATH = "/v1/chat/completions"
Message = dict[str, Any]
BuildMessages = Callable[[list[Piece]], list[Message]]


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


@dataclass
class ToolRound:
    """What one model call of a turn produced, and from whom."""

    text: str
    tool_calls: list[ToolCall]
    backend: str
    model: str
    prompt_tokens: int | None
    completion_tokens: int | None
    finish_reason: str | None
    latency_ms: float
    withheld: int


# -- the wire --------------------------------------------------------------------------------------


def _payload(
    model: str,
    messages: Sequence[Mapping[str, Any]],
    params: Mapping[str, Any],
    tools: Sequence[Mapping[str, Any]],
) -> dict[str, Any]:
    extra = {k: v for k, v in params.items() if k not in RESERVED}
    out: dict[str, Any] = {"model": model, "messages": list(messages), **extra}
    if tools:
        out["tools"] = list(tools)
    return out


def _arguments(value: Any, who: str) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):  # a few servers send the object itself
        return json.dumps(value, ensure_ascii=False)
    if value is None:
        return ""
    raise InvalidResponse(f"{who} sent tool-call arguments that are neither text nor an object")


def _calls(raw: Any, who: str) -> list[ToolCall]:
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


def tool_chat(
    client: OpenAIClient,
    model: str,
    messages: Sequence[Mapping[str, Any]],
    params: Mapping[str, Any],
    tools: Sequence[Mapping[str, Any]],
) -> ToolChatResult:
    """One whole answer: text, tool calls, or both."""
    body = client._post_json(PATH, _payload(model, messages, params, tools))
    try:
        choice = body["choices"][0]
        message = choice["message"]
    except (KeyError, IndexError, TypeError):
        raise InvalidResponse(
            f"{client.name} sent a chat answer without choices[0].message"
        ) from None
    if not isinstance(message, dict):
        raise InvalidResponse(f"{client.name} sent a chat answer whose message is not an object")
    text = message.get("content")
    calls = _calls(message.get("tool_calls"), client.name)
    if text is None and not calls:
        raise InvalidResponse(
            f"{client.name} sent a chat answer with neither content nor tool_calls"
        )
    if text is not None and not isinstance(text, str):
        raise InvalidResponse(f"{client.name} sent a chat answer whose content is not text")
    text = text or ""
    if len(text) + sum(len(c.arguments) for c in calls) > client.limits.max_chars:
        raise InvalidResponse(f"{client.name} sent an answer over {client.limits.max_chars} chars")
    usage = body.get("usage") if isinstance(body.get("usage"), dict) else {}
    return ToolChatResult(
        text=text,
        model=str(body.get("model") or model),
        prompt_tokens=_int(usage.get("prompt_tokens")),
        completion_tokens=_int(usage.get("completion_tokens")),
        finish_reason=choice.get("finish_reason") if isinstance(choice, dict) else None,
        tool_calls=calls,
    )


class _Calls:
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


def stream_tool_chat(
    client: OpenAIClient,
    model: str,
    messages: Sequence[Mapping[str, Any]],
    params: Mapping[str, Any],
    tools: Sequence[Mapping[str, Any]],
) -> Iterator[str | ToolChatResult]:
    """The answer's text pieces as they arrive, then one ``ToolChatResult`` with the whole text
    and the tool calls the deltas put together."""
    payload = _payload(model, messages, params, tools)
    payload.update(stream=True, stream_options={"include_usage": True})
    limits = client.limits
    deadline = time.monotonic() + limits.total
    pieces: list[str] = []
    calls = _Calls(client.name)
    size = 0
    finish: str | None = None
    usage: dict[str, Any] = {}
    done = False
    with client._open(PATH, payload) as response:
        try:
            for data in sse_events(client._lines(response, deadline)):
                if data.strip() == "[DONE]":
                    done = True
                    break
                event = _event(data, client.name)
                if isinstance(event.get("usage"), dict):
                    usage = event["usage"]
                choices = event.get("choices") or []
                if not isinstance(choices, list):
                    raise InvalidResponse(f"{client.name} sent a malformed stream chunk")
                for choice in choices:
                    delta = choice.get("delta") if isinstance(choice, dict) else None
                    if not isinstance(choice, dict) or not isinstance(delta or {}, dict):
                        raise InvalidResponse(f"{client.name} sent a malformed stream chunk")
                    delta = delta or {}
                    content = delta.get("content")
                    if delta.get("tool_calls") is not None:
                        size += calls.add(delta["tool_calls"])
                    if isinstance(content, str) and content:
                        size += len(content)
                        pieces.append(content)
                    if size > limits.max_chars:
                        raise InvalidResponse(
                            f"{client.name}'s stream ran past {limits.max_chars} characters; "
                            "stopped"
                        )
                    if isinstance(content, str) and content:
                        yield content
                    if choice.get("finish_reason"):
                        finish = str(choice["finish_reason"])
        except httpx.TimeoutException:
            raise ModelTimeout(
                f"{client.name}'s stream stalled: nothing for {limits.read:g} s (llm.read_timeout)"
            ) from None
        except httpx.HTTPError as exc:
            raise InvalidResponse(
                f"{client.name}'s stream broke off ({type(exc).__name__}) after {size} characters"
            ) from None
    if not done and finish is None:
        raise InvalidResponse(
            f"{client.name}'s stream ended before the answer was complete (no finish_reason, no "
            f"[DONE]) after {size} characters"
        )
    yield ToolChatResult(
        text="".join(pieces),
        model=model,
        prompt_tokens=_int(usage.get("prompt_tokens")),
        completion_tokens=_int(usage.get("completion_tokens")),
        finish_reason=finish,
        tool_calls=calls.calls(),
    )


def _items(
    client: Any,
    model: str,
    messages: list[Message],
    params: dict[str, Any],
    tools: Sequence[Mapping[str, Any]],
    stream: bool,
) -> Iterator[str | ChatResult]:
    """What the client says, through the tool exchange it speaks (or plain text)."""
    own = getattr(client, "stream_tool_chat" if stream else "tool_chat", None)
    if not callable(own) and isinstance(client, OpenAIClient):
        own = partial(stream_tool_chat if stream else tool_chat, client)
    if callable(own):
        return (
            iter(own(model, messages, params, tools))
            if stream
            else iter([own(model, messages, params, tools)])
        )
    # a kind without tools: plain text, no tools offered
    if stream:
        return iter(client.stream_chat(model, messages, params))
    return iter([client.chat(model, messages, params)])


# -- the rounds of a turn ------------------------------------------------------------------------


class ToolChat:
    """One turn's model calls for ``role``: the first round picks the backend (trust gate, chain,
    failover before the first output), every later round goes to that backend."""

    def __init__(
        self,
        app: App,
        role: str,
        *,
        pieces: Sequence[Piece] = (),
        need: int = 0,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        self.app = app
        self.role = role
        self.pieces = list(pieces)
        self.need = need
        self.params = dict(params or {})
        self._attempt: Attempt | None = None

    @property
    def backend(self) -> Backend | None:
        """The backend the turn stays with (None before the first round answered)."""
        return self._attempt.backend if self._attempt else None

    @property
    def trust(self) -> str:
        """The trust level of the turn's backend: what later rounds' tool results may carry."""
        return self._attempt.backend.trust if self._attempt else "public"

    def round(
        self, build: BuildMessages, *, tools: Sequence[Mapping[str, Any]] = (), stream: bool = True
    ) -> Iterator[str | ToolRound]:
        """Text pieces (when streaming), then the ``ToolRound``. ``build(admitted)`` makes the
        messages from the pieces the backend may see."""
        if self._attempt is not None:
            yield from self._call(self._attempt, build, tools, stream)
            return
        failures: list[ModelError] = []
        passed: list[str] = []
        try:
            for a in attempts(self.app, self.role, self.pieces, need=self.need, passed=passed):
                sent = False
                try:
                    for item in self._call(a, build, tools, stream):
                        if not sent:
                            self._attempt, sent = a, True
                        yield item
                    return
                except ModelError as exc:
                    if sent:
                        raise
                    _failed(self.app, a, self.role, exc, failures)
        except NoBackend:
            if not failures:
                raise
        raise _exhausted(self.role, failures, passed)

    def _call(
        self,
        a: Attempt,
        build: BuildMessages,
        tools: Sequence[Mapping[str, Any]],
        stream: bool,
    ) -> Iterator[str | ToolRound]:
        messages = build(a.admitted)
        operation = "stream" if stream else "chat"
        started = time.perf_counter()
        try:
            items = _items(a.client, a.model, messages, _merged(a.params, self.params), tools,
                           stream)  # fmt: skip
            for item in items:
                if not isinstance(item, ChatResult):
                    yield item
                    continue
                calls = item.tool_calls if isinstance(item, ToolChatResult) else []
                logged = item
                if calls and not item.text:  # the log shows what the model asked for
                    logged = ChatResult(json.dumps([c.message() for c in calls]), item.model,
                                        item.prompt_tokens, item.completion_tokens,
                                        item.finish_reason)  # fmt: skip
                latency = _log(self.app, self.role, a, operation, started, result=logged,
                               request=messages)  # fmt: skip
                self.app.backends.succeeded(a.backend.name, self.role)
                yield ToolRound(item.text, calls, a.backend.name, item.model or a.model,
                                item.prompt_tokens, item.completion_tokens, item.finish_reason,
                                latency, a.withheld)  # fmt: skip
                return
        except ModelError as exc:
            _log(self.app, self.role, a, operation, started, error=exc, request=messages)
            raise
        raise InvalidResponse(f"{a.backend.name}'s answer ended without a result")
