"""The OpenAI-compatible gateway: ``/v1/chat/completions`` and ``/v1/models``, governed.

Any agent that speaks OpenAI's chat format points its base URL at ``/v1`` and its API key at a ctx
key. Each call is one turn of a thread:

* **Auth**: the keys of ``/api`` (``Authorization: Bearer ctx_…`` or ``X-Context-Key``); every
  error is in OpenAI's shape (``{"error": {"message", "type", "param", "code"}}``), never ctx's.
* **Thread**: header ``X-Ctx-Thread`` (the session id), else the body's ``user``, else 400.
  ``X-Ctx-Collection`` picks the collection (default: the key's home scope, the only one it may
  write), ``X-Ctx-Budget`` the token budget (default ``governor.default_budget``),
  ``X-Ctx-Strict: true`` waits until the thread is indexed before the envelope is built.
* **The turn**: the system message(s) become the envelope's system prompt; the last message
  (role user or tool; a string or text parts, joined) is the new event, stored by
  ``governor.prepare`` before anything else. The client's earlier history is not forwarded: the
  envelope (system prompt, protected items, reading desk, recent ring, the turn) replaces it.
* **The backend**: the envelope goes to the ``chat`` role's chain, each message a trust-gate
  ``Piece`` as sensitive as what it carries; a backend gets only what it may see, and always the
  turn itself, or it is passed over (see ``relay``). Sampling params the client sends
  (temperature, top_p, max_tokens, max_completion_tokens, stop, seed, presence/frequency_penalty,
  response_format, tools, tool_choice) pass through; a backend row's own params win. Answers are
  text: a backend that answers a ``tools`` request with tool calls only fails as an invalid answer.
* **The model**: the backend's own model for ``chat`` is always the one asked for (the core's
  chat call takes no model from its caller). The response's ``model`` is the client's model when
  a chat backend serves a model of that name (or the answering backend reports it), else the model
  that answered; a stream, whose chunks name their model before the answering backend is known,
  names the chain's first backend's model then. Unknown model names are not refused.
* **The answer**: ``chat.completion`` (usage: the envelope's tokens as ``prompt_tokens``, or those
  of what was sent when the gate held messages back, and the answer counted with the governor's
  token counter, as the core's reply does not carry the backend's count), or with ``stream`` the
  ``chat.completion.chunk`` events, a usage chunk with ``stream_options.include_usage``, then
  ``data: [DONE]``. The answer is committed to the thread (role assistant) before the response
  ends: before the final chunk of a stream. Headers ``X-Ctx-Thread``, ``X-Ctx-Collection``,
  ``X-Ctx-Seq`` (the turn's), ``X-Ctx-Envelope-Tokens``, ``X-Ctx-Budget``; a whole answer also
  ``X-Ctx-Answer-Seq`` and ``X-Ctx-Withheld`` (messages the gate held back).
* **Failures**: no backend serving ``chat`` now is a 503 *before* the turn is stored, so a retry
  stores nothing twice; after the turn is stored, a chain that cannot start answers 502 (504 on a
  timeout, 503 when no backend may see the turn) with ``x-should-retry: false``, which stops
  OpenAI clients from retrying on their own and storing the turn again. A stream that breaks off
  after its first piece ends with one ``data: {"error": {...}}`` event and ``data: [DONE]``; what
  was received is not committed (the thread keeps the turn, unanswered). A client that goes away
  mid-stream closes the backend's request; nothing is committed either.
* **Body limit**: a body whose declared length is over ``server.body_limit`` is refused by ctx's
  request middleware before the gateway sees it, in ctx's ``/api`` error shape (status 413).
"""

from __future__ import annotations

from fastapi import FastAPI

from ctx.ui.gateway.errors import GatewayError, install_error_handlers
from ctx.ui.gateway.routes import router

__all__ = ["PREFIX", "GatewayError", "mount", "router"]

PREFIX = "/v1"


def mount(server: FastAPI) -> FastAPI:
    """Serve the gateway under ``/v1`` of ``server`` (whose ``state.ctx`` is the App) as its own
    app, with its own error handlers; returns that app."""
    gateway = FastAPI(
        title="ctx OpenAI-compatible gateway", openapi_url=None, docs_url=None, redoc_url=None
    )
    gateway.state.ctx = server.state.ctx
    install_error_handlers(gateway)
    gateway.include_router(router)
    server.mount(PREFIX, gateway, name="gateway")
    return gateway
