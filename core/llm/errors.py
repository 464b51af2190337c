"""What a model call can fail with. Each carries a message a person can act on."""

from __future__ import annotations

from ctx.core.errors import CtxError


class ModelError(CtxError):
    """A backend failed: unreachable, an HTTP error, or an answer that is not what the wire
    format promises. The chain moves on to the next backend.

    ``message`` never carries what the server sent back (an error body may echo the prompt, and
    so block content): it is safe to show any caller. ``detail`` holds the server's words for
    the call log, kept only with ``llm.log_content``. ``cools`` is false for a refusal of this
    one request (HTTP 400, 413, 422: a prompt too long for the model), which moves the call on
    without putting the backend into cooldown for everyone."""

    status_code = 502
    outcome = "error"

    def __init__(
        self, message: str, *, detail: str = "", cools: bool = True, field: str | None = None
    ) -> None:
        super().__init__(message, field=field)
        self.detail = detail
        self.cools = cools


class ModelTimeout(ModelError):
    """No answer (or no next piece of a stream) in time, or a stream that would not end."""

    status_code = 504
    outcome = "timeout"


class InvalidResponse(ModelError):
    """The backend answered, but not in the wire format: malformed JSON, a truncated stream,
    missing fields, a rerank answer that does not cover every document."""

    outcome = "invalid"


class NoBackend(CtxError):
    """No backend can serve the role for this call (none configured, all cooling down, or none
    trusted with the content); ``reason`` says which."""

    status_code = 503

    def __init__(self, role: str, reason: str) -> None:
        super().__init__(f"{role}: {reason}")
        self.role = role
        self.reason = reason
