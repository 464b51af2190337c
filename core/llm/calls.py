"""Model calls by role: walk the role's chain, gate the content, call, log, fail over.

Every call that carries block content names it as ``Piece``s; for each backend the trust gate
(``gate.admit``) decides which pieces it may see, and the request is built from those alone. A
backend whose trust admits fewer than ``need`` pieces is passed over, with the reason; a failing
backend goes into cooldown and the next one is tried. Each attempt is one row in the call log.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from ctx.core.llm.backends import Backend
from ctx.core.llm.calllog import CallRecord, record_call
from ctx.core.llm.completions import ChatResult
from ctx.core.llm.errors import ModelError, ModelTimeout, NoBackend
from ctx.core.llm.gate import Piece, admit

if TYPE_CHECKING:
    from ctx.core.app import App

Messages = list[dict[str, str]]
BuildMessages = Callable[[list[Piece]], Messages]


@dataclass
class Reply:
    """What a role call produced, by whom, and what the gate kept back."""

    text: str
    role: str
    backend: str
    model: str
    withheld: int = 0
    admitted: list[Piece] = field(default_factory=list)
    latency_ms: float = 0.0
    passed_over: list[str] = field(default_factory=list)

    def about(self) -> dict[str, Any]:
        return {
            "backend": self.backend,
            "model": self.model,
            "withheld": self.withheld,
            "latency_ms": round(self.latency_ms, 1),
        }


@dataclass
class Attempt:
    backend: Backend
    client: Any
    model: str
    params: dict[str, Any]
    admitted: list[Piece]
    withheld: int


def attempts(
    app: App,
    role: str,
    pieces: Sequence[Piece] = (),
    *,
    need: int = 0,
    passed: list[str] | None = None,
    required: Sequence[Piece] = (),
) -> Iterator[Attempt]:
    """The backends to try for ``role`` with what each may see; the ones passed over (and why)
    are appended to ``passed``. A backend must see at least ``need`` pieces and every piece of
    ``required`` (each also one of ``pieces``). Raises ``NoBackend`` when the chain is empty or
    no backend is trusted with enough of the pieces."""
    pool = app.backends
    chain = pool.chain(role)
    if not chain:
        raise NoBackend(role, pool.why_empty(role))
    if passed is None:
        passed = []
    for backend in chain:
        admitted, withheld = admit(backend.trust, pieces)
        if any(all(r is not p for p in admitted) for r in required):
            passed.append(f"{backend.name} (trust {backend.trust}) may not see the subject")
            continue
        if len(admitted) < need:
            passed.append(
                f"{backend.name} (trust {backend.trust}) may see {len(admitted)} of "
                f"{len(pieces)} sources"
            )
            continue
        model, params = backend.model_for(role)
        try:
            client = pool.client(backend)
        except ModelError as exc:
            pool.failed(backend.name, exc.message, role)
            passed.append(exc.message)
            continue
        yield Attempt(backend, client, model, params, admitted, withheld)
    if passed:
        raise NoBackend(role, "; ".join(passed))


def log_attempt(
    app: App,
    role: str,
    a: Attempt,
    operation: str,
    started: float,
    *,
    error: ModelError | None = None,
    result: ChatResult | None = None,
    request: Any = None,
) -> float:
    """Write attempt ``a``'s row in the call log (``operation``: chat, stream, rerank, embed),
    with its ``error`` or its ``result``; ``request`` is kept only with ``llm.log_content``.
    The latency since ``started`` (``time.perf_counter()``), in ms."""
    latency = (time.perf_counter() - started) * 1000
    record_call(
        app,
        CallRecord(
            role=role,
            backend=a.backend.name,
            model=(result.model if result else None) or a.model,
            operation=operation,
            outcome=error.outcome if error else "ok",
            latency_ms=latency,
            error=_error_text(app, error),
            prompt_tokens=result.prompt_tokens if result else None,
            completion_tokens=result.completion_tokens if result else None,
            withheld=a.withheld,
            request=request,
            response=result.text if result else None,
        ),
        prune=app.backends.should_prune(),
    )
    return latency


def _error_text(app: App, error: ModelError | None) -> str | None:
    """The error for the log: the server's own words only with ``llm.log_content`` (an error
    body may echo the prompt)."""
    if error is None:
        return None
    if error.detail and app.settings["llm.log_content"]:
        return f"{error.message}: {error.detail}"
    return error.message


def note_failure(
    app: App, a: Attempt, role: str, exc: ModelError, failures: list[ModelError]
) -> None:
    """Attempt ``a`` failed with ``exc``: its backend cools down (unless only this request was
    refused) and ``exc`` joins ``failures`` for ``chain_failure``."""
    if exc.cools:
        app.backends.failed(a.backend.name, exc.message, role)
    failures.append(exc)


def merged_params(params: Mapping[str, Any], overrides: Mapping[str, Any] | None) -> dict[str, Any]:
    """A backend row's model ``params`` over a caller's ``overrides``: the row's win (an
    operator who pins temperature means it)."""
    return {**(overrides or {}), **params}


class ChainFailed(ModelError):
    """Every backend of the chain was tried and failed."""


class ChainTimedOut(ChainFailed):
    """Every backend of the chain that was tried timed out: a 504 (and ``timeout``), not the
    502 of a backend that answered wrongly."""

    status_code = 504
    outcome = "timeout"


def chain_failure(role: str, failures: list[ModelError], passed: list[str]) -> ModelError:
    """The error to raise when ``role``'s chain ran out: every failure and every backend passed
    over, in one message; a ``ChainTimedOut`` (504) when every failure was a timeout."""
    said = "; ".join([f.message for f in failures] + passed)
    timed_out = bool(failures) and all(isinstance(f, ModelTimeout) for f in failures)
    return (ChainTimedOut if timed_out else ChainFailed)(f"{role}: every backend failed: {said}")


T = TypeVar("T")
#: One model request: given the attempt and what ``request`` built for it, the value the caller
#: wants and, for a chat, its result.
Send = Callable[[Attempt, Any], tuple[T, ChatResult | None]]


def _first_answer(
    app: App,
    role: str,
    operation: str,
    pieces: Sequence[Piece],
    need: int,
    send: Send[T],
    request: Callable[[Attempt], Any] = lambda a: None,
    required: Sequence[Piece] = (),
) -> tuple[T, Reply]:
    """Walk ``role``'s chain until one backend answers ``send``; log every attempt, cool down
    the ones that fail. ``request(attempt)`` builds what is sent (and what the log keeps with
    ``llm.log_content``)."""
    failures: list[ModelError] = []
    passed: list[str] = []
    try:
        for a in attempts(app, role, pieces, need=need, passed=passed, required=required):
            logged = request(a)
            started = time.perf_counter()
            try:
                value, result = send(a, logged)
            except ModelError as exc:
                log_attempt(app, role, a, operation, started, error=exc, request=logged)
                note_failure(app, a, role, exc, failures)
                continue
            latency = log_attempt(app, role, a, operation, started, result=result, request=logged)
            app.backends.succeeded(a.backend.name, role)
            text, model = (result.text, result.model or a.model) if result else ("", a.model)
            return value, Reply(text, role, a.backend.name, model, a.withheld, a.admitted,
                                latency, passed)  # fmt: skip
    except NoBackend:
        if not failures:
            raise
    raise chain_failure(role, failures, passed)


def chat(
    app: App,
    role: str,
    build: BuildMessages,
    *,
    pieces: Sequence[Piece] = (),
    need: int = 0,
    params: Mapping[str, Any] | None = None,
    required: Sequence[Piece] = (),
) -> Reply:
    """One whole answer from the first backend of ``role`` that gives one; only backends that
    may see every piece of ``required`` are tried."""

    def send(a: Attempt, messages: Messages) -> tuple[None, ChatResult]:
        return None, a.client.chat(a.model, messages, merged_params(a.params, params))

    return _first_answer(
        app, role, "chat", pieces, need, send, lambda a: build(a.admitted), required
    )[1]


def stream(
    app: App,
    role: str,
    build: BuildMessages,
    *,
    pieces: Sequence[Piece] = (),
    need: int = 0,
    params: Mapping[str, Any] | None = None,
) -> Iterator[str | Reply]:
    """The answer's pieces as they arrive, then the ``Reply``. A backend that fails before its
    first piece is replaced by the next; one that fails later ends the stream with its error."""
    failures: list[ModelError] = []
    passed: list[str] = []
    try:
        for a in attempts(app, role, pieces, need=need, passed=passed):
            messages = build(a.admitted)
            started = time.perf_counter()
            sent = False
            try:
                for item in a.client.stream_chat(
                    a.model, messages, merged_params(a.params, params)
                ):
                    if isinstance(item, ChatResult):
                        latency = log_attempt(app, role, a, "stream", started, result=item,
                                       request=messages)  # fmt: skip
                        app.backends.succeeded(a.backend.name, role)
                        yield Reply(item.text, role, a.backend.name, item.model or a.model,
                                    a.withheld, a.admitted, latency, passed)  # fmt: skip
                        return
                    sent = True
                    yield item
            except ModelError as exc:
                log_attempt(app, role, a, "stream", started, error=exc, request=messages)
                note_failure(app, a, role, exc, failures)
                if sent:
                    raise
                continue
    except NoBackend:
        if not failures:
            raise
    raise chain_failure(role, failures, passed)


def rerank(
    app: App, query: str, pieces: Sequence[Piece], *, params: Mapping[str, Any] | None = None
) -> tuple[list[float | None], Reply]:
    """Raw scores from the rerank chain, one per piece (``None`` for a piece the backend may not
    see); the pieces' values are the document texts."""

    def send(a: Attempt, _: None) -> tuple[list[float | None], None]:
        docs = [str(p.value) for p in a.admitted]
        scores = a.client.rerank(a.model, query, docs, merged_params(a.params, params))
        by_piece = {id(p): s for p, s in zip(a.admitted, scores, strict=True)}
        return [by_piece.get(id(p)) for p in pieces], None

    return _first_answer(app, "rerank", "rerank", pieces, 1, send)


def embed(app: App, texts: Sequence[Piece]) -> tuple[list[list[float]], Reply]:
    """Vectors from the embed chain; every text must be visible to the backend."""

    def send(a: Attempt, _: None) -> tuple[list[list[float]], None]:
        return a.client.embed(a.model, [str(p.value) for p in a.admitted], a.params), None

    return _first_answer(app, "embed", "embed", texts, len(texts), send)


def available(app: App, role: str) -> str | None:
    """None when ``role`` has a backend to try now, else why not."""
    return None if app.backends.chain(role) else app.backends.why_empty(role)
