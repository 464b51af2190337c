"""The synchronous half of a gateway call: record the turn, gate the envelope, call the chat
chain, commit the answer. Every function here runs on a worker thread (``app.bridge.run_sync``).

The trust gate sees one ``Piece`` per envelope message, as sensitive as the most sensitive
content it carries; a backend gets only the messages it may see, and always the new turn, or it is
passed over: ``llm.chat`` takes the turn as ``required``. ``llm.stream`` has no ``required``, so
the stream asks for ``need`` pieces instead, which is the same rule: trust levels see nested sets
of sensitivities (public ⊂ non-personal ⊂ no-credentials ⊂ full-trust), so a backend sees the turn
exactly when it sees every piece at most as sensitive as the turn, and any backend that does not
see the turn sees fewer than that many.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError as PydanticError

from ctx.core import App, CtxError, Principal
from ctx.core.governor import (
    CHAT_ROLE,
    CommitRequest,
    EventIn,
    PrepareRequest,
    ThreadRef,
    count_messages,
)
from ctx.core.llm import SENSITIVITY_ORDER, NoBackend, Piece, Reply, available, chat, stream
from ctx.core.validation import error_message
from ctx.ui.gateway.errors import GatewayError, from_ctx
from ctx.ui.gateway.turn import Turn

log = logging.getLogger("ctx.gateway")
ROLE = CHAT_ROLE
#: where a field of the governor's requests came from in the client's request
PARAMS = {
    "thread.session_id": "X-Ctx-Thread",
    "thread.collection": "X-Ctx-Collection",
    "collection": "X-Ctx-Collection",
    "budget": "X-Ctx-Budget",
    "system": "messages",
    "event.content": "messages",
    "event.name": "messages.name",
}
NO_BACKEND_HINT = (
    "add one with `ctx backends create <name> --url http://<host>/v1 --role chat "
    "--model default=<model> --trust <level>`"
)


def strongest(sensitivities: list[str]) -> str:
    """The most sensitive of a message's sensitivities; an unknown one counts as credentials
    (only full trust sees it, as the gate treats unknown ones); none is public (the client's own
    system prompt)."""
    rank = 0
    for s in sensitivities:
        rank = max(rank, SENSITIVITY_ORDER.index(s) if s in SENSITIVITY_ORDER else 3)
    return SENSITIVITY_ORDER[rank]


@dataclass
class Governed:
    """The envelope of one turn and what each backend attempt was sent from it."""

    envelope: dict[str, Any]
    pieces: list[Piece]
    sent: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def of(cls, envelope: dict[str, Any]) -> Governed:
        marks = envelope.get("sensitivities") or []
        n = len(envelope["messages"])
        return cls(envelope, [Piece(strongest(marks[i] if i < len(marks) else []), i)
                              for i in range(n)])  # fmt: skip

    @property
    def turn(self) -> Piece:
        return self.pieces[-1]

    @property
    def need(self) -> int:
        """How many pieces a backend that may see the turn always sees (see the module doc)."""
        rank = SENSITIVITY_ORDER.index(self.turn.sensitivity)
        return sum(1 for p in self.pieces if SENSITIVITY_ORDER.index(p.sensitivity) <= rank)

    def build(self, admitted: list[Piece]) -> list[dict[str, str]]:
        keep = {p.value for p in admitted} | {self.turn.value}
        messages = self.envelope["messages"]
        self.sent = [messages[i] for i in range(len(messages)) if i in keep]
        return self.sent

    @property
    def withheld(self) -> int:
        return len(self.pieces) - len(self.sent) if self.sent else 0


def _prepare_request(app: App, turn: Turn) -> PrepareRequest:
    limit = int(app.settings["governor.max_event_chars"])
    if len(turn.content) > limit:
        raise GatewayError(
            413,
            f"the new message has {len(turn.content)} characters; the limit is {limit} "
            "(governor.max_event_chars)",
            param="messages",
            code="message_too_long",
        )
    data: dict[str, Any] = {
        "thread": {"session_id": turn.thread, "collection": turn.collection},
        "event": {"role": turn.role, "content": turn.content, "name": turn.name,
                  "metadata": {"via": "gateway"}},
        "budget": turn.budget,
        "system": turn.system,
        "strict": turn.strict,
    }  # fmt: skip
    try:
        return PrepareRequest.model_validate(data)
    except PydanticError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        param = PARAMS.get(where, where)
        raise GatewayError(
            400, f"{param} {error_message(dict(first))}", param=param, code="invalid_value"
        ) from None
    except CtxError as exc:
        raise from_ctx(exc) from None


def check_backends(app: App) -> None:
    """Before the turn is stored: a 503 when no backend can serve ``chat`` now, so a retry does
    not store the turn twice."""
    why = available(app, ROLE)
    if why:
        raise GatewayError(
            503,
            f"no model backend can answer: {why}; {NO_BACKEND_HINT}",
            code="no_backend",
            type="api_error",
        )


def govern(app: App, who: Principal, turn: Turn) -> Governed:
    """Store the turn and build its envelope."""
    req = _prepare_request(app, turn)
    try:
        envelope = app.governor.prepare(who, req)
    except CtxError as exc:
        raise from_ctx(exc, param=PARAMS.get(exc.field or "", exc.field)) from None
    return Governed.of(envelope)


def failure(exc: CtxError) -> GatewayError:
    """A model call's failure once the turn is stored (the answer says so)."""
    if isinstance(exc, NoBackend):
        error = GatewayError(
            503,
            f"no model backend could take this turn: {exc.message}; the turn is stored in the "
            f"thread. {NO_BACKEND_HINT}",
            code="no_backend",
            type="api_error",
            recorded=True,
        )
        return error
    error = from_ctx(exc, recorded=True)
    if exc.status_code >= 500:
        error.type = "api_error"
        error.code = "backend_timeout" if exc.status_code == 504 else "backend_error"
        error.message = f"the model backend failed: {exc.message}; the turn is stored in the thread"
    return error


