"""Chat with tools: the rounds of one turn of OpenAI's ``tools`` / ``tool_calls`` exchange, whole
or streamed, every round on the same backend.

A turn in which the model may call tools is several model calls: the model asks for calls, the
caller runs them and sends the results back, until the model answers in text. The caller filters
each tool result for the trust level of the backend that will read it, so the rounds must not
wander: the first round walks the role's chain (a backend that fails before its first output is
replaced by the next, as ``stream`` does), and later rounds stay with the backend that answered.

The wire is the client's: the built-in ``openai`` kind's ``OpenAIClient.tool_chat`` and
``stream_tool_chat`` (the same payload builder, answer parser and stream reader as its plain
chat); a plugin kind's client may offer both with the same signatures, and one that offers
neither still answers in text (its rounds offer no tools).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ctx.core.llm.backends import Backend
from ctx.core.llm.calls import (
    Attempt,
    attempts,
    chain_failure,
    log_attempt,
    merged_params,
    note_failure,
)
from ctx.core.llm.completions import ChatResult, ToolCall, ToolChatResult
from ctx.core.llm.errors import InvalidResponse, ModelError, NoBackend
from ctx.core.llm.gate import Piece

if TYPE_CHECKING:
    from ctx.core.app import App

Message = dict[str, Any]
BuildMessages = Callable[[list[Piece]], list[Message]]


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
                    note_failure(self.app, a, self.role, exc, failures)
        except NoBackend:
            if not failures:
                raise
        raise chain_failure(self.role, failures, passed)

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
            items = _items(a.client, a.model, messages, merged_params(a.params, self.params), tools,
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
                latency = log_attempt(self.app, self.role, a, operation, started, result=logged,
                               request=messages)  # fmt: skip
                self.app.backends.succeeded(a.backend.name, self.role)
                yield ToolRound(item.text, calls, a.backend.name, item.model or a.model,
                                item.prompt_tokens, item.completion_tokens, item.finish_reason,
                                latency, a.withheld)  # fmt: skip
                return
        except ModelError as exc:
            log_attempt(self.app, self.role, a, operation, started, error=exc, request=messages)
            raise
        raise InvalidResponse(f"{a.backend.name}'s answer ended without a result")
