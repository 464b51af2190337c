"""The OpenAI wire protocol, spoken to llama.cpp, vLLM, Ollama and OpenAI-compatible clouds.

``/v1/chat/completions`` (whole answers and SSE streams, with or without tools: one payload
builder, one answer parser and one stream reader for all four), ``/v1/embeddings`` and the
Cohere/Jina ``/v1/rerank``. Every request goes through one pooled ``httpx.Client`` owned by the backend pool,
with its timeouts from the settings; every answer is checked against the wire format before it is
used. A stream that breaks off, sends garbage or never ends is an error with a clear message
(``InvalidResponse``, ``ModelTimeout``), never a hang.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

import httpx

from ctx.core.llm.completions import ChatResult, StreamedAnswer, whole_answer
from ctx.core.llm.errors import InvalidResponse, ModelError, ModelTimeout
from ctx.core.llm.sse import sse_events

#: A chat param that shortens this call's timeouts (seconds; never sent): a caller with its own
#: deadline (a Dream cycle) asks for less than the settings' limits.
TIMEOUT_PARAM = "ctx_timeout_s"
RESERVED = frozenset({"model", "messages", "stream", "input", "query", "documents", TIMEOUT_PARAM})
#: HTTP statuses that refuse this one request (too long, malformed for this model), not the
#: backend: the chain moves on without a cooldown.
REQUEST_REFUSED = frozenset({400, 413, 422})
CHAT_PATH = "/v1/chat/completions"
MAX_LINE = 1 << 20


@dataclass(frozen=True)
class Limits:
    """``connect``/``read``: seconds to connect and between two reads (two stream events);
    ``total``: seconds a whole call may take; ``max_chars``: the longest answer accepted."""

    connect: float = 5.0
    read: float = 120.0
    total: float = 300.0
    max_chars: int = 200_000


def endpoint(base_url: str, path: str) -> str:
    """``path`` (``/v1/...``) under a base URL given with or without its ``/v1``."""
    base = base_url.rstrip("/")
    if base.endswith("/v1"):
        base = base[:-3]
    return base + path


def _detail(body: bytes) -> str:
    try:
        parsed = json.loads(body)
    except ValueError:
        return body[:200].decode("utf-8", "replace") or "no body"
    error = parsed.get("error", parsed) if isinstance(parsed, dict) else parsed
    if isinstance(error, dict) and "message" in error:
        return str(error["message"])[:300]
    return str(error)[:300]


class OpenAIClient:
    """One backend's endpoints; thread-safe (the shared ``httpx.Client`` is)."""

    def __init__(
        self,
        base_url: str,
        *,
        http: httpx.Client,
        limits: Limits,
        api_key: str | None = None,
        name: str = "",
    ) -> None:
        if not base_url.startswith(("http://", "https://")):
            raise ModelError(f"backend {name or base_url!r}: base_url must be an http(s) URL")
        self.base_url = base_url
        self.name = name or base_url
        self.http = http
        self.limits = limits
        self.headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}

    # -- requests --------------------------------------------------------------------------------

    @contextmanager
    def _open(
        self, path: str, payload: Mapping[str, Any], limits: Limits | None = None
    ) -> Iterator[httpx.Response]:
        url = endpoint(self.base_url, path)
        lim = limits or self.limits
        timeout = httpx.Timeout(lim.read, connect=lim.connect)
        try:
            with self.http.stream(
                "POST", url, json=payload, headers=self.headers, timeout=timeout
            ) as response:
                if response.status_code != 200:
                    body = self._read(response, time.monotonic() + lim.read, 64_000, cut=True)
                    raise ModelError(
                        f"{self.name} answered HTTP {response.status_code} on {path}",
                        detail=_detail(body),
                        cools=response.status_code not in REQUEST_REFUSED,
                    )
                yield response
        except httpx.TimeoutException as exc:
            raise ModelTimeout(
                f"{self.name} did not answer {path} within {lim.read:g} s "
                f"({type(exc).__name__}); raise llm.read_timeout or check the server's load"
            ) from None
        except httpx.HTTPError as exc:
            raise ModelError(
                f"{self.name} broke off {path} ({type(exc).__name__}: {exc}); check base_url "
                "and that the server is running"
            ) from None

    def _read(
        self,
        response: httpx.Response,
        deadline: float,
        cap: int,
        *,
        cut: bool = False,
        total: float | None = None,
    ) -> bytes:
        """The body, read within ``deadline``; past ``cap`` bytes refused (or, with ``cut``,
        truncated: an error body need not be whole)."""
        parts: list[bytes] = []
        size = 0
        for chunk in response.iter_bytes():
            parts.append(chunk)
            size += len(chunk)
            if size > cap:
                if cut:
                    break
                raise InvalidResponse(f"{self.name} sent more than {cap} bytes; refused")
            if time.monotonic() > deadline:
                raise ModelTimeout(
                    f"{self.name} took longer than {total or self.limits.total:g} s to answer "
                    "(llm.total_timeout)"
                )
        return b"".join(parts)

    def _post_json(
        self, path: str, payload: Mapping[str, Any], limits: Limits | None = None
    ) -> Any:
        lim = limits or self.limits
        deadline = time.monotonic() + lim.total
        with self._open(path, payload, lim) as response:
            body = self._read(response, deadline, max(lim.max_chars * 8, 8 << 20), total=lim.total)
        try:
            return json.loads(body)
        except (ValueError, UnicodeDecodeError):
            raise InvalidResponse(
                f"{self.name} answered {path} with something that is not JSON",
                detail=repr(body[:200]),
            ) from None

    # -- chat ------------------------------------------------------------------------------------

    def _chat_payload(
        self,
        model: str,
        messages: Sequence[Mapping[str, Any]],
        params: Mapping[str, Any],
        tools: Sequence[Mapping[str, Any]] = (),
    ) -> dict[str, Any]:
        extra = {k: v for k, v in params.items() if k not in RESERVED}
        payload: dict[str, Any] = {"model": model, "messages": list(messages), **extra}
        if tools:
            payload["tools"] = list(tools)
        return payload

    def _limits_for(self, params: Mapping[str, Any]) -> Limits:
        wanted = params.get(TIMEOUT_PARAM)
        if not isinstance(wanted, int | float) or wanted <= 0:
            return self.limits
        t = float(wanted)
        return replace(self.limits, read=min(self.limits.read, t), total=min(self.limits.total, t))

    def chat(
        self, model: str, messages: Sequence[Mapping[str, str]], params: Mapping[str, Any]
    ) -> ChatResult:
        body = self._post_json(
            CHAT_PATH, self._chat_payload(model, messages, params), self._limits_for(params)
        )
        return whole_answer(body, model, self.name, self.limits.max_chars, tools=False)

    def tool_chat(
        self,
        model: str,
        messages: Sequence[Mapping[str, Any]],
        params: Mapping[str, Any],
        tools: Sequence[Mapping[str, Any]],
    ) -> ChatResult:
        """One whole answer to a request that offers ``tools`` (OpenAI function specs, perhaps
        none): a ``ToolChatResult`` with text, tool calls, or both."""
        body = self._post_json(CHAT_PATH, self._chat_payload(model, messages, params, tools))
        return whole_answer(body, model, self.name, self.limits.max_chars, tools=True)

    def stream_chat(
        self, model: str, messages: Sequence[Mapping[str, str]], params: Mapping[str, Any]
    ) -> Iterator[str | ChatResult]:
        """The answer's text pieces as they arrive, then one ``ChatResult`` with the whole."""
        return self._stream(model, self._chat_payload(model, messages, params), tools=False)

    def stream_tool_chat(
        self,
        model: str,
        messages: Sequence[Mapping[str, Any]],
        params: Mapping[str, Any],
        tools: Sequence[Mapping[str, Any]],
    ) -> Iterator[str | ChatResult]:
        """As ``tool_chat``, streamed: the text pieces as they arrive, then one
        ``ToolChatResult`` with the whole text and the tool calls the deltas put together."""
        return self._stream(model, self._chat_payload(model, messages, params, tools), tools=True)

    def _stream(
        self, model: str, payload: dict[str, Any], *, tools: bool
    ) -> Iterator[str | ChatResult]:
        """The one reader of chat-completion streams: the text pieces as they arrive, then the
        whole answer. The total deadline, the stall timeout and the line cap are ``_lines``'s;
        what the chunks say is ``StreamedAnswer``'s. A stream that ends without a finish reason
        or ``[DONE]`` was cut short."""
        payload.update(stream=True, stream_options={"include_usage": True})
        deadline = time.monotonic() + self.limits.total
        answer = StreamedAnswer(self.name, self.limits.max_chars, tools=tools)
        done = False
        with self._open(CHAT_PATH, payload) as response:
            try:
                for data in sse_events(self._lines(response, deadline)):
                    if data.strip() == "[DONE]":
                        done = True
                        break
                    yield from answer.add(data)
            except httpx.TimeoutException:
                raise ModelTimeout(
                    f"{self.name}'s stream stalled: nothing for {self.limits.read:g} s "
                    "(llm.read_timeout)"
                ) from None
            except httpx.HTTPError as exc:
                raise InvalidResponse(
                    f"{self.name}'s stream broke off ({type(exc).__name__}) after "
                    f"{answer.size} characters"
                ) from None
        if not done and answer.finish is None:
            raise InvalidResponse(
                f"{self.name}'s stream ended before the answer was complete (no finish_reason, "
                f"no [DONE]) after {answer.size} characters"
            )
        yield answer.result(model)

    def _lines(self, response: httpx.Response, deadline: float) -> Iterator[str]:
        """The stream's lines, each checked against the total deadline (keep-alive comments and
        a trickle of bytes count too) and against a size cap (a line that never ends)."""
        buffer = b""
        for chunk in response.iter_bytes():
            if time.monotonic() > deadline:
                raise ModelTimeout(
                    f"{self.name}'s stream did not end within {self.limits.total:g} s "
                    "(llm.total_timeout)"
                )
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            if len(buffer) > MAX_LINE:
                raise InvalidResponse(
                    f"{self.name} sent a stream line over {MAX_LINE} bytes; stopped"
                )
            for line in lines:
                yield line.decode("utf-8", "replace")
        if buffer:
            yield buffer.decode("utf-8", "replace")

    # -- embeddings and rerank -------------------------------------------------------------------

    def embed(
        self, model: str, texts: Sequence[str], params: Mapping[str, Any]
    ) -> list[list[float]]:
        extra = {k: v for k, v in params.items() if k not in RESERVED}
        body = self._post_json(
            "/v1/embeddings",
            {"model": model, "input": list(texts), "encoding_format": "float", **extra},
        )
        data = body.get("data") if isinstance(body, dict) else None
        if not isinstance(data, list) or len(data) != len(texts):
            raise InvalidResponse(
                f"{self.name} sent an embeddings answer without one vector per text"
            )
        rows: list[list[float] | None] = [None] * len(texts)
        for position, item in enumerate(data):
            index = item.get("index", position) if isinstance(item, dict) else None
            vector = item.get("embedding") if isinstance(item, dict) else None
            if not isinstance(index, int) or not 0 <= index < len(texts) or rows[index] is not None:
                raise InvalidResponse(f"{self.name}: embedding {position} has a bad index")
            if not isinstance(vector, list) or not all(isinstance(v, int | float) for v in vector):
                raise InvalidResponse(f"{self.name}: embedding {position} is not a list of numbers")
            rows[index] = [float(v) for v in vector]
        return [r for r in rows if r is not None]

    def rerank(
        self, model: str, query: str, documents: Sequence[str], params: Mapping[str, Any]
    ) -> list[float]:
        """One raw relevance score per document, in the order given. The server's list is sorted
        by score (and may be trimmed), so it is realigned strictly by each result's ``index``,
        and every document must be covered exactly once."""
        extra = {k: v for k, v in params.items() if k not in RESERVED}
        body = self._post_json(
            "/v1/rerank",
            {"model": model, "query": query, "documents": list(documents),
             "top_n": len(documents), **extra},
        )  # fmt: skip
        results = body.get("results") if isinstance(body, dict) else None
        if not isinstance(results, list):
            raise InvalidResponse(f'{self.name} sent a rerank answer without a "results" list')
        scores: list[float | None] = [None] * len(documents)
        for item in results:
            index = item.get("index") if isinstance(item, dict) else None
            score = item.get("relevance_score") if isinstance(item, dict) else None
            if not isinstance(index, int) or isinstance(index, bool):
                raise InvalidResponse(f"{self.name}: a rerank result has no integer index")
            if not 0 <= index < len(documents):
                raise InvalidResponse(
                    f"{self.name}: rerank index {index} is outside 0..{len(documents) - 1}"
                )
            if scores[index] is not None:
                raise InvalidResponse(f"{self.name}: rerank index {index} appears twice")
            if not isinstance(score, int | float) or isinstance(score, bool) or score != score:
                raise InvalidResponse(f"{self.name}: rerank result {index} has no numeric score")
            scores[index] = float(score)
        missing = [i for i, s in enumerate(scores) if s is None]
        if missing:
            raise InvalidResponse(
                f"{self.name}: the rerank answer leaves out document(s) {missing[:5]}"
            )
        return [float(s) for s in scores if s is not None]

    def ping(self) -> Any:
        """``GET /v1/models``: reachability without spending tokens."""
        try:
            response = self.http.get(
                endpoint(self.base_url, "/v1/models"),
                headers=self.headers,
                timeout=httpx.Timeout(self.limits.read, connect=self.limits.connect),
            )
        except httpx.HTTPError as exc:
            raise ModelError(f"{self.name} is unreachable ({type(exc).__name__}: {exc})") from None
        if response.status_code != 200:
            raise ModelError(f"{self.name} answered HTTP {response.status_code} on /v1/models")
        try:
            return response.json()
        except ValueError:
            raise InvalidResponse(
                f"{self.name} answered /v1/models with something not JSON"
            ) from None