def answer(app: App, turn: Turn, governed: Governed) -> Reply:
    try:
        return chat(app, ROLE, governed.build, pieces=governed.pieces, params=turn.params,
                    required=[governed.turn])  # fmt: skip
    except CtxError as exc:
        raise failure(exc) from None


def open_stream(app: App, turn: Turn, governed: Governed) -> tuple[Iterator[str | Reply], Any]:
    """The chain's stream and its first item (text or the ``Reply``), so that a chain that cannot
    start is an HTTP error before the response begins."""
    items = stream(app, ROLE, governed.build, pieces=governed.pieces, params=turn.params,
                   need=governed.need)  # fmt: skip
    try:
        first = next(items, None)
    except CtxError as exc:
        raise failure(exc) from None
    return items, first


def commit(app: App, who: Principal, turn: Turn, text: str, reply: Reply) -> int | None:
    """Store the answer in the thread; the event's seq, or None for an empty answer (there is
    nothing to remember, and the governor refuses empty events)."""
    if not text.strip():
        return None
    req = CommitRequest(
        thread=ThreadRef(session_id=turn.thread, collection=turn.collection),
        event=EventIn(
            role="assistant",
            content=text,
            meta={"via": "gateway", "backend": reply.backend, "model": reply.model},
        ),
    )
    return int(app.governor.commit(who, req)["seq"])


def completion_tokens(app: App, text: str) -> int:
    return int(app.governor.counter().count(text))


def prompt_tokens(app: App, governed: Governed) -> int:
    """The envelope's tokens, or, when the gate held messages back, those of what was sent."""
    if not governed.withheld:
        return int(governed.envelope["tokens"])
    return int(count_messages(app.governor.counter(), governed.sent))


def served_models(app: App) -> list[tuple[str, str]]:
    """``(model, backend)`` for each model the enabled backends with the chat role serve, by
    priority (a model several serve is named once, by the first)."""
    out: dict[str, str] = {}
    for backend in app.backends.serving(ROLE):
        out.setdefault(backend.model_for(ROLE)[0] or backend.name, backend.name)
    return list(out.items())


def model_label(app: App, requested: str | None, answered: str | None) -> str:
    """The ``model`` an answer names: the client's own when some chat backend serves a model of
    that name, else the one that answered (streams: the chain's first backend's)."""
    served = served_models(app)
    if requested and (requested == answered or any(m == requested for m, _ in served)):
        return requested
    if answered:
        return answered
    chain = app.backends.chain(ROLE)
    return (chain[0].model_for(ROLE)[0] or chain[0].name) if chain else ROLE
